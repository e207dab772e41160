// @ts-check
// actions/at_point.py: the collector key of `this` (an <iframe> owning an out-of-process frame),
// given now if the collector has not met it (__browserx.keyFor); 0 in a world without the
// collector.
/** @type {BxSnippets["actions/at_point_key_for.js"]} */
export default function () {
  const B = globalThis.__browserx;
  return B && B.keyFor ? B.keyFor(this) : 0;
}
