// @ts-check
// actions/pointer.py, after scrolling into view: after a scroll the browser routes input by the
// compositor's hit-test data, which trails the page by a frame or so: an event sent at once can be
// delivered to the iframe that *was* at that point. Waiting two animation frames lets a new
// compositor frame land. Capped: rAF does not run in hidden tabs.
/** @type {BxSnippets["actions/pointer_frames.js"]} */
export default function () {
  if (document.visibilityState !== "visible") return;  // no frames are drawn: nothing to wait for
  return new Promise(done => {
    const cap = setTimeout(done, 250);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(cap); done(); }));
  });
}
