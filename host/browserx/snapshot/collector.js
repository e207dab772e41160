// The browser half of a snapshot: one call per frame, run in browserx's isolated world, that
// gathers raw facts only (structure, tags, attributes, text, boxes, a few computed styles, live
// form state). Classification, naming, flattening and IDs happen in Python.
//
// Called as a function declaration: collect(root, opts). `root` is a Document or a ShadowRoot
// (closed roots are handed in by the host through CDP). Output is columnar to keep it compact.
// Subtrees nobody can see are not descended into: display:none, opacity:0, aria-hidden="true",
// inert, <template>/<script>/<style>, closed <details> content, unslotted light children.
function collect(root, opts) {
  opts = opts || {};
  // One registry per document. Keys start at a base the host picks per document (and past any
  // key this global handed out before), so a key never names two nodes of a tab.
  let bx = globalThis.__browserx;
  if (!bx || bx.doc !== document) {
    const next = Math.max(bx ? bx.next : 0, opts.keyBase || 0) + 1;
    bx = globalThis.__browserx = { doc: document, keys: new WeakMap(), refs: new Map(), next };
  }
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
  // Elements that may host an author shadow root (attachShadow's list) besides custom elements.
  const SHADOW_HOSTS = new Set(["ARTICLE", "ASIDE", "BLOCKQUOTE", "DIV", "FOOTER", "H1", "H2", "H3", "H4",
    "H5", "H6", "HEADER", "MAIN", "NAV", "P", "SECTION", "SPAN"]);
  const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE", "BASE"]);
  const ATTRS = new Set([
    "id", "class", "role", "name", "type", "href", "alt", "title", "placeholder", "for", "tabindex",
    "contenteditable", "disabled", "checked", "selected", "readonly", "required", "multiple", "open",
    "value", "hidden", "onclick", "onmousedown", "onpointerdown", "data-testid", "data-test", "data-test-id",
    "data-cy", "data-qa", "data-no-ai", "action", "method", "list", "size", "scope", "autocomplete",
    "ng-click", "x-on:click", "@click", "v-on:click", "hx-get", "hx-post", "jsaction", "draggable", "src",
    "slot", "label", "controls",
  ]);
  const MAX_TEXT = 400;
  const MAX_CUSTOM_SUSPECTS = 500; // CDP asks per suspect; bound the cost on huge component trees
  const SPACED = new Set(["a", "button", "label", "summary", "option", "legend", "h1", "h2", "h3", "h4", "h5",
    "h6", "p", "li", "td", "th", "span", "caption", "figcaption", "dt", "dd"]);
  // Columns per node; text, attrs and state are sparse (index → value): most nodes have none.
  const k = [], p = [], t = [], bx4 = [], fl = [], tx = {}, at = {}, st = {};
  const suspects = [];
  let pruned = 0;
  const withValues = !!opts.values;
  const frameOwners = [];

  function keyOf(node) {
    let key = bx.keys.get(node);
    if (key === undefined) {
      key = bx.next++;
      bx.keys.set(node, key);
      bx.refs.set(key, new WeakRef(node));
    }
    return key;
  }

  function push(node, parent, tag) {
    const i = k.length;
    k.push(tag === "#text" ? 0 : keyOf(node)); // text is never acted on: no key
    p.push(parent);
    t.push(tag);
    bx4.push(0, 0, 0, 0);
    fl.push(0);
    return i;
  }

  function attrsOf(el) {
    let out = null;
    for (const a of el.attributes) {
      const n = a.name;
      if (ATTRS.has(n) || n.startsWith("aria-")) {
        (out || (out = {}))[n] = n === "onclick" || n === "onmousedown" || n === "onpointerdown"
          ? "1"
          : a.value.length > 200 ? a.value.slice(0, 200) : a.value;
      }
    }
    return out;
  }

  function textOf(ids, scope) {
    let s = "";
    for (const id of ids.split(/\s+/)) {
      if (!id) continue;
      const target = scope.getElementById ? scope.getElementById(id) : null;
      if (target) s += " " + target.textContent;
    }
    return s.replace(/\s+/g, " ").trim().slice(0, MAX_TEXT);
  }

  function stateOf(el, tag, scope) {
    let s = null;
    const set = (name, v) => { (s || (s = {}))[name] = v; };
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "BUTTON") {
      if (el.matches(":disabled")) set("disabled", true);
      if (tag === "INPUT") {
        const type = el.type;
        set("inputType", type);
        if (type === "checkbox" || type === "radio") set("checked", el.indeterminate ? "mixed" : el.checked);
        else if (withValues && type !== "password" && el.value) set("value", el.value);
        else if (type === "password" && el.value) set("hasValue", true);
      } else if (tag === "TEXTAREA") {
        if (withValues && el.value) set("value", el.value);
      } else if (tag === "SELECT") {
        const options = [];
        for (const o of el.options) {
          if (options.length >= 50) break;
          options.push([(o.label || o.textContent || "").trim().slice(0, 80), o.selected]);
        }
        set("options", options);
        if (el.options.length > 50) set("optionCount", el.options.length);
        if (withValues && el.selectedIndex >= 0) set("value", options[el.selectedIndex] ? options[el.selectedIndex][0] : el.value);
      }
    } else if (tag === "LABEL") {
      // label.control is cheap; el.labels scans the whole tree scope for every control (O(n²)).
      const control = el.control;
      if (control) set("control", keyOf(control));
    } else if (tag === "OPTION") {
      if (el.selected) set("selected", true);
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) {
      set("editable", true);
      if (withValues) set("value", (el.innerText || "").slice(0, MAX_TEXT));
    }
    const lb = el.getAttribute("aria-labelledby");
    if (lb) set("labelledbyText", textOf(lb, scope));
    const db = el.getAttribute("aria-describedby");
    if (db) set("describedbyText", textOf(db, scope));
    return s;
  }

  const deepActive = (() => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  })();

  // Iterative walk of the flat tree (shadow roots, slots, same-origin frames).
  // Stack entries: [node, parentIndex, scope, offsetX, offsetY].
  const stack = [[root, -1, root, 0, 0]];
  while (stack.length) {
    const [node, parent, scope, ox, oy] = stack.pop();
    const type = node.nodeType;
    if (type === 3) {
      const raw = node.data;
      if (!raw) continue;
      if (!raw.trim()) {
        // Whitespace between inline children is a word break in names ("Buy" "now"); elsewhere
        // it is layout noise and is not sent.
        if (parent >= 0 && SPACED.has(t[parent]) && node.previousSibling && node.nextSibling) {
          tx[push(node, parent, "#text")] = " ";
        }
        continue;
      }
      const i = push(node, parent, "#text");
      const text = raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
      tx[i] = text.replace(/\s+/g, " ").trim();
      continue;
    }
    let i, kids, childScope = scope, cox = ox, coy = oy;
    if (type === 9 || type === 11) {
      // Document (root or same-origin iframe content) or ShadowRoot.
      i = push(node, parent, type === 9 ? "#document" : "#shadow-root");
      if (type === 11) at[i] = { mode: node.mode };
      if (type === 9) {
        const view = node.defaultView;
        at[i] = { url: node.URL, title: node.title };
        if (view) st[i] = { scroll: [view.scrollX, view.scrollY], viewport: [view.innerWidth, view.innerHeight] };
      }
      childScope = node;
      kids = type === 9 ? (node.body ? [node.body] : node.documentElement ? [node.documentElement] : []) : node.childNodes;
    } else if (type === 1) {
      const tag = node.tagName;
      if (SKIP.has(tag)) continue;
      const cs = getComputedStyle(node);
      const display = cs.display;
      if (display === "none" || node.getAttribute("aria-hidden") === "true" || node.hasAttribute("inert") ||
          cs.opacity === "0" || cs.contentVisibility === "hidden") {
        pruned++;
        continue;
      }
      i = push(node, parent, node.localName);
      const a = attrsOf(node);
      if (a) at[i] = a;
      const r = node.getBoundingClientRect();
      const b = i * 4;
      // Whole CSS pixels: plenty for seeing; actions re-measure precisely before acting.
      bx4[b] = Math.round(r.left + ox);
      bx4[b + 1] = Math.round(r.top + oy);
      bx4[b + 2] = Math.round(r.width);
      bx4[b + 3] = Math.round(r.height);
      let f = 0;
      if (cs.visibility !== "visible") f |= 1;
      if (cs.cursor === "pointer") f |= 2;
      if (cs.pointerEvents === "none") f |= 4;
      const ovx = cs.overflowX, ovy = cs.overflowY;
      if (ovx === "auto" || ovx === "scroll") f |= 8;
      if (ovy === "auto" || ovy === "scroll") f |= 16;
      if (ovx === "hidden" || ovx === "clip" || ovy === "hidden" || ovy === "clip") f |= 32;
      if (cs.position === "fixed" || cs.position === "sticky") f |= 64;
      if (display === "contents") f |= 128;
      if (display.startsWith("inline")) f |= 256;
      fl[i] = f;
      let s = stateOf(node, tag, scope);
      if (node === deepActive) (s || (s = {})).focused = true;
      if ((f & 24) && (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1)) {
        (s || (s = {})).scroll = [node.scrollLeft, node.scrollTop, node.scrollWidth, node.scrollHeight,
          node.clientWidth, node.clientHeight];
      }
      if (s) st[i] = s;
      // Options are summarised in state; a textarea's text child is its value (private).
      if (tag === "SELECT" || tag === "TEXTAREA") continue;
      if (tag === "IFRAME" || tag === "FRAME") {
        let doc = null;
        try { doc = node.contentDocument; } catch (e) { doc = null; }
        // Content box origin of the frame in this frame's viewport coordinates.
        const fx = r.left + ox + node.clientLeft + parseFloat(cs.paddingLeft || "0");
        const fy = r.top + oy + node.clientTop + parseFloat(cs.paddingTop || "0");
        (st[i] || (st[i] = {})).frameOrigin = [fx, fy];
        if (doc && doc.documentElement) {
          stack.push([doc, i, doc, fx, fy]);
        } else {
          frameOwners.push(k[i]);
        }
        continue;
      }
      const sr = node.shadowRoot;
      if (sr) {
        kids = [sr];
      } else if (tag === "SLOT") {
        const assigned = node.assignedNodes({ flatten: true });
        kids = assigned.length ? assigned : node.childNodes;
      } else if (tag === "DETAILS" && !node.open) {
        kids = Array.prototype.filter.call(node.children, (c) => c.tagName === "SUMMARY");
      } else {
        kids = node.childNodes;
        // A host with a closed shadow root is invisible to page JS; the host asks CDP about
        // elements whose own content cannot explain their rendered box.
        // Every custom element without an open root (a closed root may slot its light children,
        // so they render either way), and built-in hosts whose content cannot explain their box.
        const custom = node.localName.includes("-");
        if (custom ? suspects.length < MAX_CUSTOM_SUSPECTS :
            SHADOW_HOSTS.has(tag) && r.width > 0 && r.height > 0 && !node.firstElementChild && !node.textContent.trim()) {
          suspects.push(node);
        }
      }
    } else {
      continue;
    }
    for (let c = kids.length - 1; c >= 0; c--) stack.push([kids[c], i, childScope, cox, coy]);
  }

  bx.suspects = suspects;
  // Forget nodes that are gone so the key map does not grow without bound. Only on a document
  // walk: a closed shadow root's walk is small, and sweeping the whole map for each is quadratic.
  if (root.nodeType === 9 && bx.refs.size > 4 * k.length + 1000) {
    for (const [key, ref] of bx.refs) if (!ref.deref()) bx.refs.delete(key);
  }
  const view = (root.ownerDocument || root).defaultView || window;
  // A JSON string crosses CDP and the extension far faster than a deep protocol value.
  return JSON.stringify({
    url: location.href,
    title: document.title,
    viewport: [view.innerWidth, view.innerHeight],
    scroll: [view.scrollX, view.scrollY],
    dpr: view.devicePixelRatio,
    docSize: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    noAi: !!(document.documentElement.hasAttribute("data-no-ai") || (document.body && document.body.hasAttribute("data-no-ai"))),
    key: k, parent: p, tag: t, text: tx, attrs: at, box: bx4, flags: fl, state: st,
    suspects: suspects.length, frameOwners, pruned,
  });
}
