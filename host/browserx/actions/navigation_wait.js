// @ts-check
// wait (actions/navigation.py), evaluated in the page's main world, called there with the two texts
// as JSON (null: not asked): [`want` is in the body's text, `gone` is not]. Text inside a part that
// opted out of AI agents (data-no-ai) does not count: a wait must not tell what it holds.
/** @type {BxSnippets["actions/navigation_wait.js"]} */
export default function (want, gone) {
  let s = document.body ? document.body.innerText : '';
  for (const el of document.querySelectorAll('[data-no-ai]')) {
    const t = /** @type {HTMLElement} */ (el).innerText;
    if (t) s = s.split(t).join('\n');
  }
  return [want === null || s.includes(want), gone === null || !s.includes(gone)];
}
