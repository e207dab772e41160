// @ts-check
// page/unnamed_hints.py, in browserx's world of a frame, with the collector keys of the controls
// that have no accessible name: for each, what its own markup says it is, in a fixed order of
// trust, as [source, raw text] pairs (null: the element is gone) — the host turns the first that
// yields words into the hint it shows (never a name): an SVG's <title> or <desc>, the id of the
// sprite an SVG <use> draws, an icon class of a well-known icon set (an allowlist of prefixes, not
// free class text), an icon font's ligature text, the control's data-testid / id / name, and the
// title of an element around it. Read through hidden icons too (aria-hidden SVGs are the usual
// case: the collector does not walk them).
const MAX_INSIDE = 30;  // descendants looked at: an icon button holds a handful
const ICON_CLASS = new RegExp("(?:^|\\s)((?:lucide|fa|fas|far|fal|fad|fab|bi|mdi|ti|tabler-icon|ri|bx|bxs|bxl|ph|" +
  "feather|octicon|codicon|glyphicon|icon|la|las|lar|lab|uil|heroicon|iconoir|carbon|gg|ion|ionicon)-[\\w-]+)", "g");
const LIGATURE = new RegExp("(?:^|\\s)(?:material-icons(?:-outlined|-round|-sharp|-two-tone)?|" +
  "material-symbols-(?:outlined|rounded|sharp)|google-symbols)(?:\\s|$)");
const TEST_IDS = ["data-testid", "data-test", "data-test-id", "data-cy", "data-qa", "id", "name"];

/** @param {Element} el @returns {Element[]} */
function inside(el) {
  const out = [];
  for (let n = el.firstElementChild; n && out.length < MAX_INSIDE;) {
    out.push(n);
    if (n.firstElementChild) { n = n.firstElementChild; continue; }
    while (n && n !== el && !n.nextElementSibling) n = n.parentElement;
    n = n && n !== el ? n.nextElementSibling : null;
  }
  return out;
}

/** @param {Element} el @returns {[string, string][]} */
function saysOf(el) {
  const says = /** @type {[string, string][]} */ ([]);
  const all = [el, ...inside(el)];
  for (const n of all) {
    if (n.localName === "title" || n.localName === "desc") {
      if (n.parentElement && n.parentElement.closest("svg")) says.push(["svg", n.textContent || ""]);
    }
  }
  for (const n of all) {
    if (n.localName !== "use") continue;
    const href = n.getAttribute("href") || n.getAttribute("xlink:href") || "";
    says.push(["sprite", href.slice(href.lastIndexOf("#") + 1)]);
  }
  for (const n of all) {
    const cls = n.getAttribute("class") || "";
    for (const m of cls.matchAll(ICON_CLASS)) says.push(["icon", m[1]]);
  }
  for (const n of all) {
    if (LIGATURE.test(n.getAttribute("class") || "")) says.push(["ligature", n.textContent || ""]);
  }
  for (const a of TEST_IDS) {
    const v = el.getAttribute(a);
    if (v) says.push([a === "id" || a === "name" ? a : "testid", v]);
  }
  let up = /** @type {Node | null} */ (el.parentNode);
  for (let depth = 0; up && depth < 4; depth++, up = up.parentNode || /** @type {ShadowRoot} */ (up).host || null) {
    if (up.nodeType === 1 && /** @type {Element} */ (up).hasAttribute("title")) {
      says.push(["title", /** @type {Element} */ (up).getAttribute("title") || ""]);
      break;
    }
  }
  return says.map(([source, text]) => [source, text.replace(/\s+/g, " ").trim().slice(0, 80)]);
}

/** @type {BxSnippets["page/unnamed_hints.js"]} */
export default function (keys) {
  const B = globalThis.__browserx;
  return JSON.stringify(keys.map((key) => {
    const el = B ? B.nodeOf(key) : null;
    return el && el.nodeType === 1 && el.isConnected ? saysOf(/** @type {Element} */ (el)) : null;
  }));
}
