// @ts-check
// The collector's key of the element it is called on (0: none yet): the <iframe> that holds an
// out-of-process frame (page/capture.py).
/** @type {BxSnippets["page/key_of_this.js"]} */
export default function () {
  return /** @type {BxRegistry} */ (globalThis.__browserx).keyOf(this);
}
