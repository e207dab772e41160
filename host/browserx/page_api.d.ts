// The globals browserx's page snippets share (docs/PAGE_API.md is their description; this is their
// type, checked by `make lint`: tools/js/check.mjs). Add a member here when you add it there.

/** A rectangle in a frame's viewport: [left, top, right, bottom]. */
type BxRect = [number, number, number, number];

/** What covers an element at every point tested: [its collector key or 0, "tag#id.class"]. */
type BxCover = [number, string];

/** What visibleRect learns of an ancestor (a memo shared by a batch of calls): its style, whether it clips, its box. */
interface BxRectFacts { cs: CSSStyleDeclaration; pos: string; open: boolean; holds: boolean | undefined; rect: DOMRect | null }

/** globalThis.__browserx: the collector's registry, one per document (page/collector.js). */
interface BxRegistry {
  doc: Document;
  layout: number;
  base: number;
  next: number;
  keys: WeakMap<Node, number>;
  refs: Map<number, WeakRef<Node>>;
  keyOf(node: BxDuck): number;
  /** An Element, or the ShadowRoot or Document a closed root's key names (BxDuck). */
  nodeOf(key: number): BxDuck | null;
  keyFor(node: BxDuck): number;
  closed: WeakMap<Element, ShadowRoot>;
  ours(node: BxDuck): boolean;
  optedOut(node: BxDuck): boolean;
  inside(outer: Node, node: BxDuck): boolean;
  visibleRect(el: BxDuck, memo?: Map<Element, BxRectFacts>): BxRect | null;
  cover(el: BxDuck, rect?: number[] | null, memo?: Map<Element, BxRectFacts>): BxCover | null;
  hover?: WeakMap<Document | ShadowRoot, any>;
  uncovered?: WeakMap<Document | ShadowRoot, {sig: any, map: WeakMap<Element, any[]>}>;
  plain?: WeakSet<Element>;
  internals?: Element[];
  suspects?: Element[];
}

/** A page event the watcher saw: text appearing in or leaving an alert, live region or toast. */
interface BxPageEvent { [field: string]: unknown }

/** globalThis.__bxWatch: the page watcher (page/page_watch.js). */
interface BxWatch {
  last: number;
  lastNew?: number;
  busySince?: number;
  events: BxPageEvent[];
  mutations: number;
  seen: WeakMap<Element, unknown>;
  runs?: WeakMap<Node, number[]>;
  kinds?: Map<string, number[]>;
}

/** globalThis.__bxmo: the action's change counter (actions/page_changes_start.js). */
interface BxChangeCounter {
  n: number;
  last: number;
  t0?: number;
  o: MutationObserver;
}

/** globalThis.__bxEffects: the visual effects' state (actions/effects.js). */
interface BxEffects {
  doc: Document;
  run(msg: object, el?: Element | null): void;
  host(): Element | null;
}

/** window.__bxGuard: the click interceptor armed on the target's window (actions/pointer_guard.js). */
interface BxGuard {
  seen: number;
  bad: {desc: string, text: string} | null;
  pressed: boolean;
  off: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

declare var __browserx: BxRegistry | undefined;
declare var __bxWatch: BxWatch | undefined;
declare var __bxmo: BxChangeCounter | null | undefined;
declare var __browserxSecret: WeakSet<Element> | undefined;
/** type: the value each field held when focused for typing (keyboard_probe_focus.js). */
declare var __browserxBefore: WeakMap<Element, string | null> | undefined;
declare var __bxEffects: BxEffects | undefined;

interface Window {
  __bxGuard?: BxGuard | null;
  /** drag_arm.js: the page's dragstart, once seen, until drag_started.js reads it. */
  __bxDrag?: {event: Event | null, off: () => void};
}

interface Document {
  /** The framework probe is installed (main world: page/framework_probe.js). */
  readonly __bxProbe?: true;
}
