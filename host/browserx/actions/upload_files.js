// @ts-check
// upload (actions/upload.py), called on the file input after its files were set: the names and
// sizes it holds now (what the page will send), never their content.
/** @type {BxSnippets["actions/upload_files.js"]} */
export default function () {
  const files = this.files ? Array.from(this.files) : [];
  return files.map((f) => ({name: f.name, size: f.size}));
}
