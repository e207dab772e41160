// @ts-check
// What page/collector.js's walk reads of one node, its box and styles aside: the attributes it
// sends (and the few of them that steer the walk: scanAttrs's flags below), its text, the text it
// is labelled or described by, the text of its ::before and ::after, a form control's live state.
// Called by the walk for each node they concern (no call more than the walk made when they were
// declared inside it); what they use of the walk comes in as arguments. Unit tests:
// tools/js/test/collector.test.mjs.

export const MAX_TEXT = 400;
const ATTRS = new Set([
  "id", "role", "name", "type", "href", "alt", "title", "placeholder", "for", "tabindex",
  "contenteditable", "disabled", "checked", "selected", "readonly", "required", "multiple", "open",
  "value", "hidden", "onclick", "onmousedown", "onpointerdown", "data-testid", "data-test", "data-test-id",
  "data-cy", "data-qa", "data-no-ai", "action", "method", "list", "size", "scope", "autocomplete",
  "ng-click", "x-on:click", "@click", "v-on:click", "hx-get", "hx-post", "jsaction", "draggable", "src",
  "slot", "label", "controls",
]);
const STATUS_ROLE = /(^|\s)(alert|status)(\s|$)/; // the roles views/events.py reads classes of
const ODD_SPACE = /[^\S ]| {2}/; // whitespace the collapsing below would change

// Per element, filled by scanAttrs: the attributes sent, and the few the walk itself reads.
// noAi: the element says data-no-ai (it and everything inside it, shadow roots and frames
// included, opted out of AI agents: pruned here, once, for every view, ID and action).
// (Module variables the walk imports: it reads them, as they stand, right after each call.)
export let ariaHidden = false, inert = false, noAi = false;
export let labelledby = /** @type {string | null} */ (null), describedby = /** @type {string | null} */ (null);

// One pass over the attribute names (getAttributeNames makes no Attr objects). Values as
// getAttribute gives them: the first attribute of that name (an element may hold two of one
// qualified name in different namespaces, and a name set through setAttributeNS keeps its
// case, which getAttribute would lowercase away: both read by position instead).
/** @param {Element} el */
export function scanAttrs(el) {
  ariaHidden = inert = noAi = false;
  labelledby = describedby = null;
  if (!el.hasAttributes()) return null;
  const names = el.getAttributeNames();
  let out = /** @type {Record<string, string> | null} */ (null), cls = null;
  for (let j = 0; j < names.length; j++) {
    const n = names[j];
    const aria = n.startsWith("aria-");
    if (n === "data-no-ai") { noAi = true; return null; }
    if (!aria && !ATTRS.has(n)) {
      if (n === "inert") inert = true;
      else if (n === "class" && cls === null) cls = el.getAttribute("class");
      continue;
    }
    if (out === null) out = {};
    const again = out[n] !== undefined;
    // getAttribute lowercases its argument on HTML elements: a mixed-case aria-* name (only
    // setAttributeNS makes one) is read by position too.
    let v = again || (aria && n !== n.toLowerCase()) ? null : el.getAttribute(n);
    if (v === null) v = el.attributes[j].value;
    if (aria && !again) {
      if (n === "aria-hidden") ariaHidden = v === "true";
      else if (n === "aria-labelledby") labelledby = v;
      else if (n === "aria-describedby") describedby = v;
    }
    out[n] = n === "onclick" || n === "onmousedown" || n === "onpointerdown"
      ? "1"
      : v.length > 200 ? v.slice(0, 200) : v;
  }
  // Classes only say something to the host about status regions (page events' kind); sent
  // for every element they were a twentieth of the payload and an attribute dict per div, for
  // every element with a role a third of a data grid's (each cell has one).
  if (cls !== null && ((out !== null && out.role !== undefined && STATUS_ROLE.test(out.role)) || el.tagName === "OUTPUT")) {
    (out || (out = {})).class = cls.length > 200 ? cls.slice(0, 200) : cls;
  }
  return out;
}

/** @param {string} ids @param {Document | ShadowRoot} scope */
export function textOf(ids, scope) {
  let s = "";
  for (const id of ids.split(/\s+/)) {
    if (!id) continue;
    const target = scope.getElementById ? scope.getElementById(id) : null;
    // Text referenced inside an opted-out subtree is not read.
    if (target && !(target.closest && target.closest("[data-no-ai]"))) s += " " + target.textContent;
  }
  return s.replace(/\s+/g, " ").trim().slice(0, MAX_TEXT);
}

// What a text node contributes, or null: text with its whitespace runs collapsed; whitespace
// only between inline children is a word break in names ("Buy" "now"); elsewhere it is layout
// noise and is not sent.
/** @param {Text} node @param {boolean} spaced */
export function textFor(node, spaced) {
  const raw = node.data;
  if (!raw) return null;
  if (!raw.trim()) return spaced && node.previousSibling && node.nextSibling ? " " : null;
  const text = raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
  // Collapsed, with one space kept at either end where there was white space: it separates
  // this text from its inline neighbours ("<strong>200 </strong><p>OK</p>" reads "200 OK").
  return ODD_SPACE.test(text) ? text.replace(/\s+/g, " ") : text;
}

// The live state of a control, a label or an option, added to s (made if null). withValues:
// the host asked for typed values (opts.values); secretFields: the elements seen as passwords
// (__browserxSecret); keyOf: the walk's own (a label's control gets its key).
/**
 * @param {BxDuck} el a control, a label or an option @param {string} tag @param {BxState | null} s
 * @param {boolean} withValues @param {WeakSet<Element>} secretFields @param {(node: Node) => number} keyOf
 */
export function formState(el, tag, s, withValues, secretFields, keyOf) {
  const set = (/** @type {string} */ name, /** @type {unknown} */ v) => { (s || (s = {}))[name] = v; };
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "BUTTON") {
    if (el.matches(":disabled")) set("disabled", true);
    if (tag === "INPUT") {
      const type = el.type;
      set("inputType", type);
      // A list attribute naming no <datalist> makes no combobox (Chrome: a textbox; NiceGUI's q-input).
      if (el.list === null && el.hasAttribute("list")) set("noDatalist", true);
      // A field seen as a password once stays one after a "show password" toggle: its value is
      // never read, only whether it has one (the host's redaction.field_secret masks it).
      const secret = type === "password" || secretFields.has(el);
      if (secret) { secretFields.add(el); if (type !== "password") set("wasPassword", true); }
      if (type === "checkbox" || type === "radio") set("checked", el.indeterminate ? "mixed" : el.checked);
      else if (type === "range") set("valueNow", el.value); // a slider's position is a state, not typed data
      else if (withValues && !secret && el.value) set("value", el.value);
      else if (secret && el.value) set("hasValue", true);
    } else if (tag === "TEXTAREA") {
      if (withValues && el.value) set("value", el.value);
    } else if (tag === "SELECT") {
      // An option (or its optgroup) that opted out is left out, its label and its being chosen.
      const options = [];
      let shown = 0, chosen = null;
      for (const o of el.options) {
        if (o.closest("[data-no-ai]")) continue;
        shown++;
        const label = (o.label || o.textContent || "").trim().slice(0, 80);
        if (o.selected && chosen === null) chosen = label;
        if (options.length < 50) options.push([label, o.selected]);
      }
      set("options", options);
      if (shown > 50) set("optionCount", shown);
      if (withValues && chosen !== null) set("value", chosen);
    }
  } else if (tag === "LABEL") {
    // label.control is cheap; el.labels scans the whole tree scope for every control (O(n²)).
    const control = el.control;
    if (control) {
      set("control", keyOf(control));
      // A checkbox or radio that is not rendered at all (display: none, as Swagger UI hides its
      // scope checkboxes): the walk never reaches it, yet clicking this label toggles it.
      const kind = control.type;
      if ((kind === "checkbox" || kind === "radio") && control.getClientRects().length === 0 &&
          !control.closest("[data-no-ai]")) {
        set("hiddenToggle", [kind, control.indeterminate ? "mixed" : control.checked, control.disabled]);
      }
    }
  } else if (tag === "OPTION") {
    if (el.selected) set("selected", true);
  }
  return s;
}

// The whole area an element paints into noAiBoxes: its own box and all it holds (text and
// children that overflow it, absolutely positioned ones, the children of a display: contents
// element, its shadow root's), as the ranges over its contents measure them; ox, oy: its frame's
// offset; closedRoots: __browserx.closed.
/**
 * @param {Element} el @param {number} ox @param {number} oy @param {WeakMap<Element, ShadowRoot>} closedRoots
 * @param {number[]} noAiBoxes
 */
export function blankOut(el, ox, oy, closedRoots, noAiBoxes) {
  let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
  const add = (/** @type {DOMRect} */ x) => {
    if (x.width <= 0 && x.height <= 0) return;
    l = Math.min(l, x.left); t = Math.min(t, x.top); r = Math.max(r, x.right); b = Math.max(b, x.bottom);
  };
  add(el.getBoundingClientRect());
  const range = el.ownerDocument.createRange();
  for (const root of [el, el.shadowRoot || closedRoots.get(el)]) {
    if (!root) continue;
    range.selectNodeContents(root);
    add(range.getBoundingClientRect());
  }
  if (l < r && t < b) noAiBoxes.push(Math.floor(l + ox), Math.floor(t + oy), Math.ceil(r - l) + 1, Math.ceil(b - t) + 1);
}

// The text a pseudo-element's content property generates ("" for none, counters, images):
// its quoted strings, or its alternative text (after a "/") when it has one.
const QUOTED = /"((?:[^"\\]|\\.)*)"/g, ALT_NEXT = /^\s*\//;
/** @param {Element} el @param {string} which */
export function generated(el, which) {
  const content = getComputedStyle(el, which).content;
  if (!content || content.charCodeAt(0) !== 34) return "";
  let out = "", alt = null;
  for (const m of content.matchAll(QUOTED)) {
    const piece = m[1].replace(/\\(.)/g, "$1");
    if (alt !== null) alt += piece;
    else {
      out += piece;
      if (ALT_NEXT.test(content.slice(m.index + m[0].length))) alt = "";
    }
  }
  if (alt !== null) out = alt;
  return out.length > 80 ? out.slice(0, 80) : out;
}
