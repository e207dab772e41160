// @ts-check
// The collector's keys of the elements passed, given one if they have none yet: the nodes with
// click listeners (page/listeners.py); 0 for a node that could not be resolved (null: gone).
/** @type {BxSnippets["page/keys_of_args.js"]} */
export default function (...els) {
  const B = /** @type {BxRegistry} */ (globalThis.__browserx);
  return els.map((e) => (e ? B.keyFor(e) : 0));
}
