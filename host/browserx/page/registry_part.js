// @ts-check
// page/closed_roots.py and page/internals.py, in browserx's world: a list the collector's registry
// keeps for the host (`suspects`: hosts that may hold a closed shadow root; `internals`: elements
// whose ElementInternals the host reads), answered as a handle.
/** @type {BxSnippets["page/registry_part.js"]} */
export default function (part) {
  const bx = globalThis.__browserx;
  return bx ? bx[part] : undefined;
}
