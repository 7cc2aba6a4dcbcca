// Every phone in step: window.tableSync.onChange(cb) calls cb({version}) when the game changes.
// A stand-in with the agreed interface: it reads /api/version twice a second (the server's push
// stream, /api/stream, replaces this file where the server has it).
"use strict";
window.tableSync = (() => {
  const listeners = [];
  let version = null;
  async function poll() {
    try {
      const r = await fetch("api/version", { cache: "no-store" });
      if (r.ok) {
        const v = (await r.json()).version;
        if (version !== null && v !== version) listeners.forEach((cb) => cb({ version: v }));
        version = v;
      }
    } catch (e) { /* offline for a moment: the next poll catches up */ }
    setTimeout(poll, 500);
  }
  poll();
  return { onChange(cb) { listeners.push(cb); } };
})();
