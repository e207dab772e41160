// The type of every module of browserx's page library (host/browserx/**/*.js, the extension aside:
// tools/js/build.mjs bundles them, browserx/page_js.py calls a module's default export by its path):
// its `this`, its arguments and what it answers, keyed by the module's path under host/browserx.
// Each module declares its default export as BxSnippets[its path], so `make lint`'s tsc holds the
// module to it, and a module not listed here fails the check.


/**
 * A node a snippet reads by duck typing: it tells the kind (nodeType, localName, `in`) before it
 * reads a kind's members (`host`, `contentDocument`, `value`, `labels`...), which no one DOM type
 * spells. Where a snippet's `this` or argument is one, its members go unchecked.
 */
type BxDuck = any;

/** A box's sides in a viewport, as a DOMRect has them (actions/scroll.js). */
interface BxBox { left: number; top: number; right: number; bottom: number }

/** actions/effects.js: what to draw (kind) and where. */
interface BxEffectMessage {
  kind: string; x?: number; y?: number; width?: number; height?: number; box?: number[]; click?: boolean; durationMs?: number;
}

/** page/collector.js: a node's live state, as the host reads it (form state, scroll, focus, frame origin...). */
type BxState = Record<string, unknown>;

/** The collector's options (page/collector.py). */
interface BxCollectOptions {
  freshBase?: number;
  values?: boolean;
  hitTest?: boolean;
  listening?: number[];
  origin?: [number, number];
  /** Nodes one walk reads before it stops (snapshot/frames.py MAX_PAGE_NODES). */
  maxNodes?: number;
}

/** What a hit test found instead of the element: "tag#id.class" and its text. */
interface BxHitDesc { desc: string; text: string; outside?: boolean; pinned?: boolean }

/** A link a click would follow. */
/** A page an action would open: a link's address, or a form's (``form``: a submission). */
interface BxLink { href: string; download: boolean; page: string; form?: boolean }

/** keyboard_probe.js: what kind of text target an element is. */
interface BxProbe {
  kind: string | null;
  tag: string;
  type: string;
  attrs: object;
  wasPassword: boolean;
  disabled: boolean;
  readonly: boolean;
  value: string | null;
  focused: boolean;
  go?: boolean;  // keyboard_probe_focus.js: it took the focus, so the text held behind may go in
}

/** forms_select.js: a native <select>'s choice. */
interface BxSelected {
  native: boolean;
  error?: "disabled" | "missing" | "option_disabled";
  options?: string[];
  label?: string;
  value?: string;
  changed?: boolean;
  attrs?: Record<string, string>;
  settled?: number;
  counted?: BxCounted;
}

/** [DOM changes counted, URL] (page_changes_*.js; -1: no counter, a new document). */
type BxCounted = [number, string];

/** pointer_verdict.js: what the interceptor stopped, and how many events reached the target. */
interface BxVerdict { bad: BxGuard["bad"]; seen: number }

/** pointer_visible_area.js. */
interface BxArea { rect: BxRect; inner: boolean; whole: boolean }

/** page_watch_settle.js: the watcher's report. */
interface BxSettled {
  waited: number;
  stable: boolean;
  now: number;
  events: BxPageEvent[];
  mutations: number;
  ticking?: true;
}

/** page/no_ai.js: whether a node is inside what opted out of AI agents (data-no-ai). */
type BxNoAi = (node: BxDuck) => boolean;

/** screenshot_page_metrics.js: innerWidth, innerHeight, scrollX, scrollY, scrollWidth, scrollHeight. */
type BxPageMetrics = [number, number, number, number, number, number];

/** page_changes_settle.js: the page's reaction waited for; answers the ms waited. */
type BxSettleChanges = (quick: boolean) => Promise<number>;

interface BxSnippets {
  "actions/at_point_hit.js": (this: unknown, x: number, y: number) =>
    {view: number[], optedOut?: true, frameOwner?: number, local?: number[],
     keys?: number[], desc?: string, text?: string, link?: BxLink | null};
  "actions/at_point_key_for.js": (this: Element) => number;
  "actions/drag_arm.js": (this: Element) => true;
  "actions/drag_place.js": (this: BxDuck) =>
    {connected: boolean, parent: number, parentDesc: string, index: number, x: number, y: number};
  "actions/drag_started.js": (this: Element) => boolean;
  "actions/upload_files.js": (this: BxDuck) => {name: string, size: number}[];
  "actions/upload_probe.js": (this: BxDuck) =>
    {file: boolean, multiple: boolean, disabled: boolean, submits: boolean};
  "actions/effects.js": (this: BxDuck, msg: BxEffectMessage) => void;
  "actions/focus_guard.js": (this: unknown, blur: boolean) =>
    {optedOut: boolean, nowhere?: boolean} | {frameOwner: number} | {closedHost: true};
  "actions/forms_select.js": (this: BxDuck, want: string) => BxSelected | {native: boolean, error: string, options?: string[]};
  "actions/forms_select_counted.js": (this: BxDuck, want: string) => ReturnType<BxSnippets["actions/forms_select.js"]>;
  "actions/forms_state.js": (this: BxDuck) =>
    {checked: boolean, radio: boolean, disabled: boolean, keyboard?: boolean} | null;
  "actions/keyboard_after.js": (this: BxDuck, types: string[]) =>
    Promise<{probe: BxProbe, settled: number, counted: BxCounted}>;
  "actions/keyboard_blur.js": (this: BxDuck) => boolean;
  "actions/keyboard_focus.js": (this: BxDuck) => boolean;
  "actions/keyboard_pick.js": (this: BxDuck, text: string) => {ok: boolean, value: string};
  "actions/keyboard_probe.js": (this: BxDuck, types: string[]) => BxProbe;
  "actions/keyboard_probe_focus.js": (this: BxDuck, types: string[]) => BxProbe;
  "actions/keyboard_typed.js": (this: BxDuck, types: string[], before?: string | null) =>
    Promise<{probe: BxProbe, settled: number, counted: BxCounted}>;
  "actions/keyboard_select_all.js": (this: BxDuck) => true;
  "actions/links_at_point.js": (this: BxDuck, x: number, y: number) => BxLink | null;
  "actions/links_focused.js": () => BxLink | null;
  "actions/navigation_ready.js": () => DocumentReadyState;
  "actions/navigation_wait.js": (want: string | null, gone: string | null) => [boolean, boolean];
  "actions/page_changes_peek.js": () => BxCounted;
  "actions/page_changes_read.js": () => BxCounted;
  "actions/page_changes_settle.js": BxSettleChanges;
  "actions/page_changes_start.js": () => string;
  "actions/pointer_after.js": (this: BxDuck, settle?: boolean) =>
    BxVerdict | {bad: null, seen: number, settled: number, counted: BxCounted}
    | Promise<{bad: null, seen: number, settled: number, counted: BxCounted}>;
  "actions/pointer_aim.js": (this: BxDuck) =>
    {area: BxArea, scroll: true} | {area: BxArea, point: number[], link: BxLink | null, cover: BxHitDesc | null} | null;
  "actions/pointer_clear.js": (this: Element) => boolean;
  "actions/pointer_frames.js": (this: unknown) => Promise<void> | undefined;
  "actions/pointer_guard.js": (this: BxDuck, x: number, y: number) => BxHitDesc | null;
  "actions/pointer_hit.js": (this: BxDuck, x: number, y: number) => BxHitDesc | null;
  "actions/pointer_verdict.js": (this: Element) => BxVerdict;
  "actions/pointer_visible_area.js": (this: BxDuck) => BxArea | null;
  "actions/resolve.js": (this: unknown, key: number) => Node | "no-ai" | null;
  "actions/scroll.js": (this: BxDuck, direction: string, amount: number, measureOnly: boolean, pageFraction: number) =>
    {label: string, before: number[], after: number[], remaining: Record<string, number>};
  "actions/scroll_page_pos.js": () => [number, number];
  "actions/scroll_rect.js": (this: Element) => [number, number];
  "actions/verify_drain_events.js": () => {now: number, events: BxPageEvent[]};
  "actions/verify_target_state.js": (this: BxDuck) =>
    {value: string | null, state: object, password: boolean};
  "control/person/sensitive_facts.js": (this: BxDuck, enter: boolean, x?: number, y?: number) =>
    {submits: boolean, maySubmit?: boolean, host: string, fields: {attrs: object, inputType: string, wasPassword: boolean,
     label: string}[], name: string, activates: boolean, opaque?: boolean};
  "pixels/screenshot_content_box.js": (this: Element) => [number[], boolean, boolean];
  "pixels/screenshot_hide_effects.js": () => BxPageMetrics;
  "pixels/screenshot_page_metrics.js": () => BxPageMetrics;
  "page/closed_roots.js": (this: Element, opts: BxCollectOptions, ...hostsThenRoots: BxDuck[]) => string;
  "page/collector.js": (root: BxDuck, opts?: BxCollectOptions) => string;
  "page/css_filter_match.js": (this: unknown, selector: string, rootKeys: number[]) => string;
  "page/framework_probe.js": (max: number, answerDocument?: boolean) => number | Document;
  "page/key_of_this.js": (this: Element) => number;
  "page/keys_of_args.js": (this: unknown, ...els: (Node | null)[]) => number[];
  "page/main_document.js": () => Document;
  "page/mark_plain.js": (this: Element[], closed: number[]) => void;
  "page/no_ai.js": BxNoAi;
  "page/no_ai_document.js": () => boolean;
  "page/no_ai_input.js": BxNoAi;
  "page/occlusion_hit_test.js": (this: unknown, keys: number[]) => string;
  "page/opt_out.js": () => boolean;
  "page/page_watch.js": () => BxWatch;
  "page/page_watch_early.js": () => void;
  "page/page_watch_settle.js": (quiet: number, timeout: number, network?: boolean) => Promise<BxSettled>;
  "page/unnamed_hints.js": (this: unknown, keys: number[]) => string;
  "page/registry_part.js": (part: "suspects" | "internals") => Element[] | undefined;
  "page/settle_and_collect.js": (opts: BxCollectOptions, quiet?: number | null, timeout?: number,
    network?: boolean) => string | Promise<string>;
}
