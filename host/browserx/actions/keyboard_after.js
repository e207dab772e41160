// @ts-check
// type (actions/keyboard.py), called on the field in the top document once the text is in: the
// page's reaction settled (page_changes_settle.js, __SETTLE__, quick: the value is the effect), then the field read again
// (keyboard_probe.js, __PROBE__) and the changes counted so far (page_changes_peek.js, __PEEK__),
// in one call: {probe, settled: ms, counted: [changes, URL]}.
function(types) {
  return (__SETTLE__)(true).then((ms) => ({probe: (__PROBE__).call(this, types), settled: ms, counted: (__PEEK__)}));
}
