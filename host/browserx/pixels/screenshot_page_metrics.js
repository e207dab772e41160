// @ts-check
// pixels/screenshot.py, in the top document's main world: [viewport width, height, scroll x, y,
// document width, height].
(() => [innerWidth, innerHeight, scrollX, scrollY,
  document.documentElement.scrollWidth, document.documentElement.scrollHeight])()
