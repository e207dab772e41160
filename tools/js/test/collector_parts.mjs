// The pure parts of page/collector.js, made callable under node for its unit tests
// (collector.test.mjs). The collector is one function declaration the host sends whole
// (page/collector.py, page_js.py), its helpers declared at the top of its body; this reads
// the file as it is, takes the helpers asked for out of that body (with the constants and
// variables of the body they use, found by name), and builds them into a function of their own.
// What they use of the page (a global like getComputedStyle, a column of the walk, collect's
// own `opts`) the test hands in: `env`, whose names stand for the body's own declarations.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const HERE = dirname(fileURLToPath(import.meta.url));
export const COLLECTOR = join(HERE, "..", "..", "..", "host", "browserx", "page", "collector.js");

/** @param {ts.BindingName} name @param {string[]} into @returns {string[]} */
function bound(name, into = []) {
  if (ts.isIdentifier(name)) into.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bound(el.name, into);
  return into;
}

/** Whether an identifier is a name in use here (not a property's name). @param {ts.Identifier} id */
function isReference(id) {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) ||
    ts.isPropertyDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)) && p.name === id) return false;
  if (ts.isShorthandPropertyAssignment(p)) return true;
  if ((ts.isBindingElement(p) && p.propertyName === id) || ts.isLabeledStatement(p) ||
    ts.isBreakOrContinueStatement(p)) return false;
  return true;
}

/**
 * The names a statement uses that it does not declare inside itself (its free names, as far as
 * names tell: a name declared anywhere inside counts as declared throughout).
 * @param {ts.Node} node @returns {Set<string>}
 */
function freeNames(node) {
  const declared = new Set(), used = new Set();
  /** @param {ts.Node} n */
  const visit = (n) => {
    if (ts.isVariableDeclaration(n) || ts.isParameter(n) || ts.isBindingElement(n)) {
      if (!ts.isBindingElement(n) || ts.isIdentifier(n.name)) for (const name of bound(n.name)) declared.add(name);
    }
    if ((ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n)) && n.name && n !== node) declared.add(n.name.text);
    if (ts.isIdentifier(n) && isReference(n)) used.add(n.text);
    ts.forEachChild(n, visit);
  };
  if (ts.isVariableStatement(node)) {
    // Its initializers' names: the names it declares are what it gives, not what it uses.
    for (const d of node.declarationList.declarations) if (d.initializer) visit(d.initializer);
  } else {
    visit(node);
  }
  return new Set([...used].filter((name) => !declared.has(name)));
}

/**
 * The named helpers (functions, or variables: read through getters) of collect's body, built
 * with what they use of it.
 * @param {string[]} names
 * @param {Record<string, unknown>} [env] stand-ins: a global, a column, collect's `opts`
 * @param {string} [text] the collector's source (default: the file)
 * @returns {Record<string, any>}
 */
export function collectorParts(names, env = {}, text = readFileSync(COLLECTOR, "utf8")) {
  const file = ts.createSourceFile("collector.js", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const collect = file.statements.find(ts.isFunctionDeclaration);
  if (!collect || !collect.body) throw new Error("collector.js: no function declaration");
  const params = new Set(collect.parameters.flatMap((p) => bound(p.name)));
  /** @type {Map<string, ts.Statement>} name → the statement of collect's body that declares it */
  const declaredBy = new Map();
  for (const st of collect.body.statements) {
    if (ts.isFunctionDeclaration(st) && st.name) declaredBy.set(st.name.text, st);
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) for (const name of bound(d.name)) declaredBy.set(name, st);
    }
  }
  /** @type {Set<ts.Statement>} */
  const wanted = new Set();
  const todo = [...names];
  while (todo.length) {
    const name = /** @type {string} */ (todo.pop());
    if (Object.hasOwn(env, name)) continue;
    if (params.has(name)) throw new Error(`collector.js: what was asked uses collect's parameter \`${name}\`: pass it in env`);
    const st = declaredBy.get(name);
    if (!st) {
      if (names.includes(name)) throw new Error(`collector.js: collect's body declares no \`${name}\``);
      continue; // a global (Math, getComputedStyle...): the env may stand in for it
    }
    if (wanted.has(st)) continue;
    const given = ts.isVariableStatement(st) &&
      st.declarationList.declarations.flatMap((d) => bound(d.name)).filter((n) => Object.hasOwn(env, n));
    if (given && given.length) {
      throw new Error(`collector.js: \`${name}\` is declared with ${given.join(", ")} of env: pass all of them, or none`);
    }
    wanted.add(st);
    todo.push(...freeNames(st));
  }
  const pieces = Object.keys(env).map((name) => `const ${name} = env[${JSON.stringify(name)}];`);
  for (const st of collect.body.statements) if (wanted.has(st)) pieces.push(st.getText(file));
  const getters = names.map((name) => `get ${name}() { return ${name}; }`);
  pieces.push(`return { ${getters.join(", ")} };`);
  return new Function("env", pieces.join("\n"))(env);
}
