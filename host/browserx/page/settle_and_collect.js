// @ts-check
// One call per frame, run in browserx's isolated world (page/collector.py sends it once per
// world, then calls it by name). With `quiet` given, the page watcher's report comes first: the
// main frame waits there for its DOM to settle, every frame drains its page events; then the
// collector runs. Without it (a snapshot an action takes for itself), only the collector runs: the
// events stay buffered for the next observation. __COLLECT__ is collector.js, __SETTLE__ the
// page watcher's settle (page/page_watch.py).
function(opts, quiet, timeout, network) {
  const collect = __COLLECT__, settle = __SETTLE__;
  if (quiet == null) return '{"frame":' + collect(document, opts) + '}';
  return settle(quiet, /** @type {number} */ (timeout), network).then(
    s => '{"settled":' + JSON.stringify(s) + ',"frame":' + collect(document, opts) + '}');
}
