// @ts-check
// CDP methods the relay will forward: exactly those the host sends. Defence in depth: the host
// keeps the same list (host/browserx/relay/protocol.py) and a unit test checks the two agree.
// (The test suite's extra methods come from an allowlist-test.js only its copy of the extension
// has; see service-worker.js.)
// eslint-disable-next-line no-unused-vars
const CDP_ALLOWLIST = [
  "Accessibility.getPartialAXTree",
  "DOM.describeNode",
  "DOM.focus",
  "DOM.getBoxModel",
  "DOM.getContentQuads",
  "DOM.getFrameOwner",
  "DOM.resolveNode",
  "DOM.scrollIntoViewIfNeeded",
  "DOM.setFileInputFiles",
  "DOMDebugger.getEventListeners",
  "DOMSnapshot.captureSnapshot",
  "Input.dispatchDragEvent",
  "Input.dispatchKeyEvent",
  "Input.dispatchMouseEvent",
  "Input.insertText",
  "Input.setInterceptDrags",
  "Network.disable",
  "Network.enable",
  "Page.addScriptToEvaluateOnNewDocument",
  "Page.captureScreenshot",
  "Page.createIsolatedWorld",
  "Page.enable",
  "Page.getFrameTree",
  "Page.getNavigationHistory",
  "Page.handleJavaScriptDialog",
  "Page.navigate",
  "Page.navigateToHistoryEntry",
  "Page.reload",
  "Page.setInterceptFileChooserDialog",
  "Runtime.callFunctionOn",
  "Runtime.disable",
  "Runtime.enable",
  "Runtime.evaluate",
  "Runtime.getProperties",
  "Runtime.releaseObjectGroup",
];
