// @ts-check
// The browser half of a snapshot: one call per frame, run in browserx's isolated world, that
// gathers raw facts only (structure, tags, attributes, text, boxes, a few computed styles, live
// form state). Classification, naming, flattening and IDs happen in Python.
//
// Called as collect(root, opts) (page/settle_and_collect.js, page/closed_roots.js). `root` is a Document or a ShadowRoot
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
//
// The walk and the passes over its columns are here; its parts, in modules of their own (no library
// members): the registry (collector_registry.js), what is read of one node (collector_node.js:
// attributes, text, form state), what is made of its computed style (collector_style.js), and the
// occlusion pass (collector_hits.js). The walk calls them where it called them when they were
// declared inside it, no more often.
import { registry } from "./collector_registry.js";
import { MAX_TEXT, ariaHidden, blankOut, describedby, formState, generated, inert, labelledby, noAi, scanAttrs, textFor,
  textOf } from "./collector_node.js";
import { holdsFixed, hoverSelectorOf, layoutFlags, scrollState } from "./collector_style.js";
import { hitTest } from "./collector_hits.js";
/** @type {BxSnippets["page/collector.js"]} */
export default function collect(root, opts) {
  const started = performance.now();
  const view0 = (root.ownerDocument || root).defaultView || window;
  opts = opts || {};
  // One registry per document (globalThis.__browserx: page/collector_registry.js), its keys and
  // the functions the snippets share.
  const bx = registry(opts.freshBase);
  // Elements that may host an author shadow root (attachShadow's list) besides custom elements.
  const SHADOW_HOSTS = new Set(["ARTICLE", "ASIDE", "BLOCKQUOTE", "DIV", "FOOTER", "H1", "H2", "H3", "H4",
    "H5", "H6", "HEADER", "MAIN", "NAV", "P", "SECTION", "SPAN"]);
  // (SVG elements keep their tag's case: an SVG <style> is "style".)
  const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE", "BASE", "style",
    "script"]);
  // Nodes one walk reads, in document order (the host's MAX_PAGE_NODES, snapshot/frames.py).
  const MAX_NODES = opts.maxNodes || 200000;
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
      key = bx.next++;
      keys.set(node, key);
      refs.set(key, new WeakRef(node));
    }
    return key;
  }

  let optedOut = 0;
  const noAiBoxes = /** @type {number[]} */ ([]); // x, y, w, h (this frame's viewport) of each: screenshots blank them

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

  // Hover-revealed content (hoverSelectorOf): the selectors of the page's :hover rules that make
  // something opaque again, per tree scope, kept until its stylesheets change.
  const hoverMemo = bx.hover || (bx.hover = new WeakMap());
  const hoverNow = new Map(); // this walk's answers: the sheets are looked at once per scope
  /** @param {Document | ShadowRoot} scope */
  function hoverSelector(scope) {
    let v = hoverNow.get(scope);
    if (v === undefined) { v = hoverSelectorOf(scope, hoverMemo); hoverNow.set(scope, v); }
    return v;
  }

  const deepActive = (() => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  })();

  // Where generated content is read (the pass after the walk): what names are made of.
  const NAME_TAGS = new Set(["a", "button", "label", "summary", "option", "legend"]);
  const NAME_ROLES = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
    "radio", "checkbox", "switch", "treeitem"]);
  // Whether an element holds fixed descendants (holdsFixed), per element: one read each walk.
  const cbMemo = new Map();

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
        blankOut(node, ox, oy, closedRoots, noAiBoxes);
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
        s = formState(node, tag, s, withValues, secretFields, keyOf);
        // A password (or one that was: "show password") with a value is blanked in screenshots.
        if (s && s.hasValue) blankOut(node, ox, oy, closedRoots, noAiBoxes);
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
        if (holdsFixed(eNode[aj], eCs[aj], cbMemo)) { fl[i] |= 4096; break; }
      }
    }
  }
  // Occlusion (page/collector_hits.js): which of the elements a person might act on are covered,
  // and by what, in `hits` by key (bit 131072: tested).
  const hits = /** @type {Record<number, BxCover>} */ ({}), hitStarted = performance.now();
  let hitTested = 0, reused = 0;
  if (opts.hitTest) {
    [hitTested, reused] = hitTest(bx, root, view0, opts, n, { k, p, t, fl, at, st, bx4, eNode, eIdx, eBox, eCs, eX, eY }, hits);
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
