// @ts-check
// upload (actions/upload.py), called on the target: whether it is a file input the host can set
// at once (its state, multiple, disabled), or something to click that may open a file chooser.
function() {
  const el = this;
  const file = el.localName === 'input' && el.type === 'file';
  return {file, multiple: file && el.multiple, disabled: file && el.disabled};
}
