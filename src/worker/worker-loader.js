// worker-loader.js: starts one of ttft-lab's worker binaries. The page
// opens it as `worker-loader.js?bin=<name>` (see src/worker/); it loads
// `<name>.js`, the wasm-bindgen glue Trunk writes for a `data-type="worker"`
// binary, then `<name>_bg.wasm`, both beside it, whatever the sub-path. If
// the glue does not arrive, the page sees the worker's error event; if the
// wasm does not arrive or compile, this posts ["load-failed", reason], the
// same shape as every other message (src/worker/wire.rs). Once started, the
// Rust side posts ["ready"]. Deliberately nothing else: no other origin,
// no name outside [a-z0-9-].
var bin = new URLSearchParams(self.location.search).get("bin") || "";
if (!/^[a-z][a-z0-9-]*$/.test(bin)) {
  self.postMessage(["load-failed", "no such worker: " + bin]);
} else {
  importScripts("./" + bin + ".js");
  wasm_bindgen("./" + bin + "_bg.wasm").catch(function (e) {
    self.postMessage(["load-failed", String((e && e.message) || e)]);
  });
}
