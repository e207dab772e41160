// Compiles every *.svelte file here with the pinned svelte/compiler into OUT/<Name>.js (ES modules
// importing svelte/internal, resolved by the page's import map). Run by tests/e2e/apps/oracle.py.
const fs = require('fs');
const path = require('path');
const { compile } = require('../node_modules/svelte/compiler.cjs');
const out = process.argv[2];
fs.mkdirSync(out, { recursive: true });
for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.svelte'))) {
  const source = fs.readFileSync(path.join(__dirname, file), 'utf8');
  const { js } = compile(source, { filename: file, css: 'injected', generate: 'dom' });
  fs.writeFileSync(path.join(out, file.replace(/\.svelte$/, '.js')), js.code);
}
