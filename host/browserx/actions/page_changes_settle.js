// @ts-check
// After an action (actions/page_changes.py): the page's reaction, observed instead of waited for —
// the next animation frame and the tasks queued before it (input handlers have run; a framework's
// re-render, flushed in the event, a microtask or that frame, is done). A page that changed since
// the action began (in the input's own handlers) has shown its effect: it is given only a task's
// turn instead of the frame, as is typing (``quick``: its effect, the value, is known). Done then
// unless it is still changing; a page still changing is waited for until the DOM has been quiet
// for QUIET ms, at most CAP ms in all
// (actions/page_changes.py's SETTLE_CAP_MS). Answers the ms waited.
/** @type {BxSnippets["actions/page_changes_settle.js"]} */
export default function (quick) {
  return new Promise(done => {
    const s = globalThis.__bxmo, t0 = performance.now(), QUIET = 50, CAP = 600;
    if (!s) return done(0);
    // Changes not yet delivered to the counter: counted, as of ``at``.
    const take = (/** @type {number} */ at) => { const r = s.o.takeRecords(); if (r.length) { s.n += r.length; s.last = at; } };
    take(t0 - 0.001);  // what the input's own handlers changed came before this settling began
    const changed = s.t0 !== undefined && s.last >= s.t0;
    let first = true;
    const check = () => {
      const now = performance.now();
      take(now);
      if (first && s.last < t0) return done(now - t0);  // nothing more since the input's handlers
      first = false;
      if (now - s.last >= QUIET || now - t0 >= CAP) return done(now - t0);
      setTimeout(check, 10);
    };
    if (quick || changed) {  // a message's turn: every task the input queued has run (not throttled in background)
      const channel = new MessageChannel();
      channel.port1.onmessage = check;
      return channel.port2.postMessage(null);
    }
    if (document.visibilityState !== "visible") return setTimeout(check, 20);  // no frames drawn
    requestAnimationFrame(() => setTimeout(check, 0));
  });
}
