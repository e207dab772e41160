// Before an action (actions/page_changes.py), in browserx's isolated world of each acted-on
// document: a MutationObserver counting DOM changes, kept in globalThis.__bxmo (replacing any
// earlier one); answers the URL.
(() => {
  const old = globalThis.__bxmo; if (old) old.o.disconnect();
  const s = {n: 0, last: -1e9}; s.o = new MutationObserver(r => { s.n += r.length; s.last = performance.now(); });
  s.o.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  globalThis.__bxmo = s; return location.href;
})()
