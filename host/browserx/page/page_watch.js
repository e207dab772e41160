// @ts-check
// The page watcher (page/page_watch.py), in browserx's isolated world of a document; installed
// once, then answered from globalThis.__bxWatch: one MutationObserver that remembers when the DOM
// last changed (last: for the stability wait), counts changes (mutations) and records text that
// appears in or disappears from elements matching SELECTOR (alerts, live regions, toasts…) into
// a ring buffer of at most MAX events (events), drained at every snapshot.
// A page that never stops updating (a clock, a streaming grid, a status line a server pushes) is
// never quiet: for the stability wait (page_watch_settle.js), the watcher also tells its ticks from
// new changes. busySince: when the current run of changes began (a run ends at a pause of GAP ms).
// A change is a tick when its place (the element changed, or holding the text changed), or places
// of its kind (same tag and class, same kind of change), have been changing for LIVE ms without
// such a pause, or when it only rewrites text on a page busy that long; lastNew: when the DOM last
// changed otherwise. An attribute set to the value it had is no change at all.
import noAi from "./no_ai.js";
// Elements whose text changes are page events.
const SELECTOR = [
  "[role=alert],[role=status],[role=alertdialog],[role=log],[aria-live]:not([aria-live=off]),output",
  "[class*=toast],[class*=Toast],[class*=snackbar],[class*=notif],[class*=flash],[class*=alert]",
  "[class*=error],[class*=Error],[class*=success],[class*=message]",
].join(",");
/** @type {BxSnippets["page/page_watch.js"]} */
export default function () {
  if (globalThis.__bxWatch) return globalThis.__bxWatch;
  const SEL = SELECTOR, MAX = 100, GAP = 1500, LIVE = 2000, PLACES = 2000;
  const born = performance.now();
  const w = /** @type {Required<BxWatch>} */ ({last: born, events: [], mutations: 0, seen: new WeakMap(), lastNew: born, busySince: born,
    runs: new WeakMap(), kinds: new Map()});
  const textOnly = (/** @type {MutationRecord} */ r) => r.type === "characterData" || (r.type === "childList" &&
    [...r.addedNodes, ...r.removedNodes].every(n => n.nodeType === 3));
  // One change at `now` (records past the first PLACES of a batch are all new changes).
  const changed = (/** @type {MutationRecord} */ r, /** @type {number} */ now, /** @type {number} */ k) => {
    if (now - w.last > GAP) w.busySince = now;
    w.last = now;
    const place = /** @type {BxDuck} */ (k < PLACES ? (r.target.nodeType === 1 ? r.target : r.target.parentNode) : null);
    if (!place) return void (w.lastNew = now);
    // The run of this element, and that of its kind (tag, class, what changed): a grid whose rows
    // take turns keeps changing its row cells, each one only now and then.
    const kind = r.type + (r.attributeName || "") + " " + place.nodeName + "." +
      (typeof place.className === "string" ? place.className : "");
    if (w.kinds.size > 5000) w.kinds.clear();
    /** @template K @param {{get(key: K): number[] | undefined, set(key: K, run: number[]): unknown}} map @param {K} key */
    const runOf = (map, key) => {
      let run = map.get(key);
      if (run === undefined || now - run[1] > GAP) map.set(key, (run = [now, now]));
      else run[1] = now;
      return now - run[0] >= LIVE;
    };
    const placeHot = runOf(w.runs, place), kindHot = runOf(w.kinds, kind); // both runs go on
    const hot = placeHot || kindHot;
    if (!hot && !(now - w.busySince >= LIVE && textOnly(r))) w.lastNew = now;
  };
  // The page an event happened on (the top document's URL without its fragment; "" in a frame):
  // the host tells events of a page left since from the current page's.
  const page = () => (window === window.top ? location.href.split("#")[0] : "");
  const vis = (/** @type {Element} */ el) => !el.checkVisibility || el.checkVisibility({visibilityProperty: true});
  // data-no-ai: nothing inside an opted-out subtree (or document, or frame around it) is an event,
  // and an event's text leaves out the opted-out parts inside its region.
  const bare = (/** @type {Node} */ n) => {
    const out = [], walk = document.createTreeWalker(n, 5, {acceptNode: x =>
      x.nodeType === 1 && /** @type {Element} */ (x).hasAttribute("data-no-ai") ? 2 : 1});
    for (let x = walk.nextNode(); x && out.length < 400; x = walk.nextNode()) if (x.nodeType === 3) out.push(/** @type {Text} */ (x).data);
    return out.join(" ").replace(/\s+/g, " ");
  };
  const hasNoAi = (/** @type {BxDuck} */ n) => n.nodeType === 1 && n.querySelector && n.querySelector("[data-no-ai]") !== null;
  const textOf = (/** @type {BxDuck} */ n) =>
    (hasNoAi(n) ? bare(n) : ((n.nodeType === 1 ? (n.innerText || n.textContent) : n.data) || "")).trim().slice(0, 300);
  const region = (/** @type {BxDuck} */ n) => { const el = n && (n.nodeType === 1 ? n : n.parentElement); return el && el.closest ? el.closest(SEL) : null; };
  const inner = (/** @type {BxDuck} */ n) => n.nodeType === 1 && n.querySelector ? (n.matches(SEL) ? n : n.querySelector(SEL)) : null;
  const push = (/** @type {string} */ op, /** @type {Element} */ el, /** @type {string} */ text) => {
    if (!text || noAi(el)) return;
    const last = w.events[w.events.length - 1];
    if (last && last.op === op && last.text === text) return;
    w.events.push({t: Date.now(), op, text,
      role: el.getAttribute("role") || (el.hasAttribute("aria-live") ? "aria-live" : ""),
      cls: typeof el.className === "string" ? el.className.slice(0, 80) : "", u: page()});
    if (w.events.length > MAX) w.events.splice(0, w.events.length - MAX);
  };
  const observer = new MutationObserver(all => {
    // browserx's own overlay (actions/effects.js) coming or going is no change of the page's.
    const fx = globalThis.__bxEffects, mine = fx && fx.host && fx.host();
    const records = mine ? all.filter(r => !(r.type === "childList" &&
      [...r.addedNodes, ...r.removedNodes].every(n => n === mine))) : all;
    w.mutations += records.length;
    let budget = 300, k = 0;
    const now = performance.now();
    for (const r of records) {
      if (r.type !== "attributes" || (r.attributeName !== "style" &&
          r.oldValue !== /** @type {Element} */ (r.target).getAttribute(/** @type {string} */ (r.attributeName)))) changed(r, now, k++);
      if (--budget < 0) continue;
      if (r.type === "childList") {
        if (noAi(r.target)) continue;
        const around = region(r.target);
        for (const n of r.addedNodes) {
          const el = around || inner(n);
          if (n.nodeType === 1 && /** @type {Element} */ (n).hasAttribute("data-no-ai")) continue;
          if (el && vis(el)) { push("added", el, around ? textOf(n) : textOf(el)); w.seen.set(el, true); }
        }
        for (const n of r.removedNodes) {
          if (n.nodeType !== 1 && n.nodeType !== 3) continue;
          const el = around || inner(n);
          if (n.nodeType === 1 && /** @type {Element} */ (n).hasAttribute("data-no-ai")) continue;
          if (el && w.seen.get(el) !== false) push("removed", el, (hasNoAi(n) ? bare(n) : n.textContent || "").trim().slice(0, 300));
        }
      } else if (r.type === "characterData") {
        const el = region(r.target);
        if (el && vis(el) && !noAi(r.target)) push("changed", el, textOf(el));
      } else if (r.target.nodeType === 1 && /** @type {Element} */ (r.target).matches(SEL)) {
        const el = /** @type {Element} */ (r.target), shown = vis(el) && el.getAttribute("aria-hidden") !== "true";
        const was = w.seen.get(el);
        if (shown !== was) {
          w.seen.set(el, shown);
          if (was !== undefined || shown) push(shown ? "shown" : "hidden", el, textOf(el));
        }
      }
    }
  });
  observer.observe(document, {subtree: true, childList: true, characterData: true, attributes: true,
    attributeOldValue: true, attributeFilter: ["class", "style", "hidden", "aria-hidden", "open", "aria-busy", "disabled"]});
  return globalThis.__bxWatch = w;
}
