// @ts-check
// After an action (actions/page_changes.py): the page's reaction, observed instead of waited for —
// the next animation frame and the tasks queued before it (input handlers have run; a framework's
// re-render, flushed in the event, a microtask or that frame, is done). A page that changed since
// the action began (in the input's own handlers) has shown its effect: done at once, as is one
// that changed by that frame. Only a page still changing after it is waited for, until the DOM
// has been quiet for __QUIET__ ms, at most __CAP__ ms in all. A page that does not react is done
// in about one frame; with ``quick`` (typing, whose effect, the value, is known) in a task's turn.
// Answers the ms waited.
(quick) => new Promise(done => {
  const s = globalThis.__bxmo, t0 = performance.now(), QUIET = __QUIET__, CAP = __CAP__;
  if (!s) return done(0);
  // Changed already, since the action began (its input's handlers): the effect is seen.
  if (s.o.takeRecords().length) s.last = t0;
  if (s.t0 !== undefined && s.last >= s.t0) return done(0);
  let first = true;
  const check = () => {
    const now = performance.now();
    if (s.o.takeRecords().length) s.last = now;
    if (first && s.last < t0) return done(now - t0);  // nothing more since the input's handlers
    first = false;
    if (now - s.last >= QUIET || now - t0 >= CAP) return done(now - t0);
    setTimeout(check, 10);
  };
  if (quick) {  // a message's turn: every task the input queued has run (not throttled in background)
    const channel = new MessageChannel();
    channel.port1.onmessage = check;
    return channel.port2.postMessage(null);
  }
  if (document.visibilityState !== "visible") return setTimeout(check, 20);  // no frames drawn
  requestAnimationFrame(() => setTimeout(check, 0));
})
