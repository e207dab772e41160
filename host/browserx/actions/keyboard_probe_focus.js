// @ts-check
// type (actions/keyboard.py), called on the element with the text input types, before typing: what
// kind of text target it is (keyboard_probe.js) and, when it is one that takes text,
// focused in the same call (focused: whether it, or for an editable region something inside it,
// has the focus now: keyboard_focus.js). go: it did, so text sent behind this call
// may go in (the extension holds that text until this says go), and the value it held is kept for
// the read-back (keyboard_typed.js).
import focus from "./keyboard_focus.js";
import probeOf from "./keyboard_probe.js";
/** @type {BxSnippets["actions/keyboard_probe_focus.js"]} */
export default function (types) {
  const probe = probeOf.call(this, types);
  if (probe.kind && !probe.disabled && !probe.readonly) {
    this.focus();
    probe.focused = focus.call(this);
    probe.go = probe.focused;
    const before = globalThis.__browserxBefore || (globalThis.__browserxBefore = new WeakMap());
    before.set(this, probe.value);
  }
  return probe;
}
