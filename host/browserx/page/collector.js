// @ts-check
// The browser half of a snapshot: one call per frame, run in browserx's isolated world, that
// gathers raw facts only (structure, tags, attributes, text, boxes, a few computed styles, live
// form state). Classification, naming, flattening and IDs happen in Python.
//
// Called as a function declaration: collect(root, opts). `root` is a Document or a ShadowRoot
// (closed roots are handed in by the host through CDP once, then remembered). Output is columnar to keep it compact.
// Subtrees nobody can see are not descended into: display:none, aria-hidden="true", inert,
// <template>/<script>/<style>, closed <details> content, content-visibility:hidden content,
// unslotted light children.
//
// It runs over every node of the page, so it is written for speed. Calls into the engine are most
// of the cost (a computed-style read, and getBoundingClientRect above all), so each is made once
// per element at most: the walk reads what it needs to prune, then one pass takes every box and
// one every other style flag (the engine answers the same call over many elements markedly
// faster than mixed calls). Attributes are read by name (no Attr objects), comments and blank
// text are dropped when a parent lists its children, and the walk keeps flat stacks instead of
// an array per node.
function collect(root, opts) {
  const started = performance.now();
  const view0 = (root.ownerDocument || root).defaultView || window;
  opts = opts || {};
  // One registry per document. A node's key is the base the host reserved for a new document
  // (reported back as keyBase: that is how the host learns the document is new) plus a small
  // number counted here (past any this global handed out before), so a key never names two
  // nodes of a tab. The registry holds only the small part: small integers are much cheaper for
  // the engine than numbers past 2^31 (and for the transfer). keyOf/nodeOf speak whole keys.
  // (A registry of another layout, left in the page by an older host, is replaced: a new host
  // process knows none of its keys anyway.) Its members, and which snippets use each:
  // docs/PAGE_API.md.
  const LAYOUT = 3;
  const HIT_POINTS = [0.5, 0.5, 0.2, 0.2, 0.8, 0.2, 0.2, 0.8, 0.8, 0.8]; // where an element is hit-tested
  let bx = globalThis.__browserx;
  if (!bx || bx.doc !== document || bx.layout !== LAYOUT) {
    const same = bx && bx.layout === LAYOUT;
    const base = same ? /** @type {BxRegistry} */ (bx).base : opts.freshBase || 0, next = same ? /** @type {BxRegistry} */ (bx).next : 1;
    // (its methods are set below: typed as the whole registry from here)
    bx = globalThis.__browserx = /** @type {BxRegistry} */ ({ doc: document, keys: new WeakMap(), refs: new Map(), base, next, layout: LAYOUT });
    bx.keyOf = function (n) { const k = this.keys.get(n); return k ? this.base + k : 0; };
    bx.nodeOf = function (key) { const r = this.refs.get(key - this.base); return r ? r.deref() || null : null; };
    // A key for any node of the document, given now if the walk has not met it yet (a hidden
    // listening node: the walk gives it the same key when it shows).
    bx.keyFor = function (n) {
      let key = this.keys.get(n);
      if (key === undefined) { key = this.next++; this.keys.set(n, key); this.refs.set(key, new WeakRef(n)); }
      return this.base + key;
    };
  }
  bx.closed = bx.closed || new WeakMap(); // closed shadow roots handed in by the host: host → root
  // Is a node part of this frame's current page (through shadow roots and same-origin frames)?
  bx.ours = bx.ours || function (n) {
    let d = n.getRootNode({ composed: true });
    while (d && d !== document) {
      const fe = d.defaultView && d.defaultView.frameElement;
      if (!fe) return false;
      d = fe.getRootNode({ composed: true });
    }
    return d === document;
  };
  // Whether a node is inside a subtree (or a document, or a frame of this process) that opted out
  // of AI agents (data-no-ai), through shadow roots, slots and same-origin frames. Shared by the
  // snippets that meet nodes the walk did not (hit tests, focus, page events): docs/PAGE_API.md.
  bx.optedOut = bx.optedOut || (__NO_AI__);
  // Composed containment: whether n is outer or inside it, through shadow roots and slots.
  bx.inside = bx.inside || function (outer, n) {
    for (; n; n = n.assignedSlot || n.parentNode || n.host) if (n === outer) return true;
    return false;
  };
  // The part of an element a person can see in its frame's viewport, [left, top, right,
  // bottom], or null: its box clipped by the viewport and by the overflow boxes of its
  // containing-block chain, by the same rules the host's snapshot/visibility.py follows (the root's
  // and body's overflow belong to the viewport; absolute escapes static boxes up to a positioned
  // one; fixed escapes all but transformed or contained ones).
  // A batch of calls may share a memo (a Map): what the walk up learns of each ancestor (its
  // computed style's few facts, its box) is then read once for all its descendants.
  bx.visibleRect = bx.visibleRect || function (el, memo) {
    const doc = el.ownerDocument, view = doc.defaultView, root = doc.documentElement, body = doc.body;
    const facts = (/** @type {Element} */ a) => {
      let f = memo ? memo.get(a) : undefined;
      if (f === undefined) {
        const cs = view.getComputedStyle(a);
        let open = cs.display === "contents" || (cs.overflowX === "visible" && cs.overflowY === "visible");
        if (!open && a === body) {
          const rs = view.getComputedStyle(root);
          open = rs.overflowX === "visible" && rs.overflowY === "visible";
        }
        f = { cs, pos: cs.position, open, holds: undefined, rect: null };
        if (memo) memo.set(a, f);
      }
      return f;
    };
    const holds = (/** @type {BxRectFacts} */ f) => {
      if (f.holds === undefined) {
        const cs = f.cs;
        f.holds = cs.transform !== "none" || cs.perspective !== "none" || cs.filter !== "none" ||
          /paint|layout|strict|content/.test(cs.contain) || /transform|perspective|filter/.test(cs.willChange);
      }
      return f.holds;
    };
    const b = el.getBoundingClientRect();
    let x1 = Math.max(b.left, 0), y1 = Math.max(b.top, 0);
    let x2 = Math.min(b.right, view.innerWidth), y2 = Math.min(b.bottom, view.innerHeight);
    let pos = memo ? facts(el).pos : view.getComputedStyle(el).position;
    for (let a = el.assignedSlot || el.parentElement || (el.parentNode && el.parentNode.host);
      a && a !== root && x2 > x1 && y2 > y1;
      a = a.assignedSlot || a.parentElement || (a.parentNode && a.parentNode.host)) {
      const f = facts(a);
      if (pos === "fixed" && !holds(f)) continue;
      if (pos === "absolute" && f.pos === "static" && !holds(f)) continue;
      pos = f.pos; // a is in the chain: from here on, its own position decides
      if (f.open) continue;
      const r = f.rect || (f.rect = a.getBoundingClientRect());
      x1 = Math.max(x1, r.left); y1 = Math.max(y1, r.top); x2 = Math.min(x2, r.right); y2 = Math.min(y2, r.bottom);
    }
    return x2 - x1 >= 1 && y2 - y1 >= 1 ? [x1, y1, x2, y2] : null;
  };
  // What covers an element at every point tested, as [its key (0 if it has none), tag#id.class],
  // or null when some point of its visible part shows the element itself, its own content, an
  // ancestor (its shadow host included) or one of its labels (a person's click lands on it).
  bx.cover = bx.cover || /** @this {BxRegistry} */ function (el, rect, memo) {
    const r = rect === undefined ? this.visibleRect(el, memo) : rect;
    if (!r) return null;
    const root = el.getRootNode(), doc = root.elementFromPoint ? root : el.ownerDocument;
    let cover = null;
    for (let q = 0; q < 10; q += 2) {
      const fx = HIT_POINTS[q], fy = HIT_POINTS[q + 1];
      const hit = doc.elementFromPoint(r[0] + (r[2] - r[0]) * fx, r[1] + (r[3] - r[1]) * fy);
      if (!hit || this.inside(el, hit) || this.inside(hit, el) ||
          (el.labels && Array.prototype.some.call(el.labels, (l) => this.inside(l, hit)))) return null;
      if (!cover) cover = hit;
    }
    if (!cover) return null;
    // Opted-out content covering a control is named as such, nothing of it read.
    if (this.optedOut(cover)) return [0, "opted-out content"];
    const desc = cover.localName + (cover.id ? "#" + cover.id : "") +
      (typeof cover.className === "string" && cover.className ? "." + cover.className.trim().split(/\s+/)[0] : "");
    return [this.keyOf(cover), desc];
  };
  // Elements that may host an author shadow root (attachShadow's list) besides custom elements.
  const SHADOW_HOSTS = new Set(["ARTICLE", "ASIDE", "BLOCKQUOTE", "DIV", "FOOTER", "H1", "H2", "H3", "H4",
    "H5", "H6", "HEADER", "MAIN", "NAV", "P", "SECTION", "SPAN"]);
  // (SVG elements keep their tag's case: an SVG <style> is "style".)
  const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE", "BASE", "style",
    "script"]);
  const ATTRS = new Set([
    "id", "role", "name", "type", "href", "alt", "title", "placeholder", "for", "tabindex",
    "contenteditable", "disabled", "checked", "selected", "readonly", "required", "multiple", "open",
    "value", "hidden", "onclick", "onmousedown", "onpointerdown", "data-testid", "data-test", "data-test-id",
    "data-cy", "data-qa", "data-no-ai", "action", "method", "list", "size", "scope", "autocomplete",
    "ng-click", "x-on:click", "@click", "v-on:click", "hx-get", "hx-post", "jsaction", "draggable", "src",
    "slot", "label", "controls",
  ]);
  const MAX_TEXT = 400;
  // Nodes one walk reads, in document order (the host's MAX_PAGE_NODES, snapshot/frames.py).
  const MAX_NODES = opts.maxNodes || 200000;
  const STATUS_ROLE = /(^|\s)(alert|status)(\s|$)/; // the roles views/events.py reads classes of
  // Hit-testing candidates (see the occlusion pass): tags and attributes that may make an element a control.
  const ACTIVE_TAGS = new Set(["a", "area", "button", "input", "select", "textarea", "summary", "option", "label",
    "details", "video", "audio"]);
  const ACTIVE_ATTRS = new Set(["role", "tabindex", "contenteditable", "onclick", "onmousedown", "onpointerdown",
    "ng-click", "x-on:click", "@click", "v-on:click", "jsaction", "draggable"]);
  const LIST_TAGS = new Set(["ul", "ol", "menu", "table", "tbody", "thead", "tfoot", "dl"]);
  const SECTIONS = new Set(["tbody", "thead", "tfoot"]);
  const ODD_SPACE = /[^\S ]| {2}/; // whitespace the collapsing below would change
  const MAX_CUSTOM_SUSPECTS = 500; // CDP asks per suspect; bound the cost on huge component trees
  const SPACED = new Set(["a", "button", "label", "summary", "option", "legend", "h1", "h2", "h3", "h4", "h5",
    "h6", "p", "li", "td", "th", "span", "caption", "figcaption", "dt", "dd"]);
  // Columns per node; text, attrs and state are sparse (index → value): most nodes have none.
  const k = /** @type {number[]} */ ([]), p = /** @type {number[]} */ ([]), t = /** @type {string[]} */ ([]);
  const bx4 = /** @type {number[]} */ ([]), fl = /** @type {number[]} */ ([]), tx = /** @type {Record<number, string>} */ ({});
  const at = /** @type {Record<number, Record<string, string>>} */ ({}), st = /** @type {Record<number, BxState>} */ ({});
  const suspects = [];
  // Custom elements that take focus yet say no role: their role may come from ElementInternals
  // (Material Web's tabs and radios), which page JS cannot read; the host asks Chrome's
  // accessibility tree about them (page/internals.py). Node indexes, and the elements.
  const MAX_INTERNALS = 200;
  const internals = [], internalsAt = [], internalsSig = [];
  let pruned = 0;
  const withValues = !!opts.values;
  // Elements seen as type=password in this world (here and by the action probes), kept across
  // snapshots: docs/PAGE_API.md.
  const secretFields = globalThis.__browserxSecret || (globalThis.__browserxSecret = new WeakSet());
  const frameOwners = [];
  const keys = bx.keys, refs = bx.refs, closedRoots = bx.closed;

  /** @param {Node} node */
  function keyOf(node) {
    let key = keys.get(node);
    if (key === undefined) {
      key = /** @type {BxRegistry} */ (bx).next++;
      keys.set(node, key);
      refs.set(key, new WeakRef(node));
    }
    return key;
  }

  // Per element, filled by scanAttrs: the attributes sent, and the few the walk itself reads.
  // noAi: the element says data-no-ai (it and everything inside it, shadow roots and frames
  // included, opted out of AI agents: pruned here, once, for every view, ID and action).
  let ariaHidden = false, inert = false, noAi = false, labelledby = null, describedby = null;
  let optedOut = 0;
  const noAiBoxes = /** @type {number[]} */ ([]); // x, y, w, h (this frame's viewport) of each: screenshots blank them
  // The whole area an element paints into noAiBoxes: its own box and all it holds (text and
  // children that overflow it, absolutely positioned ones, the children of a display: contents
  // element, its shadow root's), as the ranges over its contents measure them.
  const blankOut = (/** @type {Element} */ el, /** @type {number} */ ox, /** @type {number} */ oy) => {
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
  };

  // One pass over the attribute names (getAttributeNames makes no Attr objects). Values as
  // getAttribute gives them: the first attribute of that name (an element may hold two of one
  // qualified name in different namespaces, and a name set through setAttributeNS keeps its
  // case, which getAttribute would lowercase away: both read by position instead).
  /** @param {Element} el */
  function scanAttrs(el) {
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
  function textOf(ids, scope) {
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
  function textFor(node, spaced) {
    const raw = node.data;
    if (!raw) return null;
    if (!raw.trim()) return spaced && node.previousSibling && node.nextSibling ? " " : null;
    const text = raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
    // Collapsed, with one space kept at either end where there was white space: it separates
    // this text from its inline neighbours ("<strong>200 </strong><p>OK</p>" reads "200 OK").
    return ODD_SPACE.test(text) ? text.replace(/\s+/g, " ") : text;
  }

  /** @param {BxDuck} el a control, a label or an option @param {string} tag @param {BxState | null} s */
  function formState(el, tag, s) {
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

  // Elements whose framework props hold a click handler (page/framework.py): the page's
  // probe answers a browserx-scan event with a browserx-clickable event at each of them.
  const fw = new Set();
  if (root.nodeType === 9) {
    const onMarked = (/** @type {Event} */ e) => { const target = e.composedPath()[0]; if (target) fw.add(target); };
    document.addEventListener("browserx-clickable", onMarked, true);
    try { document.dispatchEvent(new Event("browserx-scan")); } finally {
      document.removeEventListener("browserx-clickable", onMarked, true);
    }
  }

  // Hover-revealed content: the selectors of the page's :hover rules that make something opaque
  // again (`tr:hover .actions { opacity: 1 }`), with :hover taken out (`tr .actions`), so the
  // walk can tell a row's transparent actions (a person sees them on hover) from content that is
  // simply transparent. Per tree scope (document or shadow root), kept until its stylesheets
  // change; cross-origin sheets cannot be read and are passed over.
  const hoverMemo = bx.hover || (bx.hover = new WeakMap());
  const hoverNow = new Map(); // this walk's answers: the sheets are looked at once per scope
  /** @param {Document | ShadowRoot} scope */
  function hoverSelector(scope) {
    let v = hoverNow.get(scope);
    if (v === undefined) { v = hoverSelectorOf(scope); hoverNow.set(scope, v); }
    return v;
  }
  /** @param {Document | ShadowRoot} scope */
  function hoverSelectorOf(scope) {
    const sheets = scope.styleSheets;
    if (!sheets) return null;
    let size = sheets.length;
    for (let j = 0; j < sheets.length; j++) { try { size += sheets[j].cssRules.length * 1024; } catch (e) {} }
    const known = hoverMemo.get(scope);
    if (known && known.size === size) return known.selector;
    const found = /** @type {string[]} */ ([]);
    const scan = (/** @type {CSSRuleList} */ rules, /** @type {number} */ depth) => {
      for (let j = 0; j < rules.length; j++) {
        // a style rule (selectorText, style) or a grouping one (cssRules: @media, @supports...), told apart by selectorText
        const r = /** @type {CSSRule & Partial<CSSStyleRule & CSSGroupingRule>} */ (rules[j]), sel = r.selectorText;
        if (sel === undefined) { if (r.cssRules && depth < 4) scan(r.cssRules, depth + 1); continue; }
        if (sel.indexOf(":hover") < 0 || !r.style) continue;
        const op = r.style.opacity;
        if (!op || !(parseFloat(op) > 0)) continue;
        for (const part of sel.split(",")) {
          if (part.indexOf(":hover") < 0 || part.indexOf(":not(") >= 0) continue;
          const bare = part.replace(/:hover/g, "").trim();
          try { if (bare) { scope.querySelector(bare); found.push(bare); } } catch (e) {}
        }
      }
    };
    for (let j = 0; j < sheets.length; j++) {
      let rules = null;
      try { rules = sheets[j].cssRules; } catch (e) { rules = null; }
      if (rules) scan(rules, 0);
    }
    const selector = found.length ? found.join(",") : null;
    hoverMemo.set(scope, { size, selector });
    return selector;
  }

  const deepActive = (() => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  })();

  // The text a pseudo-element's content property generates ("" for none, counters, images):
  // its quoted strings, or its alternative text (after a "/") when it has one.
  const NAME_TAGS = new Set(["a", "button", "label", "summary", "option", "legend"]);
  const NAME_ROLES = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
    "radio", "checkbox", "switch", "treeitem"]);
  const QUOTED = /"((?:[^"\\]|\\.)*)"/g, ALT_NEXT = /^\s*\//;
  /** @param {Element} el @param {string} which */
  function generated(el, which) {
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

  // The layout flags of one element (bits 1-64; display's bits are set by the walk).
  /** @param {CSSStyleDeclaration} cs */
  function layoutFlags(cs) {
    let f = 0;
    if (cs.visibility !== "visible") f |= 1;
    const cursor = cs.cursor;
    if (cursor === "pointer") f |= 2;
    else if (cursor === "not-allowed") f |= 524288;
    if (cs.pointerEvents === "none") f |= 4;
    // One read for both axes: the shorthand serializes as "x" when they agree, else "x y".
    const ov = cs.overflow, sp = ov.indexOf(" ");
    const ovx = sp < 0 ? ov : ov.slice(0, sp), ovy = sp < 0 ? ov : ov.slice(sp + 1);
    if (ovx === "auto" || ovx === "scroll") f |= 8;
    if (ovy === "auto" || ovy === "scroll") f |= 16;
    if (ovx === "hidden" || ovx === "clip" || ovy === "hidden" || ovy === "clip") f |= 32;
    const position = cs.position;
    if (position !== "static") {
      f |= 512;
      if (position === "absolute") f |= 1024;
      else if (position === "fixed") f |= 2048 | 64;
      else if (position === "sticky") f |= 64;
      // clip applies to absolutely positioned boxes only.
      if (f & 3072) { const c = cs.clip; if (c !== "auto" && rectAway(c)) f |= 16384; }
    }
    const cp = cs.clipPath;
    if (cp !== "none" && pathAway(cp)) f |= 16384;
    return f;
  }

  // Whether clip: rect(top, right, bottom, left) leaves at most a pixel of the box (the
  // screen-reader-only pattern); "auto" edges do not clip.
  /** @param {string} c */
  function rectAway(c) {
    const m = /rect\(([^)]*)\)/.exec(c);
    if (!m) return false;
    const v = m[1].split(/[,\s]+/).filter(Boolean).map((x) => (x === "auto" ? NaN : parseFloat(x)));
    return v.length === 4 && (v[1] - v[3] <= 1 || v[2] - v[0] <= 1);
  }
  // Whether clip-path leaves nothing: inset() of 50 % or more from both sides, a zero circle,
  // or a polygon with every point the same.
  /** @param {string} cp */
  function pathAway(cp) {
    let m = /^inset\(([^)]*)\)/.exec(cp);
    if (m) {
      const v = m[1].split(/\s+/).filter((x) => x && x !== "round").slice(0, 4).map((x) => (x.endsWith("%") ? parseFloat(x) : NaN));
      const [t, r = t, b = t, l = r] = v;
      return t + b >= 100 || l + r >= 100;
    }
    if (/^circle\(0(px|%)?[\s)]/.test(cp)) return true;
    m = /^polygon\(([^)]*)\)/.exec(cp);
    if (m) return new Set(m[1].split(",").map((x) => x.trim())).size === 1;
    return false;
  }
  // Whether an element is the containing block of fixed (and absolute) descendants although it
  // is not positioned that way: transform, filter, perspective, containment, will-change.
  const cbMemo = new Map();
  /** @param {Element} el @param {CSSStyleDeclaration} cs */
  function holdsFixed(el, cs) {
    let v = cbMemo.get(el);
    if (v === undefined) {
      v = cs.transform !== "none" || cs.perspective !== "none" || cs.filter !== "none" ||
        cs.backdropFilter !== "none" || /paint|layout|strict|content/.test(cs.contain) ||
        /transform|perspective|filter/.test(cs.willChange);
      cbMemo.set(el, v);
    }
    return v;
  }

  // A scroll container's state when it has something to scroll, else s unchanged.
  /** @param {Element} node @param {BxState | null} s */
  function scrollState(node, s) {
    if (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1) {
      (s || (s = {})).scroll = [node.scrollLeft, node.scrollTop, node.scrollWidth, node.scrollHeight,
        node.clientWidth, node.clientHeight];
    }
    return s;
  }

  // Elements kept by the walk, for the passes after it (boxes, then layout flags): node, its
  // index, its computed style, its frame's offset. Frames are done by the walk itself.
  const eNode = [], eIdx = /** @type {number[]} */ ([]), eBox = /** @type {number[]} */ ([]);
  const eCs = /** @type {CSSStyleDeclaration[]} */ ([]), eX = [], eY = [];
  // Possible closed-shadow hosts in walk order (positions in eNode); custom or built-in.
  const cand = [], candCustom = [];

  // Iterative walk of the flat tree (shadow roots, slots, same-origin frames), on parallel
  // stacks: node, type, parent index, scope (document or shadow root) and the frame's offset.
  // A closed shadow root handed in on its own starts at its document's offset in the frame
  // (non-zero inside a same-origin iframe); a document walk starts at 0.
  const origin = opts.origin || [0, 0];
  const sNode = [root], sType = [root.nodeType], sParent = [-1], sScope = [root], sX = [origin[0]], sY = [origin[1]];
  let n = 0, top = 1, cut = false;
  while (top > 0) {
    if (n >= MAX_NODES) { cut = true; break; }
    top--;
    const node = sNode[top], parent = sParent[top];
    sNode[top] = null; // let go of nodes as we pass them
    const type = sType[top];
    if (type === 3) {
      // Text is never acted on: no key. Children lists hand over their text already cleaned;
      // its edge spaces go into its flags (1: before, 2: after), the text itself trimmed.
      let f = 0, s = node;
      if (s.length > 1) {
        if (s.charCodeAt(0) === 32) f |= 1;
        if (s.charCodeAt(s.length - 1) === 32) f |= 2;
        if (f) s = s.trim();
      }
      k.push(0); p.push(parent); t.push("#text"); fl.push(f);
      tx[n++] = s;
      continue;
    }
    const scope = sScope[top], ox = sX[top], oy = sY[top];
    let i, childScope = scope, maybeHost = false;
    if (type === 1) {
      const tag = node.tagName;
      if (SKIP.has(tag)) continue;
      const cs = getComputedStyle(node);
      const display = cs.display;
      if (display === "none") { pruned++; continue; }
      const a = scanAttrs(node);
      if (noAi) {
        optedOut++;
        blankOut(node, ox, oy);
        continue;
      }
      if (ariaHidden || inert) { pruned++; continue; }
      i = n++;
      k.push(keyOf(node)); p.push(parent); t.push(node.localName);
      if (a !== null) at[i] = a;
      // The box and the other layout flags come in the passes below; frames need theirs now.
      // Transparent content (opacity 0) is walked: it is in the accessibility tree, names
      // things and takes clicks (the native input of a custom checkbox), though nobody sees it.
      const b = bx4.length;
      bx4.push(0, 0, 0, 0);
      const skipsContent = cs.contentVisibility === "hidden";
      let seeThrough = 0;
      if (cs.opacity === "0") {
        // Transparent; bit 1048576 when a :hover rule of the page makes it opaque again.
        seeThrough = 8192;
        const hover = hoverSelector(scope);
        if (hover !== null) { try { if (node.matches(hover)) seeThrough |= 1048576; } catch (e) {} }
      }
      // inline 256; an atomic inline (inline-block, inline-flex…) is a box of its own: 256 | 262144
      fl.push((display === "contents" ? 128 : display.startsWith("inline") ? (display === "inline" ? 256 : 262400) : 0) |
        seeThrough | (skipsContent ? 32768 : 0) | (fw.size !== 0 && fw.has(node) ? 65536 : 0));
      const frame = tag === "IFRAME" || tag === "FRAME";
      if (!frame) {
        eNode.push(node); eIdx.push(i); eBox.push(b); eCs.push(cs); eX.push(ox); eY.push(oy);
      }
      // Live state: form controls, labels' controls, editing, names by reference, focus (and
      // scroll, with the flags).
      let s = null;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "BUTTON" || tag === "LABEL" ||
          tag === "OPTION") {
        s = formState(node, tag, s);
        // A password (or one that was: "show password") with a value is blanked in screenshots.
        if (s && s.hasValue) blankOut(node, ox, oy);
      }
      if (node.isContentEditable && !(node.parentElement && node.parentElement.isContentEditable)) {
        (s || (s = {})).editable = true;
        if (withValues) s.value = (node.innerText || "").slice(0, MAX_TEXT);
      }
      if (labelledby) (s || (s = {})).labelledbyText = textOf(labelledby, scope);
      if (describedby) (s || (s = {})).describedbyText = textOf(describedby, scope);
      if (node === deepActive) (s || (s = {})).focused = true;
      if (frame) {
        const r = node.getBoundingClientRect();
        bx4[b] = Math.round(r.left + ox);
        bx4[b + 1] = Math.round(r.top + oy);
        bx4[b + 2] = Math.round(r.width);
        bx4[b + 3] = Math.round(r.height);
        const f = fl[i] |= layoutFlags(cs);
        if (f & 24) s = scrollState(node, s);
        let doc = null;
        try { doc = node.contentDocument; } catch (e) { doc = null; }
        // Content box origin of the frame in this frame's viewport coordinates.
        const fx = r.left + ox + node.clientLeft + parseFloat(cs.paddingLeft || "0");
        const fy = r.top + oy + node.clientTop + parseFloat(cs.paddingTop || "0");
        (s || (s = {})).frameOrigin = [fx, fy];
        st[i] = s;
        if (doc && doc.documentElement) {
          // A frame of this process whose document opted out of AI agents: nothing of it is read.
          const docOptedOut = doc.documentElement.hasAttribute("data-no-ai") || (doc.body && doc.body.hasAttribute("data-no-ai"));
          if (!docOptedOut) { sNode[top] = doc; sType[top] = 9; sParent[top] = i; sScope[top] = doc; sX[top] = fx; sY[top] = fy; top++; }
        } else {
          frameOwners.push(k[i]);
        }
        continue;
      }
      if (s !== null) st[i] = s;
      // Options are summarised in state; a textarea's text child is its value (private);
      // content-visibility: hidden content is not rendered.
      // A list box (multiple, or size > 1) shows its options in place: they are walked, each
      // one a control a person clicks.
      if (tag === "SELECT" && (node.multiple || node.size > 1)) { (st[i] || (st[i] = {})).listbox = true; }
      else if (tag === "SELECT" || tag === "TEXTAREA" || skipsContent) continue;
      // Closed roots the host handed in before (host → root) are walked like open ones: page JS
      // cannot see them, but this world keeps them, so repeat snapshots need no CDP for them.
      if (tag.includes("-") && internals.length < MAX_INTERNALS && node.hasAttribute("tabindex") &&
          !node.hasAttribute("role")) {
        // Its attributes as they are: what Chrome said of it holds while they do (components
        // reflect their state in them: md-radio's checked, md-primary-tab's active).
        let sig = "";
        for (const name of node.getAttributeNames()) sig += name + "=" + node.getAttribute(name) + "\u0001";
        internals.push(node); internalsAt.push(i); internalsSig.push(sig);
      }
      const sr = node.shadowRoot || closedRoots.get(node);
      if (sr) {
        sNode[top] = sr; sType[top] = 11; sParent[top] = i; sScope[top] = scope; sX[top] = ox; sY[top] = oy; top++;
        continue;
      }
      if (tag === "SLOT") {
        const assigned = node.assignedNodes({ flatten: true });
        if (assigned.length) {
          // Assigned light nodes (not fallback content) live in the host's tree scope: their
          // ids are looked up there (a combobox labelled by a <label> of the component's own
          // root, slotted into an inner component).
          if (node.assignedNodes().length) (st[i] || (st[i] = {})).slotted = true;
          for (let c = assigned.length - 1; c >= 0; c--) {
            const kid = assigned[c], kt = kid.nodeType;
            if (kt === 1) {
              sNode[top] = kid; sType[top] = 1; sParent[top] = i; sScope[top] = kid.getRootNode(); sX[top] = ox; sY[top] = oy; top++;
            } else if (kt === 3) {
              const text = textFor(kid, false);
              if (text !== null) { sNode[top] = text; sType[top] = 3; sParent[top] = i; top++; }
            }
          }
          continue;
        }
      } else if (tag === "DETAILS" && !node.open) {
        for (let c = node.lastElementChild; c; c = c.previousElementSibling) {
          if (c.tagName !== "SUMMARY") continue;
          sNode[top] = c; sType[top] = 1; sParent[top] = i; sScope[top] = scope; sX[top] = ox; sY[top] = oy; top++;
        }
        continue;
      } else if (tag.includes("-") && node.localName.includes("-")) {
        // A host with a closed shadow root is invisible to page JS; the host asks CDP about
        // elements whose own content cannot explain their rendered box: every custom element
        // without an open root (a closed root may slot its light children, so they render
        // either way), and built-in hosts without content (seen while their children are
        // listed, below) whose box is not empty (seen in the box pass).
        cand.push(eNode.length - 1); candCustom.push(true);
      } else {
        maybeHost = SHADOW_HOSTS.has(tag);
      }
    } else if (type === 9 || type === 11) {
      // Document (root or same-origin iframe content) or ShadowRoot.
      i = n++;
      k.push(keyOf(node)); p.push(parent); t.push(type === 9 ? "#document" : "#shadow-root");
      bx4.push(0, 0, 0, 0); fl.push(0);
      childScope = node;
      if (type === 11) {
        at[i] = { mode: node.mode };
      } else {
        const view = node.defaultView;
        at[i] = { url: node.URL, title: node.title.slice(0, MAX_TEXT) };
        if (view) st[i] = { scroll: [view.scrollX, view.scrollY], viewport: [view.innerWidth, view.innerHeight] };
        const only = node.body || node.documentElement;
        if (only) { sNode[top] = only; sType[top] = 1; sParent[top] = i; sScope[top] = node; sX[top] = ox; sY[top] = oy; top++; }
        continue;
      }
    } else {
      continue;
    }
    // Children in reverse so they come off the stack in document order; only elements and text
    // (comments and processing instructions say nothing).
    const spaced = type === 1 && SPACED.has(t[i]);
    let content = false; // an element child or text that is not whitespace
    let gap = false; // the sibling after this one was white space only (React's {code}{" "})
    for (let c = node.lastChild; c; c = c.previousSibling) {
      const kt = c.nodeType;
      if (kt === 1) {
        sNode[top] = c; sType[top] = 1; sParent[top] = i; sScope[top] = childScope; sX[top] = ox; sY[top] = oy; top++;
        content = true;
        gap = false;
      } else if (kt === 3) {
        let text = textFor(c, spaced);
        if (text !== null && text !== " " && gap) text += " ";
        gap = text === null || text === " ";
        if (text !== null) {
          sNode[top] = text; sType[top] = 3; sParent[top] = i; top++;
          if (text !== " ") content = true;
        }
      } else if (kt === 4 && maybeHost && c.data.trim()) {
        content = true; // CDATA is not walked but is text content
      }
    }
    if (maybeHost && !content) { cand.push(eNode.length - 1); candCustom.push(false); }
  }

  // Boxes, in whole CSS pixels: plenty for seeing; actions re-measure precisely before acting.
  const ne = eNode.length, candBox = [];
  let nextCand = cand.length ? cand[0] : -1, ci = 0;
  for (let j = 0; j < ne; j++) {
    const r = eNode[j].getBoundingClientRect();
    const b = eBox[j], width = r.width, height = r.height;
    bx4[b] = Math.round(r.left + eX[j]);
    bx4[b + 1] = Math.round(r.top + eY[j]);
    bx4[b + 2] = Math.round(width);
    bx4[b + 3] = Math.round(height);
    while (j === nextCand) {
      candBox.push(width > 0 && height > 0);
      nextCand = ++ci < cand.length ? cand[ci] : -1;
    }
  }
  // Layout flags, and the state of scroll containers.
  let outOfFlow = /** @type {number[] | null} */ (null); // positions in eNode of absolutely and fixed positioned elements
  for (let j = 0; j < ne; j++) {
    const i = eIdx[j];
    const f = fl[i] |= layoutFlags(eCs[j]);
    if (f & 24 && t[i] !== "textarea") { // a textarea scrolls its own value: a field, not a container
      const s = scrollState(eNode[j], st[i] || null);
      if (s) st[i] = s;
    }
    if (f & 3072) (outOfFlow || (outOfFlow = [])).push(j);
  }
  // Generated content (::before / ::after) is part of names as text is (a chip's "," separator,
  // Chrome reads it): read only inside what names are made of (controls, labels, elements with
  // a role), a computed style per pseudo-element being too dear for every element.
  const inNamed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const pi = p[i];
    if ((pi >= 0 && inNamed[pi]) || NAME_TAGS.has(t[i]) || (at[i] !== undefined && NAME_ROLES.has(at[i].role))) inNamed[i] = 1;
  }
  for (let j = 0; j < ne; j++) {
    const i = eIdx[j];
    if (!inNamed[i]) continue;
    const before = generated(eNode[j], "::before"), after = generated(eNode[j], "::after");
    if (before || after) {
      const s = st[i] || (st[i] = {});
      if (before) s.before = before;
      if (after) s.after = after;
    }
  }
  // Containing blocks that are not positioned (bit 4096): the host follows the containing-block
  // chain to know which overflow boxes clip what. Asked only above out-of-flow elements, up to
  // their containing block: a fixed element's chain up to the viewport, an absolute one's up to
  // its nearest positioned ancestor (most often its parent: nothing to read).
  if (outOfFlow !== null) {
    const posOf = new Map(); // node index → position in eNode
    for (let j = 0; j < ne; j++) posOf.set(eIdx[j], j);
    for (const j of outOfFlow) {
      const fixed = (fl[eIdx[j]] & 2048) !== 0;
      for (let i = p[eIdx[j]]; i >= 0; i = p[i]) {
        const aj = posOf.get(i);
        if (aj === undefined) { if (t[i] === "#document") break; continue; } // a shadow root
        if (!fixed && fl[i] & 512) break;
        if (fl[i] & 4096) break;
        if (holdsFixed(eNode[aj], eCs[aj])) { fl[i] |= 4096; break; }
      }
    }
  }
  // The part of a box (its left, top, right, bottom) in a viewport of w × h, [left, top, right,
  // bottom], or null when less than a pixel of it is in view either way.
  /** @param {DOMRect} b @param {number} w @param {number} h */
  function inViewport(b, w, h) {
    const x1 = Math.max(b.left, 0), y1 = Math.max(b.top, 0);
    const x2 = Math.min(b.right, w), y2 = Math.min(b.bottom, h);
    return x2 - x1 >= 1 && y2 - y1 >= 1 ? [x1, y1, x2, y2] : null;
  }
  // The signature of what could cover anything, for the occlusion pass below: the viewport, the
  // scroll, the element count, and each positioned element's key, flags (but the pass's own bit
  // 131072), box and z-index (the first ne of the walk's elements).
  /** @param {number} vw @param {number} vh @param {number} scrollX @param {number} scrollY @param {number} ne */
  function coverSig(vw, vh, scrollX, scrollY, ne) {
    let sig = (Math.imul(vw, 31) + vh + Math.imul(scrollX | 0, 961) + Math.imul(scrollY | 0, 29791) + Math.imul(ne, 7919)) | 0;
    for (let j = 0; j < ne; j++) {
      const i = eIdx[j], f = fl[i];
      if (!(f & 512)) continue;
      const b = eBox[j];
      sig = Math.imul(sig ^ (k[i] | 0), 16777619);
      sig = Math.imul(sig ^ (f & ~131072), 16777619);
      sig = Math.imul(sig ^ ((bx4[b] * 8191 + bx4[b + 1] * 131 + bx4[b + 2] * 37 + bx4[b + 3]) | 0), 16777619);
      const z = eCs[j].zIndex; // "auto" apart from every number (-1 included)
      sig = Math.imul(sig ^ (z === "auto" ? 1 : 0), 16777619);
      sig = Math.imul(sig ^ (+z | 0), 16777619);
    }
    return sig;
  }

  // Occlusion, tested here rather than in a second call once the host knows what it lists: every
  // element a person might act on (a superset of what the host calls interactive: native
  // controls, elements with a role, a tabindex, click attributes or a framework handler, where
  // the pointer cursor starts, and nodes that listened for clicks at the last capture and their
  // items), if its box meets the viewport. Tested ones get bit 131072; what covers them goes
  // in `hits` by key. The host tests what it lists beyond these in a call of its own.
  const hits = /** @type {Record<number, BxCover>} */ ({}), hitStarted = performance.now();
  let hitTested = 0, reused = 0;
  if (opts.hitTest) {
    const base = bx.base, listening = opts.listening && opts.listening.length ? new Set(opts.listening) : null;
    // Listening nodes, and the items of lists (list elements, elements with a role, rows of
    // one kind of child) up to three levels inside one: the host's delegation rules give those
    // items the clicks (rows through a table section).
    let near = null, lists = null;
    if (listening) {
      near = new Uint8Array(n).fill(9); // levels below the nearest listening node, 9: none near
      lists = new Uint8Array(n);
      const kids = new Map(); // element children per node: tag → count
      for (let j = 0; j < ne; j++) {
        const i = eIdx[j], pi = p[i];
        if (pi < 0) continue;
        let m = kids.get(pi);
        if (m === undefined) kids.set(pi, (m = new Map()));
        m.set(t[i], (m.get(t[i]) || 0) + 1);
      }
      for (let i = 0; i < n; i++) {
        if (k[i] && listening.has(base + k[i]) && t[i] !== "body" && t[i] !== "html") near[i] = 0;
        else if (p[i] >= 0 && near[p[i]] < 4) near[i] = near[p[i]] + 1;
        const m = kids.get(i);
        if (LIST_TAGS.has(t[i]) || (at[i] !== undefined && at[i].role !== undefined) ||
            (m !== undefined && m.size === 1 && m.values().next().value >= 2)) lists[i] = 1;
      }
    }
    const memo = new Map();
    const vw = view0.innerWidth, vh = view0.innerHeight;
    // What can cover an element is a positioned box (absolute, fixed, sticky, relative with a
    // z-index: menus, dialogs, toasts, a grid's pinned parts). While none of them moved, changed
    // its flags or stacking, came or went, an element still in the same place is covered or not
    // as it was: its last answer holds, and the hit test (most of the walk's time on a big app,
    // and all of it again at every snapshot of a live page) is spared. A cover that has left the
    // page since (it need not be positioned) has the element tested again.
    // (The element count too: an element that came or went in the flow moves others, or not.)
    const sig = coverSig(vw, vh, view0.scrollX, view0.scrollY, ne);
    const memos = bx.uncovered || (bx.uncovered = new WeakMap()); // per walked root (document, closed root)
    const prev = memos.get(root), kept = prev !== undefined && prev.sig === sig ? prev.map : new WeakMap();
    memos.set(root, { sig, map: kept });
    // Whether an overflow box is among a node's ancestors (parents come before their children).
    // Without one, the part of an element a person sees is its box within the viewport, and
    // visibleRect's walk up the ancestors (a computed style each) can be spared.
    const clipAbove = new Uint8Array(n);
    for (let i = 1; i < n; i++) { const pi = p[i]; if (pi >= 0) clipAbove[i] = clipAbove[pi] | (fl[pi] & 56 ? 1 : 0); }
    for (let j = 0; j < ne; j++) {
      const i = eIdx[j], f = fl[i];
      if (f & 1 || bx4[eBox[j] + 2] === 0 || bx4[eBox[j] + 3] === 0) continue;
      if (eX[j] === 0 && eY[j] === 0) { // a box of the top document wholly out of view: nothing to hit
        const x = bx4[eBox[j]], y = bx4[eBox[j] + 1];
        if (x >= vw || y >= vh || x + bx4[eBox[j] + 2] <= 0 || y + bx4[eBox[j] + 3] <= 0) continue;
      }
      let maybe = /** @type {boolean | number} */ (ACTIVE_TAGS.has(t[i]) || (f & 65536) !== 0); // a list's 0 or 1 may decide it
      if (!maybe) {
        const a = at[i];
        if (a !== undefined) for (const name in a) if (ACTIVE_ATTRS.has(name) || name.startsWith("hx-")) { maybe = true; break; }
      }
      if (!maybe && f & 2) { const pi = p[i]; maybe = pi < 0 || t[pi][0] === "#" || !(fl[pi] & 2); }
      if (!maybe && st[i] !== undefined && st[i].editable) maybe = true;
      if (!maybe && near !== null) {
        const pi = p[i];
        maybe = near[i] === 0 || (pi >= 0 && ((/** @type {Uint8Array} */ (lists)[pi] && near[pi] <= 3) ||
          (SECTIONS.has(t[pi]) && p[pi] >= 0 && /** @type {Uint8Array} */ (lists)[p[pi]] && near[p[pi]] <= 3))); // lists: set with near
      }
      if (!maybe) continue;
      fl[i] |= 131072;
      hitTested++;
      const el = eNode[j];
      let rect;
      if (!clipAbove[i]) {
        const v = el.ownerDocument.defaultView;
        rect = inViewport(el.getBoundingClientRect(), v.innerWidth, v.innerHeight);
      } else {
        rect = bx.visibleRect(el, memo);
      }
      if (rect === null) continue;
      const last = kept.get(el);
      if (last !== undefined && last[0] === rect[0] && last[1] === rect[1] && last[2] === rect[2] && last[3] === rect[3] &&
          (last[4] === null || (last[4][0] !== 0 && bx.nodeOf(last[4][0]) !== null && bx.nodeOf(last[4][0]).isConnected))) {
        reused++;
        if (last[4] !== null) hits[base + k[i]] = last[4];
        continue;
      }
      const c = bx.cover(el, rect, memo);
      if (c !== null) hits[base + k[i]] = c;
      kept.set(el, [rect[0], rect[1], rect[2], rect[3], c]);
    }
  }
  const hitMs = performance.now() - hitStarted;
  // Hosts the host has already asked CDP about and found without a closed root are not asked
  // about again (an element attaches its shadow root once, when it is made).
  const plain = bx.plain || (bx.plain = new WeakSet());
  for (let c = 0; c < cand.length; c++) {
    const host = eNode[cand[c]];
    if (plain.has(host)) continue;
    if (candCustom[c] ? suspects.length < MAX_CUSTOM_SUSPECTS : candBox[c]) suspects.push(host);
  }

  bx.suspects = suspects;
  bx.internals = internals;
  // Forget nodes that are gone so the key map does not grow without bound. Only on a document
  // walk: a closed shadow root's walk is small, and sweeping the whole map for each is quadratic.
  if (root.nodeType === 9 && refs.size > 4 * k.length + 1000) {
    for (const [key, ref] of refs) if (!ref.deref()) refs.delete(key);
  }
  // Compact columns (a quarter less to send; the host expands them): tags as indexes into a
  // table, parents as the distance back to the parent, keys as the step from the previous key.
  const nn = k.length, tagIds = new Array(nn), tagNames = [], tagIndex = new Map();
  const parentDeltas = new Array(nn), keyDeltas = new Array(nn);
  for (let i = 0, prev = 0; i < nn; i++) {
    const tag = t[i];
    let id = tagIndex.get(tag);
    if (id === undefined) { id = tagNames.length; tagNames.push(tag); tagIndex.set(tag, id); }
    tagIds[i] = id;
    parentDeltas[i] = i - p[i];
    const key = k[i];
    if (key) { keyDeltas[i] = key - prev; prev = key; } else keyDeltas[i] = 0;
  }
  const view = (root.ownerDocument || root).defaultView || window;
  // A JSON string crosses CDP and the extension far faster than a deep protocol value.
  return JSON.stringify({
    url: location.href,
    title: document.title.slice(0, MAX_TEXT), // a page's 1 MB title is not the agent's to read
    viewport: [view.innerWidth, view.innerHeight],
    scroll: [view.scrollX, view.scrollY],
    dpr: view.devicePixelRatio,
    docSize: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    noAi: !!(document.documentElement.hasAttribute("data-no-ai") || (document.body && document.body.hasAttribute("data-no-ai"))),
    keyDeltas, parentDeltas, tagIds, tagNames, text: tx, attrs: at, box: bx4, textBoxes: false, flags: fl, state: st,
    suspects: suspects.length, internals: internalsAt, internalsSig, frameOwners, pruned, optedOut, noAiBoxes, keyBase: bx.base, cut,
    hits, hitTested, hitReused: reused, hitMs,
    mutations: globalThis.__bxWatch ? globalThis.__bxWatch.mutations : -1, pageMs: performance.now() - started,
  });
}
