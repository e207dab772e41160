// @ts-check
// One call per frame, run in browserx's isolated world (page/collector.py sends it once per
// world, then calls it by name). With `quiet` given, the page watcher's report comes first: the
// main frame waits there for its DOM to settle, every frame drains its page events; then the
// collector runs. Without it (a snapshot an action takes for itself), only the collector runs: the
// events stay buffered for the next observation. collect is collector.js, settle the
// page watcher's settle (page/page_watch.py).
import collect from "./collector.js";
import settle from "./page_watch_settle.js";
/** @type {BxSnippets["page/settle_and_collect.js"]} */
export default function (opts, quiet, timeout, network) {
  if (quiet == null) return '{"frame":' + collect(document, opts) + '}';
  return settle(quiet, /** @type {number} */ (timeout), network).then(
    s => '{"settled":' + JSON.stringify(s) + ',"frame":' + collect(document, opts) + '}');
}
