// @ts-check
// pixels/screenshot.py, in browserx's world of the top document: the metrics
// (screenshot_page_metrics.js), read after taking away what browserx drew there (cursor, outlines,
// ripples: actions/effects.js), so the capture that follows shows the page alone.
import { effect } from "../actions/effects.js";
import metrics from "./screenshot_page_metrics.js";
/** @type {BxSnippets["pixels/screenshot_hide_effects.js"]} */
export default function () {
  effect({kind: "hide"}, null);
  return metrics();
}
