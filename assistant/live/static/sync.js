// Every phone in step: window.tableSync.onChange(cb) calls cb({version}) each time the game
// changes (a record, an undo, a photo applied; from any phone or the command line), over the
// server-sent events of /api/stream. The browser reconnects by itself after a dropped line; a
// refused or closed stream is opened again here, a little later each time. A change missed
// while away is still seen: the server sends the version on each (re)connection, and only a
// version other than the last one known is passed on.
(function () {
  "use strict";
  if (window.tableSync) return;  // included twice: one stream is enough
  const listeners = [];
  const meta = document.querySelector('meta[name="table-version"]');
  let known = meta ? Number(meta.content) : null;  // the version the page was drawn at
  let source = null, wait = 500, timer = null;
  function open() {
    timer = null;
    source = new EventSource("api/stream");
    source.addEventListener("change", (e) => {
      wait = 500;
      let v;
      try { v = JSON.parse(e.data).version; } catch (err) { return; }
      if (known === null) { known = v; return; }  // the first news: nothing to catch up on
      if (v === known) return;
      known = v;
      for (const cb of listeners.slice()) {
        try { cb({ version: v }); } catch (err) { console.error(err); }
      }
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED && timer === null) {
        timer = setTimeout(open, wait);
        wait = Math.min(wait * 2, 10000);
      }
    });
  }
  window.tableSync = {
    onChange(cb) { listeners.push(cb); if (source === null) open(); },
    get version() { return known; },
  };
})();
