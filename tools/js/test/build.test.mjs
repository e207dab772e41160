// The page library's members (build.mjs): every module with a default export, keyed by its path;
// a module without one is no member, only a part of those that import it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { library } from "../build.mjs";

test("library: the collector is a member, its parts are not", async () => {
  const text = await library();
  const members = [...text.matchAll(/^\s+"([\w/]+\.js)": \w+,?$/gm)].map((m) => m[1]); // as page_js.py reads them
  assert.ok(members.includes("page/collector.js"));
  assert.ok(members.includes("page/no_ai.js"));
  for (const part of ["collector_registry", "collector_node", "collector_style", "collector_hits"]) {
    assert.ok(!members.includes(`page/${part}.js`), part);
    assert.ok(text.includes(`// host/browserx/page/${part}.js\n`), part); // bundled all the same
  }
  // One function each: a part's helpers are not copied into each module that imports them.
  assert.equal(text.match(/\bfunction scanAttrs\(/g).length, 1);
});
