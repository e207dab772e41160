// snapshot/page_watch.py: a promise of the watcher's (__WATCH__) report once the DOM has been quiet
// for `quiet` ms (and, with `network`, no resource finished loading in the last 500 ms), or at
// `timeout`; drains the event buffer. It runs in the same call as the collector
// (snapshot/settle_and_collect.js).
function(quiet, timeout, network) {
  const W = __WATCH__;
  quiet = +quiet || 0; timeout = +timeout || 0;  // a missing number must not mean "wait forever"
  return new Promise(resolve => {
    const start = performance.now();
    const busy = () => network && performance.getEntriesByType("resource").some(e => performance.now() - e.responseEnd < 500);
    const done = stable => resolve({waited: performance.now() - start, stable, now: Date.now(),
      events: W.events.splice(0), mutations: W.mutations});
    const tick = () => {
      const now = performance.now();
      if (now - W.last >= quiet && !busy()) return done(true);
      if (now - start >= timeout) return done(false);
      setTimeout(tick, Math.max(10, Math.min(50, quiet - (now - W.last))));
    };
    tick();
  });
}
