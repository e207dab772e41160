// browserx visual effects: a cursor, click ripples and highlights so the user can see what the
// agent does. Run by the host in browserx's isolated world of the tab's top document (no content
// script on any site): called as effect(msg) with {kind, x, y, width, height, durationMs}; the
// drawing state lives in that world's globalThis.__bxEffects. Everything is drawn into one
// overlay host with a closed shadow root; the page is never touched otherwise. Styles go
// through element.style and animations through element.animate(), both allowed under a strict
// CSP, unlike injected <style> text.
function effect(msg) {
  let fx = globalThis.__bxEffects;
  if (!fx || fx.doc !== document) {
    fx = globalThis.__bxEffects = { doc: document, run: makeEffects() };
  }
  try {
    fx.run(msg);
  } catch (e) {
    // Effects are cosmetic; a failure must never surface in the page.
  }
}

function makeEffects() {
  const ACCENT = "#0969da";
  const TINT = "rgba(9, 105, 218, 0.18)";
  const MAX_DURATION_MS = 60_000;
  const SVG_NS = "http://www.w3.org/2000/svg";

  let host = null; // overlay element in the page
  let root = null; // its closed shadow root
  let cursor = null;
  let cursorTimer = null;

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
      // move the host. Zero size plus visible overflow: it covers nothing.
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
          "z-index": "2147483647",
        },
        "important",
      );
      root = host.attachShadow({ mode: "closed" });
    }
    // Pages that rewrite <html> may drop the host; put it back when needed.
    if (!host.isConnected) document.documentElement.append(host);
    return root;
  }

  function box(styles) {
    const el = document.createElement("div");
    setStyles(el, { position: "absolute", "box-sizing": "border-box", ...styles });
    return el;
  }

  function removeAfter(el, ms) {
    // A timer rather than the animation's finish event: animations may be
    // paused in background tabs, timers still fire.
    setTimeout(() => el.remove(), ms + 50);
  }

  function showCursor(x, y, durationMs) {
    // Arrow tip sits at (1, 1) in the SVG, hence the -1 offset.
    const transform = `translate(${x - 1}px, ${y - 1}px)`;
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
      // Placed before the transition is set, so it doesn't glide in from (0, 0).
      setStyles(cursor, {
        position: "absolute",
        left: "0",
        top: "0",
        overflow: "visible",
        transform,
        filter: "drop-shadow(0 1px 2px rgba(0, 0, 0, 0.4))",
      });
      overlay().append(cursor);
      cursor.getBoundingClientRect(); // commit the start position
      cursor.style.setProperty("transition", "transform 150ms ease-out");
    } else {
      overlay().append(cursor);
      cursor.style.setProperty("transform", transform);
    }
    clearTimeout(cursorTimer);
    if (durationMs) cursorTimer = setTimeout(hideCursor, durationMs);
  }

  function hideCursor() {
    cursor?.remove();
    cursor = null;
  }

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

  function highlight(x, y, width, height, durationMs = 1000) {
    const el = box({
      left: `${x}px`,
      top: `${y}px`,
      width: `${Math.max(0, width)}px`,
      height: `${Math.max(0, height)}px`,
      border: `2px solid ${ACCENT}`,
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

  function clear() {
    clearTimeout(cursorTimer);
    cursor = null;
    root?.replaceChildren();
    host?.remove();
  }

  const num = (v) => (Number.isFinite(v) ? v : null);

  function run(msg) {
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
      case "clear":
        clear();
        break;
    }
  }

  return run;
}
