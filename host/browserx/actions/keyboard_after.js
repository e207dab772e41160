// @ts-check
// type (actions/keyboard.py), called on the field in the top document once the text is in: the
// page's reaction settled (page_changes_settle.js, quick: the value is the effect), then the field read again
// (keyboard_probe.js) and the changes counted so far (page_changes_peek.js),
// in one call: {probe, settled: ms, counted: [changes, URL]}.
import peek from "./page_changes_peek.js";
import probe from "./keyboard_probe.js";
import settle from "./page_changes_settle.js";
/** @type {BxSnippets["actions/keyboard_after.js"]} */
export default function (types) {
  return settle(true).then((ms) => ({probe: probe.call(this, types), settled: ms, counted: peek()}));
}
