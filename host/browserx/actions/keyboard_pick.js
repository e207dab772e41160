// @ts-check
// type into a picker input (date, time, color, range…; actions/keyboard.py), called on the element
// with the text: its value set the way the picker sets it (the native value setter, then input and
// change events that bubble, which React's and other frameworks' change tracking picks up). {ok:
// false} when the input refused the text.
/** @type {BxSnippets["actions/keyboard_pick.js"]} */
export default function (text) {
  const el = this, before = el.value;
  const set = /** @type {(this: HTMLInputElement, v: string) => void} */ (
    /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')).set);
  set.call(el, text);
  if (el.value === '' && text !== '') { set.call(el, before); return {ok: false, value: before}; }
  if (el.value !== before) {
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return {ok: true, value: el.value};
}
