// @ts-check
// type (actions/keyboard.py), called on the field in the top document in the same round trip as the
// text itself (Input.insertText and its key-up travel another way: this call may run first): until
// the field's value differs from what it was (keyboard_probe.js), a task's turn at a
// time, at most 150 ms; then read again and counted at once, without a settling turn:
// the value is typing's effect, and after input a task's turn waits for the next frame (up to
// 16 ms); what the page does later is the next snapshot's to wait for. {probe, settled: ms,
// counted: [changes, URL]}. Without before: the value keyboard_probe_focus.js saw (the read-back
// sent in the same burst as the focus call, before the host knew it).
import peek from "./page_changes_peek.js";
import probe from "./keyboard_probe.js";
/** @type {BxSnippets["actions/keyboard_typed.js"]} */
export default function (types, before) {
  const el = this, t0 = performance.now();
  if (before === undefined) before = globalThis.__browserxBefore?.get(el) ?? null;
  return new Promise((done) => {
    const channel = new MessageChannel();
    const look = () => {
      if (probe.call(el, types).value === before && performance.now() - t0 < 150) return channel.port2.postMessage(null);
      done(null);
    };
    channel.port1.onmessage = look;
    look();
  }).then(() => ({probe: probe.call(el, types), settled: performance.now() - t0, counted: peek()}));
}
