// wait (actions/navigation.py), evaluated in the page's main world, called there with the two texts
// as JSON (null: not asked): [`want` is in the body's text, `gone` is not].
(want, gone) => {
  const s = document.body ? document.body.innerText : '';
  return [want === null || s.includes(want), gone === null || !s.includes(gone)];
}
