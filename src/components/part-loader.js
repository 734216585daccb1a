// part-loader.js: loads a part's own program, a second wasm that only that
// part needs (src/bin/simulate-part.rs, src/bin/second-opinion-part.rs,
// src/bin/embed-panel-part.rs, src/bin/author-preview-part.rs), so no
// other part pays for it. The page adds this script once per part, when
// the part first opens, naming the part in `data-ttft-part`; it defines
// `window.ttftPartLoad[name]` and calls it. Loading imports `<name>-part.js`
// (the wasm-bindgen glue Trunk writes for it, an ES module: a module's
// functions are compiled when first called, where the classic glue's were
// parsed and compiled in one main-thread task, 77 ms at 4x CPU against the
// module's 54 ms), starts `<name>-part_bg.wasm`, both beside the page
// whatever the sub-path, then exposes the module (its `mount`, `unmount`
// and whatever else the part exports) as `window.ttftParts[name]` and fires
// "ttft-<name>-ready". If a file does not arrive or start, it fires
// "ttft-<name>-failed" with the browser's reason, and calling the load
// again (Retry) tries what failed again (a module that failed to arrive is
// asked for under a new query: Chromium imports an address again after a
// failure, but the rule that lets it is recent, and a browser that
// remembers the failure would refuse every Retry). Deliberately nothing
// else: no other origin, and no part name but a plain word.
(function () {
  var script = document.currentScript;
  var name = script && script.getAttribute("data-ttft-part");
  if (!name || !/^[a-z]+(-[a-z]+)*$/.test(name)) return;
  var loads = window.ttftPartLoad || (window.ttftPartLoad = {});
  var parts = window.ttftParts || (window.ttftParts = {});
  var glue = null;
  var glueTries = 0;
  var busy = false;
  function failed(reason) {
    busy = false;
    dispatchEvent(new CustomEvent("ttft-" + name + "-failed", { detail: String(reason || "the browser gave no reason") }));
  }
  function start(part) {
    // Compiled from its whole bytes, off the main thread, as the page's own
    // wasm is (see Trunk.toml): streaming would decode it on the main thread.
    fetch("./" + name + "-part_bg.wasm").then(function (response) {
      if (!response.ok) throw new Error("its program did not arrive (HTTP " + response.status + ")");
      return response.arrayBuffer();
    }).then(function (bytes) {
      return WebAssembly.compile(bytes);
    }).then(function (module) {
      return part.default({ module_or_path: module });
    }).then(function () {
      busy = false;
      parts[name] = part;
      dispatchEvent(new CustomEvent("ttft-" + name + "-ready"));
    }, function (e) {
      failed((e && e.message) || e);
    });
  }
  loads[name] = function () {
    if (busy || parts[name]) return;
    busy = true;
    if (glue) return start(glue);
    glueTries += 1;
    var address = "./" + name + "-part.js";
    import(glueTries === 1 ? address : address + "?try=" + glueTries).then(function (part) {
      glue = part;
      start(part);
    }, function () {
      failed("its script did not arrive");
    });
  };
  loads[name]();
})();
