// @ts-check
// page/page_watch.py: what runs at the start of each new document of an observed tab
// (Page.addScriptToEvaluateOnNewDocument in browserx's world): the watcher (__WATCH__), from the
// end of parsing on (the parser's own insertions are many and none is an event; checking them
// slowed the load of a 50k-element page by seconds). Until then the document is still loading
// anyway.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => __WATCH__, {once: true});
} else {
  __WATCH__;
}
