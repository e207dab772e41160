// Bundles the Angular + Angular Material app (main.ts) with the pinned esbuild into OUT/main.js: one
// ES module, Angular compiled just in time in the browser (main.ts imports @angular/compiler; the
// libraries' partial declarations and the app's decorators are compiled there). Run by
// tests/e2e/apps/oracle.py when the server starts; offline, about a second.
const path = require('path');
const esbuild = require('../node_modules/esbuild');
esbuild.buildSync({
  entryPoints: [path.join(__dirname, 'main.ts')],
  outfile: path.join(process.argv[2], 'main.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  nodePaths: [path.join(__dirname, '..', 'node_modules')],
  tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
  logLevel: 'error',
});
