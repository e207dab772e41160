// @ts-check
// page/page_watch.py: a promise of the watcher's report once the DOM has been quiet
// for `quiet` ms (and, with `network`, no resource finished loading in the last 500 ms), or at
// `timeout`; drains the event buffer. It runs in the same call as the collector
// (page/settle_and_collect.js). On a page that has been changing without pause for 2 s, its
// ticks (changes where it kept changing: page_watch.js) do not hold the wait: quiet counts from
// the last other change (lastNew), and the report says the page ticks. A page an action has just
// set in motion is waited for as before, for up to those 2 s.
import watch from "./page_watch.js";
/** @type {BxSnippets["page/page_watch_settle.js"]} */
export default function (quiet, timeout, network) {
  const W = watch();
  quiet = +quiet || 0; timeout = +timeout || 0;  // a missing number must not mean "wait forever"
  return new Promise(resolve => {
    const start = performance.now();
    const last = () => (W.lastNew !== undefined ? W.lastNew : W.last);  // an older watcher: every change
    const busy = () => network && performance.getEntriesByType("resource")
      .some(e => performance.now() - /** @type {PerformanceResourceTiming} */ (e).responseEnd < 500);
    const done = (/** @type {boolean} */ stable) => resolve({waited: performance.now() - start, stable, now: Date.now(),
      events: W.events.splice(0), mutations: W.mutations, ...(W.last > last() ? {ticking: true} : {})});
    const tick = () => {
      const now = performance.now();
      if (now - last() >= quiet && !busy()) return done(true);
      if (now - start >= timeout) return done(false);
      setTimeout(tick, Math.max(10, Math.min(50, quiet - (now - last()))));
    };
    tick();
  });
}
