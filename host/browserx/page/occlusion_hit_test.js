// @ts-check
// page/occlusion.py, in browserx's isolated world of a frame, with collector keys: for each
// element, what covers it (__browserx.cover: [key, tag#id.class] or null), as JSON; null for an
// element that is gone.
/** @type {BxSnippets["page/occlusion_hit_test.js"]} */
export default function (keys){
  const B = /** @type {BxRegistry} */ (globalThis.__browserx);
  return JSON.stringify(keys.map((key) => {
    const el = B.nodeOf(key);
    return el && el.isConnected ? B.cover(el) : null;
  }));
}
