// @ts-check
// upload (actions/upload.py), called on the target: whether it is a file input the host can set
// at once (its state, multiple, disabled), or something to click that may open a file chooser;
// never a submit button (a click would send its form, and no chooser opens from one).
/** @type {BxSnippets["actions/upload_probe.js"]} */
export default function () {
  const el = this;
  const file = el.localName === 'input' && el.type === 'file';
  const submits = (el.localName === 'input' && (el.type === 'submit' || el.type === 'image')) ||
    (el.localName === 'button' && el.type === 'submit' && !!el.form);
  return {file, multiple: file && el.multiple, disabled: file && el.disabled, submits};
}
