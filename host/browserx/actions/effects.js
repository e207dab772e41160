// @ts-check
// browserx visual effects: a cursor, click ripples and highlights so the user can see what the
// agent does. Run by the host in browserx's isolated world of the tab's top document (no content
// script on any site): the member is called with msg (`this`: the element acted on, when called on
// one); effect(msg, el) draws, with {kind, x, y, width, height, box, click,
// durationMs} (el: the element acted on, for kind "element"); the drawing state lives in that
// world's globalThis.__bxEffects ({doc, run, host}: host() is the overlay element, which the
// DOM change counters leave out). Everything is drawn into one overlay host with a closed shadow
// root, pointer-events: none throughout (no hit test, the page's or browserx's, ever lands on
// it); the page is never touched otherwise. Styles go through element.style and animations
// through element.animate(), both allowed under a strict CSP, unlike injected <style> text.
/** @type {BxSnippets["actions/effects.js"]} */
export default function (msg) {
  effect(msg, this && this.nodeType === 1 ? this : null);  // an element of any frame's realm
}

/** @param {BxEffectMessage} msg @param {Element | null | undefined} el */
export function effect(msg, el) {
  let fx = globalThis.__bxEffects;
  if (!fx || fx.doc !== document) {
    const made = makeEffects();
    fx = globalThis.__bxEffects = { doc: document, run: made.run, host: made.host };
  }
  try {
    fx.run(msg, el);
  } catch (e) {
    // Effects are cosmetic; a failure must never surface in the page.
  }
}

function makeEffects() {
  const ACCENT = "#0969da";
  const TINT = "rgba(9, 105, 218, 0.18)";
  const OUTLINE = "rgba(9, 105, 218, 0.55)"; // lighter than the cursor: the two are told apart
  const MAX_DURATION_MS = 60_000;
  const CURSOR_MS = 1500; // the cursor stays this long after its last move
  const GLIDE_MS = 200; // how long it takes to move to the next target
  const OUTLINE_MS = 900;
  const SVG_NS = "http://www.w3.org/2000/svg";

  /** @type {HTMLElement | null} */
  let host = null; // overlay element in the page
  /** @type {ShadowRoot | null} */
  let root = null; // its closed shadow root
  /** @type {SVGSVGElement | null} */
  let cursor = null;
  /** @type {number | undefined} */
  let cursorTimer;
  /** @type {number[] | null} */
  let last = null; // where the cursor was last shown: the next one glides from there

  /** @param {ElementCSSInlineStyle} el @param {Record<string, string>} styles */
  function setStyles(el, styles, priority = "") {
    for (const [name, value] of Object.entries(styles)) el.style.setProperty(name, value, priority);
  }

  function overlay() {
    if (!host) {
      // A custom tag matches far fewer page selectors than a div would.
      host = document.createElement("browserx-overlay");
      host.setAttribute("data-browserx-overlay", "");
      host.setAttribute("aria-hidden", "true");
      // Inline !important wins over page stylesheets, so the page can't hide or
      // move the host. Zero size plus visible overflow: it covers nothing, and
      // pointer-events: none (inherited by all it holds) keeps it out of every hit test.
      setStyles(
        host,
        {
          all: "initial",
          display: "block",
          position: "fixed",
          top: "0",
          left: "0",
          width: "0",
          height: "0",
          overflow: "visible",
          "pointer-events": "none",
          "user-select": "none",
          "z-index": "2147483647",
        },
        "important",
      );
      root = host.attachShadow({ mode: "closed" });
    }
    // Pages that rewrite <html> may drop the host; put it back when needed.
    if (!host.isConnected) document.documentElement.append(host);
    return /** @type {ShadowRoot} */ (root);
  }

  /** @param {Record<string, string>} styles */
  function box(styles) {
    const el = document.createElement("div");
    setStyles(el, { position: "absolute", "box-sizing": "border-box", "pointer-events": "none", ...styles });
    return el;
  }

  /** @param {Element} el @param {number} ms */
  function removeAfter(el, ms) {
    // A timer rather than the animation's finish event: animations may be
    // paused in background tabs, timers still fire.
    setTimeout(() => el.remove(), ms + 50);
  }

  /** @param {number} x @param {number} y */
  function showCursor(x, y, durationMs = CURSOR_MS) {
    // Arrow tip sits at (1, 1) in the SVG, hence the -1 offset.
    const at = (/** @type {number} */ px, /** @type {number} */ py) => `translate(${px - 1}px, ${py - 1}px)`;
    if (!cursor) {
      cursor = document.createElementNS(SVG_NS, "svg");
      cursor.setAttribute("width", "20");
      cursor.setAttribute("height", "22");
      cursor.setAttribute("viewBox", "0 0 20 22");
      const arrow = document.createElementNS(SVG_NS, "path");
      arrow.setAttribute("d", "M1 1 L1 17 L5.5 13 L8.5 20 L11.5 18.8 L8.6 12 L14.5 12 Z");
      arrow.setAttribute("fill", ACCENT);
      arrow.setAttribute("stroke", "white");
      arrow.setAttribute("stroke-width", "1.5");
      arrow.setAttribute("stroke-linejoin", "round");
      cursor.append(arrow);
      // It starts where the last one was (or right at the target), before the transition
      // is set, so it glides from there and never in from (0, 0).
      setStyles(cursor, {
        position: "absolute",
        left: "0",
        top: "0",
        overflow: "visible",
        "pointer-events": "none",
        transform: last ? at(last[0], last[1]) : at(x, y),
        filter: "drop-shadow(0 1px 2px rgba(0, 0, 0, 0.4))",
      });
      overlay().append(cursor);
      cursor.getBoundingClientRect(); // commit the start position
      cursor.style.setProperty("transition", `transform ${GLIDE_MS}ms ease-out`);
    } else {
      overlay().append(cursor);
    }
    cursor.style.setProperty("transform", at(x, y));
    last = [x, y];
    clearTimeout(cursorTimer);
    cursorTimer = setTimeout(hideCursor, durationMs);
  }

  function hideCursor() {
    clearTimeout(cursorTimer);
    cursor?.remove();
    cursor = null;
  }

  /** @param {number} x @param {number} y */
  function ripple(x, y, durationMs = 400) {
    const size = 36;
    const el = box({
      left: `${x - size / 2}px`,
      top: `${y - size / 2}px`,
      width: `${size}px`,
      height: `${size}px`,
      "border-radius": "50%",
      border: `2px solid ${ACCENT}`,
      background: TINT,
      opacity: "0",
    });
    overlay().append(el);
    el.animate(
      [
        { transform: "scale(0.2)", opacity: 0.9 },
        { transform: "scale(1.6)", opacity: 0 },
      ],
      { duration: durationMs, easing: "ease-out" },
    );
    removeAfter(el, durationMs);
  }

  /** @param {number} x @param {number} y @param {number} width @param {number} height */
  function highlight(x, y, width, height, durationMs = OUTLINE_MS) {
    const el = box({
      left: `${x - 2}px`,
      top: `${y - 2}px`,
      width: `${Math.max(0, width) + 4}px`,
      height: `${Math.max(0, height) + 4}px`,
      border: `2px solid ${OUTLINE}`,
      "border-radius": "3px",
      background: TINT,
      opacity: "0",
    });
    overlay().append(el);
    el.animate(
      [{ opacity: 0 }, { opacity: 1, offset: 0.1 }, { opacity: 1, offset: 0.75 }, { opacity: 0 }],
      { duration: durationMs },
    );
    removeAfter(el, durationMs);
  }

  // The element's border box in the top-level viewport (through the same-origin frames it is
  // in: they share this world) and the part of it the person sees, or null when none shows.
  /** @param {Element | null | undefined} el */
  function where(el) {
    if (!el || el.nodeType !== 1 || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    let [x0, y0, x1, y1] = [r.left, r.top, r.right, r.bottom];
    let [v0, v1, v2, v3] = [x0, y0, x1, y1]; // the visible part
    let win = el.ownerDocument.defaultView;
    for (let hops = 0; win && hops < 16; hops++) {
      v0 = Math.max(v0, 0);
      v1 = Math.max(v1, 0);
      v2 = Math.min(v2, win.innerWidth);
      v3 = Math.min(v3, win.innerHeight);
      const owner = win === window ? null : win.frameElement;
      if (!owner) break;
      const fr = owner.getBoundingClientRect();
      const cs = getComputedStyle(owner);
      const dx = fr.left + owner.clientLeft + (parseFloat(cs.paddingLeft) || 0);
      const dy = fr.top + owner.clientTop + (parseFloat(cs.paddingTop) || 0);
      [x0, x1, v0, v2] = [x0 + dx, x1 + dx, v0 + dx, v2 + dx];
      [y0, y1, v1, v3] = [y0 + dy, y1 + dy, v1 + dy, v3 + dy];
      win = owner.ownerDocument.defaultView;
    }
    if (v2 - v0 < 1 || v3 - v1 < 1) return null;
    return { x: (v0 + v2) / 2, y: (v1 + v3) / 2, box: [x0, y0, x1 - x0, y1 - y0] };
  }

  // The cursor glides to (x, y); the target's box is outlined; a click adds a ripple.
  /** @param {number} x @param {number} y @param {number[] | undefined} rect @param {boolean} click */
  function point(x, y, rect, click) {
    showCursor(x, y);
    if (Array.isArray(rect) && rect.length === 4 && rect.every(Number.isFinite)) {
      highlight(rect[0], rect[1], rect[2], rect[3]);
    }
    if (click) ripple(x, y);
  }

  // Before a screenshot: nothing of browserx is in the picture. The host stays (taking it out
  // would be a DOM change the page sees); all it holds goes.
  function hide() {
    hideCursor();
    root?.replaceChildren();
  }

  function clear() {
    hide();
    last = null;
    host?.remove();
  }

  const num = (/** @type {unknown} */ v) => (Number.isFinite(v) ? /** @type {number} */ (v) : null);

  /** @param {BxEffectMessage} msg @param {Element | null} [el] */
  function run(msg, el) {
    const x = num(msg.x);
    const y = num(msg.y);
    const d = num(msg.durationMs);
    const duration = d !== null && d > 0 ? Math.min(d, MAX_DURATION_MS) : undefined;
    const hasPoint = x !== null && y !== null;
    switch (msg.kind) {
      case "cursor":
        if (hasPoint) showCursor(x, y, duration);
        break;
      case "ripple":
        if (hasPoint) ripple(x, y, duration);
        break;
      case "highlight": {
        const w = num(msg.width);
        const h = num(msg.height);
        if (hasPoint && w !== null && h !== null) highlight(x, y, w, h, duration);
        break;
      }
      case "point":
        if (hasPoint) point(x, y, msg.box, msg.click === true);
        break;
      case "element": {
        const at = where(el);
        if (at) point(at.x, at.y, at.box, false);
        break;
      }
      case "hide":
        hide();
        break;
      case "clear":
        clear();
        break;
    }
  }

  return { run, host: () => host };
}
