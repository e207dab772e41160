// Unit tests of page/collector.js's pure parts (`node --test tools/js/test`, run by `make
// lint`): its text, attribute, style-flag, rect and signature helpers, imported from the modules
// the collector imports them from (page/collector_node.js, collector_style.js, collector_hits.js),
// called with plain values. scanAttrs's flags are the module's own variables: an import reads
// them as they stand (a live binding), as the walk does.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  MAX_TEXT, ariaHidden, describedby, formState, generated, inert, labelledby, noAi, scanAttrs, textFor, textOf,
} from "../../../host/browserx/page/collector_node.js";
import { holdsFixed, layoutFlags, pathAway, rectAway, scrollState } from "../../../host/browserx/page/collector_style.js";
import { coverSig, inViewport } from "../../../host/browserx/page/collector_hits.js";

/** A text node: its data and whether it has siblings. */
const text = (data, prev = null, next = null) => ({ data, previousSibling: prev, nextSibling: next });

test("textFor: empty text and whitespace only", () => {
  assert.equal(textFor(text(""), true), null);
  // white space between two inline siblings of a spaced element is a word break
  assert.equal(textFor(text(" \n\t ", {}, {}), true), " ");
  assert.equal(textFor(text("   ", {}, null), true), null); // last child: layout noise
  assert.equal(textFor(text("   ", null, {}), true), null); // first child
  assert.equal(textFor(text("   ", {}, {}), false), null); // not a spaced element
});

test("textFor: whitespace runs collapse to one space, one kept at either end", () => {
  assert.equal(textFor(text("Buy"), false), "Buy");
  assert.equal(textFor(text("a  b\n\n c"), false), "a b c");
  assert.equal(textFor(text("\n  200 \t"), false), " 200 ");
  assert.equal(textFor(text("a\tb"), false), "a b"); // a tab alone is odd space too
  assert.equal(textFor(text("a\u00a0b"), false), "a b"); // so is a no-break space
  assert.equal(textFor(text(" a b "), false), " a b "); // single spaces: left as they are
});

test("textFor: long text is cut at MAX_TEXT before collapsing", () => {
  assert.equal(MAX_TEXT, 400);
  assert.equal(textFor(text("x".repeat(1000)), false), "x".repeat(400));
  assert.equal(textFor(text("x".repeat(399) + "   y"), false), "x".repeat(399) + " ");
});

/** A tree scope holding elements by id: {id: [text, inside data-no-ai]}. */
function scope(byId) {
  return {
    getElementById: (id) => (Object.hasOwn(byId, id)
      ? { textContent: byId[id][0], closest: (sel) => (sel === "[data-no-ai]" && byId[id][1] ? {} : null) }
      : null),
  };
}

test("textOf: the referenced elements' texts joined, collapsed and trimmed", () => {
  const s = scope({ a: ["  First\n name ", false], b: ["Last", false], secret: ["PIN 1234", true] });
  assert.equal(textOf("a b", s), "First name Last");
  assert.equal(textOf("  b   a  ", s), "Last First name"); // the ids' order, extra spaces between them
  assert.equal(textOf("missing b", s), "Last");
  assert.equal(textOf("a secret b", s), "First name Last"); // text inside data-no-ai is not read
  assert.equal(textOf("", s), "");
  assert.equal(textOf("secret", s), "");
  assert.equal(textOf("a", {}), ""); // a scope that looks nothing up
  assert.equal(textOf("long", scope({ long: ["y".repeat(900), false] })), "y".repeat(400));
});

test("rectAway: clip rects that leave at most a pixel", () => {
  assert.equal(rectAway("rect(0px, 0px, 0px, 0px)"), true);
  assert.equal(rectAway("rect(0 0 0 0)"), true);
  assert.equal(rectAway("rect(1px, 1px, 1px, 1px)"), true);
  assert.equal(rectAway("rect(10px, 11px, 100px, 10px)"), true); // one pixel wide
  assert.equal(rectAway("rect(0px, 2px, 2px, 0px)"), false);
  assert.equal(rectAway("rect(0px, 100px, 50px, 0px)"), false);
  assert.equal(rectAway("rect(auto, auto, auto, auto)"), false); // auto edges do not clip
  assert.equal(rectAway("rect(0px, auto, 0px, auto)"), true); // but the other axis may
  assert.equal(rectAway("rect(0px, 0px, 0px)"), false); // not four edges
  assert.equal(rectAway("auto"), false);
});

test("pathAway: clip paths that leave nothing", () => {
  assert.equal(pathAway("inset(50%)"), true);
  assert.equal(pathAway("inset(50% 0%)"), true); // top + bottom
  assert.equal(pathAway("inset(0% 60% 0% 40%)"), true); // left + right
  assert.equal(pathAway("inset(25%)"), false);
  assert.equal(pathAway("inset(49% 0% 50%)"), false);
  assert.equal(pathAway("inset(100px)"), false); // lengths: not known here
  assert.equal(pathAway("inset(50% round 4px)"), true);
  assert.equal(pathAway("circle(0)"), true);
  assert.equal(pathAway("circle(0px at 50% 50%)"), true);
  assert.equal(pathAway("circle(0%)"), true);
  assert.equal(pathAway("circle(0.5px)"), false);
  assert.equal(pathAway("circle(10px)"), false);
  assert.equal(pathAway("polygon(0px 0px, 0px 0px, 0px 0px)"), true);
  assert.equal(pathAway("polygon(0px 0px, 10px 0px, 0px 10px)"), false);
  assert.equal(pathAway("url(#mask)"), false);
});

const STYLE = { visibility: "visible", cursor: "auto", pointerEvents: "auto", overflow: "visible", position: "static",
  clip: "auto", clipPath: "none" };
const flags = (over) => layoutFlags({ ...STYLE, ...over });

test("layoutFlags: one bit per fact", () => {
  assert.equal(flags({}), 0);
  assert.equal(flags({ visibility: "hidden" }), 1);
  assert.equal(flags({ cursor: "pointer" }), 2);
  assert.equal(flags({ cursor: "not-allowed" }), 524288);
  assert.equal(flags({ pointerEvents: "none" }), 4);
  assert.equal(flags({ overflow: "auto" }), 8 | 16);
  assert.equal(flags({ overflow: "scroll hidden" }), 8 | 32); // x scrolls, y clips
  assert.equal(flags({ overflow: "visible auto" }), 16);
  assert.equal(flags({ overflow: "clip" }), 32);
  assert.equal(flags({ position: "relative" }), 512);
  assert.equal(flags({ position: "absolute" }), 512 | 1024);
  assert.equal(flags({ position: "fixed" }), 512 | 2048 | 64);
  assert.equal(flags({ position: "sticky" }), 512 | 64);
});

test("layoutFlags: clip hides absolutely positioned boxes only; clip-path any box", () => {
  const gone = "rect(0px, 0px, 0px, 0px)";
  assert.equal(flags({ position: "absolute", clip: gone }), 512 | 1024 | 16384);
  assert.equal(flags({ position: "fixed", clip: gone }), 512 | 2048 | 64 | 16384);
  assert.equal(flags({ position: "relative", clip: gone }), 512);
  assert.equal(flags({ position: "static", clip: gone }), 0);
  assert.equal(flags({ position: "absolute", clip: "rect(0px, 50px, 50px, 0px)" }), 512 | 1024);
  assert.equal(flags({ clipPath: "inset(50%)" }), 16384);
  assert.equal(flags({ clipPath: "circle(40%)" }), 0);
});

const NONE = { transform: "none", perspective: "none", filter: "none", backdropFilter: "none", contain: "none",
  willChange: "auto" };

test("holdsFixed: the containing block of fixed descendants, remembered per element", () => {
  for (const [over, want] of [[{}, false], [{ transform: "matrix(1, 0, 0, 1, 0, 0)" }, true],
    [{ perspective: "100px" }, true], [{ filter: "blur(1px)" }, true], [{ backdropFilter: "blur(2px)" }, true],
    [{ contain: "paint" }, true], [{ contain: "strict" }, true], [{ contain: "size" }, false],
    [{ willChange: "transform" }, true], [{ willChange: "opacity" }, false]]) {
    assert.equal(holdsFixed({}, { ...NONE, ...over }, new Map()), want, JSON.stringify(over));
  }
  const el = {}, memo = new Map(); // one per walk
  assert.equal(holdsFixed(el, NONE, memo), false);
  assert.equal(holdsFixed(el, { ...NONE, transform: "scale(2)" }, memo), false); // the first answer holds
});

test("scrollState: a container with more than a pixel to scroll", () => {
  const box = (over) => ({ scrollLeft: 0, scrollTop: 0, scrollWidth: 100, scrollHeight: 100, clientWidth: 100,
    clientHeight: 100, ...over });
  assert.equal(scrollState(box({}), null), null);
  assert.equal(scrollState(box({ scrollHeight: 101 }), null), null); // rounding, not scrolling
  const kept = { focused: true };
  assert.equal(scrollState(box({ scrollWidth: 101 }), kept), kept);
  assert.deepEqual(scrollState(box({ scrollHeight: 300, scrollTop: 40 }), null), { scroll: [0, 40, 100, 300, 100, 100] });
  assert.deepEqual(scrollState(box({ scrollWidth: 102 }), { focused: true }),
    { focused: true, scroll: [0, 0, 102, 100, 100, 100] });
});

const box = (left, top, right, bottom) => ({ left, top, right, bottom });

test("inViewport: a box clipped by the viewport, null under a pixel", () => {
  assert.deepEqual(inViewport(box(10, 20, 110, 70), 800, 600), [10, 20, 110, 70]);
  assert.deepEqual(inViewport(box(-50, -10, 30, 40), 800, 600), [0, 0, 30, 40]);
  assert.deepEqual(inViewport(box(700, 500, 900, 700), 800, 600), [700, 500, 800, 600]);
  assert.deepEqual(inViewport(box(0, 0, 1, 1), 800, 600), [0, 0, 1, 1]); // one pixel: seen
  assert.equal(inViewport(box(0, 0, 0.5, 10), 800, 600), null);
  assert.equal(inViewport(box(10, 10, 10, 10), 800, 600), null); // empty
  assert.equal(inViewport(box(30, 10, 20, 40), 800, 600), null); // negative width
  assert.equal(inViewport(box(-100, 10, -20, 40), 800, 600), null); // left of the view
  assert.equal(inViewport(box(10, 600, 40, 650), 800, 600), null); // below it
  assert.equal(inViewport(box(0, 0, 100, 100), 0, 0), null); // no viewport
});

/** An element's attributes, in order, as [name, value]; getAttribute as an HTML element's. */
function element(attrs, tagName = "DIV") {
  return {
    tagName,
    hasAttributes: () => attrs.length > 0,
    getAttributeNames: () => attrs.map(([n]) => n),
    getAttribute: (name) => { const a = attrs.find(([n]) => n === name.toLowerCase()); return a ? a[1] : null; },
    attributes: attrs.map(([name, value]) => ({ name, value })),
  };
}

test("scanAttrs: the attributes sent, and none", () => {
  assert.equal(scanAttrs(element([])), null);
  assert.equal(scanAttrs(element([["class", "x"], ["style", "color: red"], ["data-foo", "1"]])), null);
  assert.deepEqual(scanAttrs(element([["id", "go"], ["data-foo", "1"], ["aria-label", "Go"], ["href", "/x"]])),
    { id: "go", "aria-label": "Go", href: "/x" });
  // handlers say only that they are there
  assert.deepEqual(scanAttrs(element([["onclick", "steal()"], ["onpointerdown", "x()"]])), { onclick: "1", onpointerdown: "1" });
  assert.deepEqual(scanAttrs(element([["title", "t".repeat(500)]])), { title: "t".repeat(200) });
  assert.deepEqual(scanAttrs(element([["title", ""]])), { title: "" });
});

test("scanAttrs: the flags the walk reads, reset per element", () => {
  scanAttrs(element([["aria-hidden", "true"], ["inert", ""], ["aria-labelledby", "a b"], ["aria-describedby", "c"]]));
  assert.deepEqual([ariaHidden, inert, labelledby, describedby, noAi], [true, true, "a b", "c", false]);
  scanAttrs(element([["aria-hidden", "false"]]));
  assert.deepEqual([ariaHidden, inert, labelledby, describedby], [false, false, null, null]);
  scanAttrs(element([]));
  assert.equal(ariaHidden, false);
});

test("scanAttrs: data-no-ai stops the reading", () => {
  assert.equal(scanAttrs(element([["aria-label", "Card 4242"], ["data-no-ai", ""], ["title", "secret"]])), null);
  assert.equal(noAi, true);
  scanAttrs(element([["id", "x"]]));
  assert.equal(noAi, false);
});

test("scanAttrs: names getAttribute cannot tell apart are read by position", () => {
  // A mixed-case aria-* name (setAttributeNS): getAttribute would look for its lowercase.
  assert.deepEqual(scanAttrs(element([["aria-Label", "Mixed"]])), { "aria-Label": "Mixed" });
  // One qualified name twice (two namespaces): the value sent is the last one's (as iterating
  // el.attributes gave it); the flags the walk reads take the first.
  const twice = element([["aria-hidden", "true"], ["aria-hidden", "false"]]);
  assert.deepEqual(scanAttrs(twice), { "aria-hidden": "false" });
  assert.equal(ariaHidden, true);
});

test("scanAttrs: class is sent for status regions only", () => {
  assert.equal(scanAttrs(element([["class", "toast"]])), null);
  assert.deepEqual(scanAttrs(element([["class", "cell"], ["role", "gridcell"]])), { role: "gridcell" });
  assert.deepEqual(scanAttrs(element([["class", "toast ok"], ["role", "status"]])), { class: "toast ok", role: "status" });
  assert.deepEqual(scanAttrs(element([["role", "alert dialog"], ["class", "c"]])), { role: "alert dialog", class: "c" });
  assert.deepEqual(scanAttrs(element([["role", "alertdialog"], ["class", "c"]])), { role: "alertdialog" });
  assert.deepEqual(scanAttrs(element([["class", "out"]], "OUTPUT")), { class: "out" });
  assert.deepEqual(scanAttrs(element([["class", "c".repeat(300)], ["role", "alert"]])), { class: "c".repeat(200), role: "alert" });
});

test("generated: the text of ::before and ::after content", (t) => {
  let content = "none";
  // the page's getComputedStyle, for the length of the test
  globalThis.getComputedStyle = (el, which) => ({ content: which === "::before" ? content : "" });
  t.after(() => { delete globalThis.getComputedStyle; });
  const cases = [
    ["none", ""], ['""', ""], ['"Next"', "Next"], ['"a" "b"', "ab"], ['"\\"q\\""', '"q"'],
    ['"★" / "Starred"', "Starred"], ['"x" / ""', ""], ['"a" / "b" "c"', "bc"], ["counter(item)", ""],
    ['url("icon.png")', ""], ['"' + "z".repeat(100) + '"', "z".repeat(80)],
  ];
  for (const [css, want] of cases) {
    content = css;
    assert.equal(generated({}, "::before"), want, css);
  }
  content = '"Next"';
  assert.equal(generated({}, "::after"), "");
});

test("formState: a field once a password stays secret after it shows its text", () => {
  const secretFields = new WeakSet();
  // what the walk hands in: opts.values, __browserxSecret, its keyOf
  const F = { formState: (el, tag, s) => formState(el, tag, s, true, secretFields, () => 0) };
  const input = { type: "password", value: "hunter2", list: null, matches: () => false, hasAttribute: () => false };
  assert.deepEqual(F.formState(input, "INPUT", null), { inputType: "password", hasValue: true });
  input.type = "text"; // a "show password" toggle
  assert.deepEqual(F.formState(input, "INPUT", null), { inputType: "text", wasPassword: true, hasValue: true });
  const other = { ...input, value: "hello" };
  assert.deepEqual(F.formState(other, "INPUT", null), { inputType: "text", value: "hello" });
  input.value = "";
  assert.deepEqual(F.formState(input, "INPUT", null), { inputType: "text", wasPassword: true });
});

test("coverSig: changes when what could cover moves, not otherwise", () => {
  // Two elements: 0 positioned (flags 512), 1 in the flow. Columns as the walk leaves them.
  const walk = () => ({ eIdx: [0, 1], eBox: [0, 4], k: [7, 8], fl: [512, 0], bx4: [10, 20, 100, 50, 0, 0, 30, 30],
    eCs: [{ zIndex: "auto" }, { zIndex: "auto" }] });
  const sig = (change = (w) => w, view = [800, 600, 0, 0]) => {
    const w = walk();
    change(w);
    return coverSig(view[0], view[1], view[2], view[3], 2, w);
  };
  const base = sig();
  assert.equal(typeof base, "number");
  assert.equal(base | 0, base); // an int32
  assert.equal(sig(), base);
  assert.notEqual(sig((w) => { w.bx4[0] = 11; }), base); // the positioned box moved a pixel
  assert.notEqual(sig((w) => { w.bx4[3] = 51; }), base); // or grew
  assert.notEqual(sig((w) => { w.eCs[0].zIndex = "0"; }), base); // stacks otherwise
  assert.notEqual(sig((w) => { w.eCs[0].zIndex = "-1"; }), sig((w) => { w.eCs[0].zIndex = "auto"; }));
  assert.notEqual(sig((w) => { w.fl[0] = 512 | 1024; }), base); // turned absolute
  assert.notEqual(sig((w) => { w.k[0] = 9; }), base); // another element
  assert.notEqual(sig(undefined, [800, 600, 0, 1]), base); // scrolled
  assert.notEqual(sig(undefined, [801, 600, 0, 0]), base); // resized
  assert.equal(sig((w) => { w.fl[0] = 512 | 131072; }), base); // the occlusion pass's own bit
  assert.equal(sig((w) => { w.bx4[4] = 500; }), base); // an element in the flow moved
  assert.equal(sig((w) => { w.eCs[1].zIndex = "5"; }), base);
  assert.notEqual(sig((w) => { w.fl[1] = 512; }), base); // it became positioned
  // a box off the view's scale still makes an int32 signature
  assert.equal(Number.isInteger(sig((w) => { w.bx4.fill(1e9); })), true);
});
