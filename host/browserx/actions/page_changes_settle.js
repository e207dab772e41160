// After an action (actions/page_changes.py): the page's reaction, observed instead of waited for —
// the next animation frame and the tasks queued before it (input handlers have run; a framework's
// re-render, flushed in the event, a microtask or that frame, is done), then on until the DOM has
// been quiet for __QUIET__ ms when it is still changing, at most __CAP__ ms in all. A page that
// does not react is done in about one frame; one that re-renders is read once it has. Answers the
// ms waited.
(() => new Promise(done => {
  const s = globalThis.__bxmo, t0 = performance.now(), QUIET = __QUIET__, CAP = __CAP__;
  if (!s) return done(0);
  const check = () => {
    const now = performance.now();
    if (s.o.takeRecords().length) s.last = now;
    if (now - s.last >= QUIET || now - t0 >= CAP) return done(now - t0);
    setTimeout(check, 10);
  };
  if (document.visibilityState !== "visible") return setTimeout(check, 20);  // no frames drawn
  requestAnimationFrame(() => setTimeout(check, 0));
}))()
