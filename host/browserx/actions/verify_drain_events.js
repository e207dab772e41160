// @ts-check
// expect (actions/verify.py), in browserx's isolated world of the top document: the page watcher
// (page/page_watch.js, installed if it was not), its events drained.
import watch from "../page/page_watch.js";
/** @type {BxSnippets["actions/verify_drain_events.js"]} */
export default function () {
  const W = watch();
  return {now: Date.now(), events: W.events.splice(0)};
}
