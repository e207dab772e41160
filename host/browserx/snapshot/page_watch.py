"""A watcher in browserx's isolated world of a document, installed as each new document of an
observed tab starts (or at the first snapshot of a document that was already there): one
MutationObserver that remembers when the DOM last changed (for the stability wait)
and records text that appears in or disappears from alert/status/aria-live/toast-like elements
into a bounded ring buffer (``globalThis.__bxWatch.events``), drained at every snapshot."""

from __future__ import annotations

# Elements whose text changes are page events.
EVENT_SELECTOR = (
    "[role=alert],[role=status],[role=alertdialog],[role=log],[aria-live]:not([aria-live=off]),output,"
    "[class*=toast],[class*=Toast],[class*=snackbar],[class*=notif],[class*=flash],[class*=alert],"
    "[class*=error],[class*=Error],[class*=success],[class*=message]"
)
MAX_BUFFERED = 100

WATCH_JS = """(() => {
  if (globalThis.__bxWatch) return globalThis.__bxWatch;
  const SEL = __SELECTOR__, MAX = __MAX__;
  const w = {last: performance.now(), events: [], mutations: 0, seen: new WeakMap()};
  const vis = el => !el.checkVisibility || el.checkVisibility({visibilityProperty: true});
  const textOf = n => ((n.nodeType === 1 ? (n.innerText || n.textContent) : n.data) || "").trim().slice(0, 300);
  const region = n => { const el = n && (n.nodeType === 1 ? n : n.parentElement); return el && el.closest ? el.closest(SEL) : null; };
  const inner = n => n.nodeType === 1 && n.querySelector ? (n.matches(SEL) ? n : n.querySelector(SEL)) : null;
  const push = (op, el, text) => {
    if (!text) return;
    const last = w.events[w.events.length - 1];
    if (last && last.op === op && last.text === text) return;
    w.events.push({t: Date.now(), op, text,
      role: el.getAttribute("role") || (el.hasAttribute("aria-live") ? "aria-live" : ""),
      cls: typeof el.className === "string" ? el.className.slice(0, 80) : ""});
    if (w.events.length > MAX) w.events.splice(0, w.events.length - MAX);
  };
  const observer = new MutationObserver(records => {
    w.mutations += records.length;
    let budget = 300;
    for (const r of records) {
      if (r.type !== "attributes" || r.attributeName !== "style") w.last = performance.now();
      if (--budget < 0) continue;
      if (r.type === "childList") {
        const around = region(r.target);
        for (const n of r.addedNodes) {
          const el = around || inner(n);
          if (el && vis(el)) { push("added", el, around ? textOf(n) : textOf(el)); w.seen.set(el, true); }
        }
        for (const n of r.removedNodes) {
          if (n.nodeType !== 1 && n.nodeType !== 3) continue;
          const el = around || inner(n);
          if (el && w.seen.get(el) !== false) push("removed", el, (n.textContent || "").trim().slice(0, 300));
        }
      } else if (r.type === "characterData") {
        const el = region(r.target);
        if (el && vis(el)) push("changed", el, textOf(el));
      } else if (r.target.nodeType === 1 && r.target.matches(SEL)) {
        const el = r.target, shown = vis(el) && el.getAttribute("aria-hidden") !== "true";
        const was = w.seen.get(el);
        if (shown !== was) {
          w.seen.set(el, shown);
          if (was !== undefined || shown) push(shown ? "shown" : "hidden", el, (el.innerText || el.textContent || "").trim().slice(0, 300));
        }
      }
    }
  });
  observer.observe(document, {subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["class", "style", "hidden", "aria-hidden", "open", "aria-busy", "disabled"]});
  return globalThis.__bxWatch = w;
})()""".replace("__SELECTOR__", '"' + EVENT_SELECTOR + '"').replace("__MAX__", str(MAX_BUFFERED))

# What runs at the start of each new document of an observed tab: the watcher, from the end of
# parsing on (the parser's own insertions are many and none is an event; checking them slowed
# the load of a 50k-element page by seconds). Until then the document is still loading anyway.
EARLY_WATCH_JS = """if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => __WATCH__, {once: true});
} else {
  __WATCH__;
}""".replace("__WATCH__", WATCH_JS)

# A promise of the watcher's report once the DOM has been quiet for `quiet` ms (and, optionally,
# no resource finished loading in the last 500 ms), or at `timeout`; drains the event buffer.
# Capture runs it in the same call as the collector (snapshot/capture.py).
SETTLE_JS = """function(quiet, timeout, network) {
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
}""".replace("__WATCH__", WATCH_JS)
