// simulate-loader.js: loads the simulate part's own program, a second wasm
// (src/bin/simulate-part.rs) that only this part needs, so no other part
// pays for it. The page adds this script once, when the part first opens;
// it defines `window.ttftSimulateLoad` and calls it. Loading adds
// `simulate-part.js` (the wasm-bindgen glue Trunk writes for it, which
// declares a global `wasm_bindgen`, so it is added at most once), starts
// `simulate-part_bg.wasm`, both beside the page whatever the sub-path, then
// exposes its two entry points as `window.ttftSimulate` and fires
// "ttft-simulate-ready". If a file does not arrive or start, it fires
// "ttft-simulate-failed" with the browser's reason, and calling
// `ttftSimulateLoad` again (Retry) tries what failed again. Deliberately
// nothing else: no other origin.
(function () {
  var glueLoaded = false;
  var busy = false;
  function failed(reason) {
    busy = false;
    dispatchEvent(new CustomEvent("ttft-simulate-failed", { detail: String(reason || "the browser gave no reason") }));
  }
  function start() {
    // Compiled from its whole bytes, off the main thread, as the page's own
    // wasm is (see Trunk.toml): streaming would decode it on the main thread.
    fetch("./simulate-part_bg.wasm").then(function (response) {
      if (!response.ok) throw new Error("its program did not arrive (HTTP " + response.status + ")");
      return response.arrayBuffer();
    }).then(function (bytes) {
      return WebAssembly.compile(bytes);
    }).then(function (module) {
      return wasm_bindgen({ module_or_path: module });
    }).then(function () {
      busy = false;
      window.ttftSimulate = { mount: wasm_bindgen.mount_simulate, unmount: wasm_bindgen.unmount_simulate };
      dispatchEvent(new CustomEvent("ttft-simulate-ready"));
    }, function (e) {
      failed((e && e.message) || e);
    });
  }
  window.ttftSimulateLoad = function () {
    if (busy || window.ttftSimulate) return;
    busy = true;
    if (glueLoaded) return start();
    var old = document.querySelector("script[data-ttft-simulate-glue]");
    if (old) old.remove();
    var glue = document.createElement("script");
    glue.src = "./simulate-part.js";
    glue.setAttribute("data-ttft-simulate-glue", "");
    glue.onerror = function () { failed("its script did not arrive"); };
    glue.onload = function () { glueLoaded = true; start(); };
    document.head.appendChild(glue);
  };
  window.ttftSimulateLoad();
})();
