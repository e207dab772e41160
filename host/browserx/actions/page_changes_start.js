// @ts-check
// Before an action (actions/page_changes.py), in browserx's isolated world of each acted-on
// document: a MutationObserver counting DOM changes, kept in globalThis.__bxmo (replacing any
// earlier one); answers the URL. browserx's own overlay coming or going (actions/effects.js) is
// no change of the page's.
/** @type {BxSnippets["actions/page_changes_start.js"]} */
export default function () {
  const old = globalThis.__bxmo; if (old) old.o.disconnect();
  const s = /** @type {BxChangeCounter} */ ({n: 0, last: -1e9, t0: performance.now()}); s.o = new MutationObserver(r => {
    const fx = globalThis.__bxEffects, mine = fx && fx.host && fx.host(); // made during the action, maybe
    const own = (/** @type {MutationRecord} */ x) => x.type === "childList" && [...x.addedNodes, ...x.removedNodes].every(n => n === mine);
    const n = mine ? r.filter(x => !own(x)).length : r.length;
    if (n) { s.n += n; s.last = performance.now(); }
  });
  s.o.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  globalThis.__bxmo = s; return location.href;
}
