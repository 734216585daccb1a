/*
 * ttft-lab-resizer.js: sizes embedded ttft-lab iframes to their content.
 *
 * For course pages that load neither H5P's h5p-resizer.js nor a script of
 * their own. Add it once, anywhere on the page that holds the iframes:
 *
 *   <script src="https://YOUR-TTFT-LAB-SITE/ttft-lab-resizer.js" defer></script>
 *
 * It understands the two messages an embedded ttft-lab page sends:
 *
 *   - ttft-lab's own:  {type: "ttft-lab:height", version: 1, height: <px>}
 *   - H5P's protocol:  {context: "h5p", action: "hello" | "prepareResize" | "resize", ...}
 *     answering "hello" and "resizePrepared" as H5P's resizer does, so the
 *     page finishes its handshake whichever script the host runs.
 *
 * Load it from the ttft-lab site itself, not from a copy on the course
 * site: it sizes only iframes whose src has the origin the script was
 * loaded from (document.currentScript.src), so another site's iframe that
 * happens to speak the same messages cannot resize itself on your page.
 * Without a src (pasted inline) it sizes nothing and says so in the console.
 *
 * Safety rules it keeps (the same checks as ttft-core's embed.rs
 * read_height_message):
 *   - only iframes whose src has this script's own origin are sized;
 *   - a message is acted on only when event.source is the contentWindow of
 *     one of this page's iframes, and only that iframe is resized;
 *   - replies go to that iframe's own origin (event.origin), never to "*";
 *   - a height must be a finite number from 0 to 100000 pixels; anything
 *     else (missing, a string, negative, NaN, huge) is ignored.
 *
 * It does not read or send learner results, set any other style, or need
 * any library. If H5P's resizer is also on the page, both may answer the
 * H5P handshake; the heights they set agree.
 */
(function () {
  "use strict";
  if (!window.postMessage || !window.addEventListener || window.ttftLabResizer) {
    return;
  }

  /* The origin this script was loaded from. Read now: currentScript is set
     only while the script first runs. */
  var OWN_ORIGIN = null;
  try {
    var me = document.currentScript;
    if (me && me.src) {
      OWN_ORIGIN = new URL(me.src, document.baseURI).origin;
    }
  } catch (e) {
    OWN_ORIGIN = null;
  }
  if (!OWN_ORIGIN || OWN_ORIGIN === "null") {
    if (window.console && console.warn) {
      console.warn("ttft-lab-resizer.js sizes only iframes from the site it is loaded from; load it with <script src=\"https://YOUR-TTFT-LAB-SITE/ttft-lab-resizer.js\">.");
    }
    return;
  }
  window.ttftLabResizer = true;

  /* The origin of an iframe's src, or null. */
  function frameOrigin(frame) {
    try {
      return new URL(frame.src, document.baseURI).origin;
    } catch (e) {
      return null;
    }
  }

  var MAX_HEIGHT = 100000;

  /* A height in 0..MAX_HEIGHT, rounded up to a whole pixel, or null. */
  function height(value) {
    if (typeof value !== "number" || !isFinite(value) || value < 0 || value > MAX_HEIGHT) {
      return null;
    }
    return Math.ceil(value);
  }

  /* The iframe whose window sent the message, or null. */
  function senderFrame(source) {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === source) {
        return frames[i];
      }
    }
    return null;
  }

  function setHeight(frame, px) {
    frame.style.height = px + "px";
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object" || !event.source) {
      return;
    }
    var ours = data.type === "ttft-lab:height";
    var h5p = data.context === "h5p";
    if (!ours && !h5p) {
      return; /* another script's message */
    }
    var frame = senderFrame(event.source);
    if (!frame) {
      return; /* not from one of our iframes */
    }
    /* The iframe must show a page from this script's own site, and the
       sender's origin must be the origin the iframe was loaded from. */
    var expected = frameOrigin(frame);
    if (expected !== OWN_ORIGIN || event.origin !== expected) {
      return;
    }
    function reply(action) {
      event.source.postMessage({ context: "h5p", action: action }, event.origin);
    }

    if (ours) {
      var px = data.version === 1 ? height(data.height) : null;
      if (px !== null) {
        setHeight(frame, px);
      }
      return;
    }
    if (data.action === "hello") {
      frame.style.width = "100%";
      if (!frame.ttftLabListening) {
        /* When this window resizes, ask the iframe to measure again. */
        frame.ttftLabListening = true;
        var source = event.source;
        var origin = event.origin;
        window.addEventListener("resize", function () {
          if (frame.contentWindow === source) {
            source.postMessage({ context: "h5p", action: "resize" }, origin);
          }
        }, false);
      }
      reply("hello");
    } else if (data.action === "prepareResize") {
      var scroll = height(data.scrollHeight);
      var client = height(data.clientHeight);
      if (scroll === null || client === null) {
        return;
      }
      if (frame.clientHeight !== scroll || scroll !== client) {
        setHeight(frame, client);
        reply("resizePrepared");
      }
    } else if (data.action === "resize") {
      var target = height(data.scrollHeight);
      if (target !== null) {
        setHeight(frame, target);
      }
    }
  }, false);

  /* Tell iframes that loaded before this script that a resizer is here;
     they answer "hello" and the handshake proceeds. Sent only to iframes
     from this script's own site, at that origin. */
  var frames = document.getElementsByTagName("iframe");
  for (var i = 0; i < frames.length; i++) {
    if (frameOrigin(frames[i]) === OWN_ORIGIN && frames[i].contentWindow) {
      frames[i].contentWindow.postMessage({ context: "h5p", action: "ready" }, OWN_ORIGIN);
    }
  }
})();
