// @ts-check
// The collector's keys of the elements passed, given one if they have none yet: the nodes with
// click listeners (page/listeners.py).
function(...els) {
  const B = globalThis.__browserx;
  return els.map((e) => B.keyFor(e));
}
