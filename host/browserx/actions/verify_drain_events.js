// @ts-check
// expect (actions/verify.py), in browserx's isolated world of the top document: the page watcher
// (__WATCH__: page/page_watch.js, installed if it was not), its events drained.
(() => { const W = __WATCH__; return {now: Date.now(), events: W.events.splice(0)}; })()
