// @ts-check
// page/page_watch.py: what runs at the start of each new document of an observed tab
// (Page.addScriptToEvaluateOnNewDocument in browserx's world): the watcher (page_watch.js), from the
// end of parsing on (the parser's own insertions are many and none is an event; checking them
// slowed the load of a 50k-element page by seconds). Until then the document is still loading
// anyway.
import watch from "./page_watch.js";
/** @type {BxSnippets["page/page_watch_early.js"]} */
export default function () {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => watch(), {once: true});
  } else {
    watch();
  }
}
