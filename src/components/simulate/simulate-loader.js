// simulate-loader.js: loads the simulate part's own program, a second wasm
// (src/bin/simulate-part.rs) that only this part needs, so no other part
// pays for it. The page adds this script once, when the part first opens;
// it defines `window.ttftSimulateLoad` and calls it. Loading imports
// `simulate-part.js` (the wasm-bindgen glue Trunk writes for it, an ES
// module: a module's functions are compiled when first called, where the
// classic glue's were parsed and compiled in one main-thread task, 77 ms at
// 4x CPU against the module's 54 ms), starts `simulate-part_bg.wasm`, both beside the page
// whatever the sub-path, then exposes its two entry points as
// `window.ttftSimulate` and fires "ttft-simulate-ready". If a file does
// not arrive or start, it fires "ttft-simulate-failed" with the browser's
// reason, and calling `ttftSimulateLoad` again (Retry) tries what failed
// again (a module that failed to arrive is asked for under a new query:
// Chromium imports an address again after a failure, but the rule that
// lets it is recent, and a browser that remembers the failure would refuse
// every Retry). Deliberately
// nothing else: no other origin.
(function () {
  var glue = null;
  var glueTries = 0;
  var busy = false;
  function failed(reason) {
    busy = false;
    dispatchEvent(new CustomEvent("ttft-simulate-failed", { detail: String(reason || "the browser gave no reason") }));
  }
  function start(part) {
    // Compiled from its whole bytes, off the main thread, as the page's own
    // wasm is (see Trunk.toml): streaming would decode it on the main thread.
    fetch("./simulate-part_bg.wasm").then(function (response) {
      if (!response.ok) throw new Error("its program did not arrive (HTTP " + response.status + ")");
      return response.arrayBuffer();
    }).then(function (bytes) {
      return WebAssembly.compile(bytes);
    }).then(function (module) {
      return part.default({ module_or_path: module });
    }).then(function () {
      busy = false;
      window.ttftSimulate = { mount: part.mount_simulate, unmount: part.unmount_simulate };
      dispatchEvent(new CustomEvent("ttft-simulate-ready"));
    }, function (e) {
      failed((e && e.message) || e);
    });
  }
  window.ttftSimulateLoad = function () {
    if (busy || window.ttftSimulate) return;
    busy = true;
    if (glue) return start(glue);
    glueTries += 1;
    import(glueTries === 1 ? "./simulate-part.js" : "./simulate-part.js?try=" + glueTries).then(function (part) {
      glue = part;
      start(part);
    }, function () {
      failed("its script did not arrive");
    });
  };
  window.ttftSimulateLoad();
})();
