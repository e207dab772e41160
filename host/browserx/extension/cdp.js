// @ts-check
// The Chrome DevTools Protocol through chrome.debugger: the host's `cdp` commands and `batch`es of
// them, `attach` and `detach`, and the events of the domains the host enabled, passed on as they
// come. Only the allowlisted methods go (allowlist.js), and a page is navigated only to a URL
// urlAllowed lets through. Loaded by service-worker.js (importScripts), after relay.js.
/* global CDP_ALLOWLIST, CDP_TEST_ALLOWLIST, post, badRequest, errorText, requireTabId, updateBadge, urlAllowed */
/* exported cdpHandlers, detachAll, forget */

/** @typedef {Record<string, unknown>} CdpParams a CDP command's parameters, or its result */
/**
 * What the host keeps of a large result (project): the dotted `paths`; or of the list at `list`
 * each entry's `fields`, of the entries whose `where.field` has one of `where.values`.
 * @typedef {{paths?: string[], list?: string, fields?: string[], where?: {field: string, values: unknown[]}}} Keep
 */
/** @typedef {HostRequest & {tabId: number, sessionId?: string, method: string, params?: CdpParams, keep?: Keep}} CdpRequest */
/**
 * One command of a batch (see batch): issued after an earlier one said go (`after`, `when`), with
 * or with earlier answers' objects appended to its arguments (`args`).
 * @typedef {{method: string, params?: CdpParams, after?: number, when?: string[],
 *   args?: {from: number[], path: string[]}}} BatchCommand
 */
/** @typedef {HostRequest & {tabId: number, sessionId?: string, commands: BatchCommand[]}} BatchRequest */
/** @typedef {HostRequest & {tabId: number}} TabRequest a request about one tab: attach, detach, ... */
/** @typedef {{result?: unknown, error?: string}} Answer a batch command's answer */

const ALLOWED = new Set([
  ...CDP_ALLOWLIST,
  ...(typeof CDP_TEST_ALLOWLIST !== "undefined" ? CDP_TEST_ALLOWLIST : []),
]);

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };
// The host needs these to learn about child sessions even before enabling anything.
const ALWAYS_FORWARD = new Set([
  "Target.attachedToTarget",
  "Target.detachedFromTarget",
  "Inspector.targetCrashed",
  "Inspector.targetReloadedAfterCrash",
  "Input.dragIntercepted", // (the Input domain has no enable)
]);

/** @type {Set<number>} tabIds this extension holds a debugger session on */
const attached = new Set();
// tabId -> Map of the CDP domains the host enabled -> the number of the last enable or disable sent
// for it: a disable answered after a later enable was sent (an action's Network.disable, unwaited,
// then the next action's Network.enable) must not turn that enable's events off.
/** @type {Map<number, Map<string, number>>} */
const enabledDomains = new Map();
let toggleCount = 0;

async function detachAll() {
  const tabIds = new Set(attached);
  // Also sweep sessions a previous worker instance attached but this one never
  // learned about. Detaching a tab we don't hold just fails, which is fine.
  try {
    for (const t of await chrome.debugger.getTargets()) {
      if (t.attached && t.tabId !== undefined) tabIds.add(t.tabId);
    }
  } catch {}
  attached.clear();
  enabledDomains.clear();
  updateBadge();
  await Promise.all([...tabIds].map((tabId) => chrome.debugger.detach({ tabId }).catch(() => {})));
}

/**
 * A batch command's call arguments taken from earlier answers (`args`: {from: indices, path}): the
 * string at `path` in each answer's result as an objectId, else null (that command failed).
 * @param {Answer[]} earlier
 * @param {string[]} path
 */
function argumentsFrom(earlier, path) {
  return earlier.map((a) => {
    const value = valueAt(a, path);
    return typeof value === "string" ? { objectId: value } : { value: null };
  });
}

/**
 * The value at `path` in an earlier batch answer's result (undefined: none, or it failed).
 * @param {Answer} answer
 * @param {string[]} path
 */
function valueAt(answer, path) {
  let value = answer && "result" in answer ? answer.result : undefined;
  for (const key of path) {
    value = value != null && typeof value === "object" ? /** @type {CdpParams} */ (value)[key] : undefined;
  }
  return value;
}

/**
 * Whether a batch answer lets a command gated on it go: a result whose value at `when` is true.
 * @param {Answer} answer
 * @param {string[] | null | undefined} when
 */
function passes(answer, when) {
  if (!answer || !("result" in answer)) return false;
  return when == null || valueAt(answer, when) === true;
}

/**
 * Whether a batch command's path into an earlier answer (`when`, `args.path`) is one.
 * @param {unknown} path
 */
function isPath(path) {
  return Array.isArray(path) && path.every((k) => typeof k === "string");
}

const cdpHandlers = {
  /** @param {CdpRequest} msg */
  async cdp({ tabId, sessionId, method, params, keep }) {
    requireTabId(tabId);
    if (typeof method !== "string") throw badRequest("method must be a string");
    if (sessionId != null && typeof sessionId !== "string") throw badRequest("sessionId must be a string");
    if (!ALLOWED.has(method)) throw new Error(`method not allowed: ${method}`);
    if (method === "Page.navigate" && !urlAllowed(params?.url)) throw badRequest("url not allowed");

    const target = sessionId ? { tabId, sessionId } : { tabId };
    const [domain, command] = method.split(".");
    // Mark the domain before sending: Chrome emits the initial burst of events
    // (e.g. Runtime.executionContextCreated) before the enable reply arrives.
    const domains = enabledFor(tabId);
    const wasEnabled = domains.has(domain);
    const toggle = command === "enable" || (command === "disable" && !sessionId) ? ++toggleCount : 0;
    if (command === "enable" || (toggle && wasEnabled)) domains.set(domain, toggle);
    const last = () => toggle !== 0 && domains.get(domain) === toggle; // no enable or disable since
    try {
      const result = await chrome.debugger.sendCommand(target, method, params || {});
      if (command === "disable" && !sessionId && last()) domains.delete(domain);
      return keep ? project(result ?? {}, keep) : result ?? {};
    } catch (err) {
      if (command === "enable" && !wasEnabled && last()) domains.delete(domain);
      throw err;
    }
  },

  // Many commands in one message each way (e.g. resolving hundreds of nodes, a shortcut's key
  // events): issued in order without waiting between them (sendCommand is called synchronously in
  // the map, so input events reach the browser in that order), answered with one result or error
  // per command, in order. A command with `after` (an earlier command's index) waits for that
  // command's answer and is issued only when the value at `when` (a path into its result; none:
  // any result) is exactly true, else answered "skipped": text typed behind the call that focused
  // its field goes in only if that call says the field took the focus (actions/keyboard.py), one
  // trip to the host fewer. Gated commands waiting on the same command are issued in their order.
  // A command with `args` ({from: earlier indices, path}) waits for those answers and is issued
  // with the objects they name appended to its call arguments (argumentsFrom): nodes
  // resolved and read in one trip to the host (page/listeners.py).
  /** @param {BatchRequest} msg */
  async batch({ tabId, sessionId, commands }) {
    requireTabId(tabId);
    if (!Array.isArray(commands) || commands.length > 5000) throw badRequest("commands must be a list (≤ 5000)");
    const target = sessionId ? { tabId, sessionId } : { tabId };
    /** @type {Promise<Answer>[]} */
    const answers = [];
    commands.forEach((c, i) => {
      /** @param {CdpParams | undefined} params @returns {Promise<Answer>} */
      const send = async (params = c?.params) => {
        const method = c && c.method;
        if (typeof method !== "string" || !ALLOWED.has(method)) return { error: `method not allowed: ${method}` };
        if (method === "Page.navigate" && !urlAllowed(params?.url)) return { error: "bad request: url not allowed" };
        try {
          return { result: (await chrome.debugger.sendCommand(target, method, params || {})) ?? {} };
        } catch (err) {
          return { error: errorText(err) };
        }
      };
      const after = c?.after, when = c?.when, args = c?.args;
      if (args != null) {
        const from = args?.from, path = args?.path;
        if (after != null) answers.push(Promise.resolve({ error: "bad request: a command has one of after and args" }));
        else if (!Array.isArray(from) || from.length > 1000 || !from.every((j) => Number.isInteger(j) && j >= 0 && j < i)) {
          answers.push(Promise.resolve({ error: "bad request: args.from must be at most 1000 earlier commands' indices" }));
        } else if (!isPath(path)) {
          answers.push(Promise.resolve({ error: "bad request: args.path must be a list of keys" }));
        } else {
          answers.push(
            Promise.all(from.map((j) => answers[j])).then((earlier) =>
              send({ ...c.params, arguments: [...(Array.isArray(c.params?.arguments) ? c.params.arguments : []), ...argumentsFrom(earlier, path)] }),
            ),
          );
        }
      } else if (after == null) answers.push(send());
      else if (!Number.isInteger(after) || after < 0 || after >= i) {
        answers.push(Promise.resolve({ error: "bad request: after must be an earlier command's index" }));
      } else if (when != null && !isPath(when)) {
        answers.push(Promise.resolve({ error: "bad request: when must be a list of keys" }));
      } else {
        answers.push(answers[after].then((a) => (passes(a, when) ? send() : { error: `skipped: command ${after} did not say go` })));
      }
    });
    return { results: await Promise.all(answers) };
  },

  /** @param {TabRequest} msg */
  async attach({ tabId }) {
    requireTabId(tabId);
    let already = attached.has(tabId);
    if (!already) {
      try {
        await chrome.debugger.attach({ tabId }, "1.3");
        enabledDomains.delete(tabId);
      } catch (err) {
        // Our own session already holds the tab (a concurrent attach, or one
        // made before this worker restarted): adopt it.
        if (!errorText(err).includes("Another debugger is already attached")) throw err;
        already = true;
      }
      attached.add(tabId);
      updateBadge();
    }
    await chrome.debugger.sendCommand({ tabId }, "Target.setAutoAttach", AUTO_ATTACH);
    return { attached: true, already };
  },

  /** @param {TabRequest} msg */
  async detach({ tabId }) {
    requireTabId(tabId);
    forget(tabId);
    // Also try when untracked (worker restart); "not attached" is not an error here.
    await chrome.debugger.detach({ tabId }).catch(() => {});
    return { detached: true };
  },
};

// A declarative projection of a large result, to spare the pipe: of the list at `keep.list`,
// only the entries whose `keep.where` field has one of the listed values, each as an array of its
// `keep.fields`. (A document-wide listener listing is 1.6 MB on JupyterLab; its click-like part
// in this shape, 30 kB.) No page logic: the host says what to keep.
/**
 * @param {CdpParams} result
 * @param {Keep} keep
 */
function project(result, keep) {
  if (Array.isArray(keep.paths)) return pickPaths(result, keep.paths);
  const name = /** @type {string} */ (keep.list); // (a keep without one finds no list: refused below)
  const list = result[name];
  if (!Array.isArray(list) || !Array.isArray(keep.fields)) throw badRequest("keep needs list and fields");
  const [field, values] = keep.where ? [keep.where.field, new Set(keep.where.values)] : [null, new Set()];
  const out = [];
  for (const item of list) {
    if (field !== null && !values.has(item[field])) continue;
    out.push(keep.fields.map((f) => item[f] ?? null));
  }
  return { [name]: out };
}

// Only the given dotted paths of a result ("documents.*.nodes.backendNodeId"; "*" = every item of
// an array), in the result's own shape.
/**
 * @param {CdpParams} result
 * @param {string[]} paths
 */
function pickPaths(result, paths) {
  /** @type {(value: unknown, parts: string[]) => unknown} */
  const pick = (value, parts) => {
    if (parts.length === 0) return value;
    const [head, ...rest] = parts;
    if (head === "*") return Array.isArray(value) ? value.map((v) => pick(v, rest)) : null;
    if (value === null || typeof value !== "object" || !(head in value)) return undefined;
    const inner = pick(/** @type {CdpParams} */ (value)[head], rest);
    return inner === undefined ? undefined : { [head]: inner };
  };
  /** @type {(a: unknown, b: unknown) => unknown} */
  const merge = (a, b) => {
    if (a === undefined) return b;
    if (b === undefined) return a;
    if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => merge(x, b[i]));
    if (a && b && typeof a === "object" && typeof b === "object") {
      /** @type {CdpParams} */
      const out = { ...a };
      for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v);
      return out;
    }
    return b;
  };
  /** @type {unknown} */
  let out = {};
  for (const path of paths) {
    if (typeof path !== "string") throw badRequest("keep.paths must be strings");
    out = merge(out, pick(result, path.split(".")));
  }
  return out ?? {};
}

/** @param {number} tabId @returns {Map<string, number>} */
function enabledFor(tabId) {
  let domains = enabledDomains.get(tabId);
  if (!domains) enabledDomains.set(tabId, (domains = new Map()));
  return domains;
}

/** @param {number} tabId */
function forget(tabId) {
  attached.delete(tabId);
  enabledDomains.delete(tabId);
  updateBadge();
}

// ------------------------------------------------------------ debugger events

chrome.debugger.onEvent.addListener((source, method, params) => {
  const { tabId, sessionId } = source;
  if (tabId === undefined || !attached.has(tabId)) return;
  const domain = method.slice(0, method.indexOf("."));
  if (ALWAYS_FORWARD.has(method) || enabledDomains.get(tabId)?.has(domain)) {
    post({ type: "event", tabId, sessionId, method, params });
  }
  const child = /** @type {{sessionId?: string} | undefined} */ (params);
  if (method === "Target.attachedToTarget" && child?.sessionId) {
    // Chrome only auto-attaches one level deep; repeat on the child so nested
    // out-of-process iframes get sessions too.
    chrome.debugger
      .sendCommand({ tabId, sessionId: child.sessionId }, "Target.setAutoAttach", AUTO_ATTACH)
      .catch(() => {});
  }
});

chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId === undefined) return;
  forget(source.tabId);
  post({ type: "detached", tabId: source.tabId, reason });
});
