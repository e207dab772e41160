// @ts-check
// browserx relay: a thin pipe between the native host and chrome.debugger.
// The host owns all the logic. This worker forwards messages, remembers what it
// attached, and cleans up when the host goes away.
/* global CDP_ALLOWLIST, CDP_TEST_ALLOWLIST, askHandlers, askBadge, controlsSnapshot, controlsGate, controlHandlers */
/* global controlsHostStatus, controlsTabOpened, guardHandlers, guardDropAll */
importScripts("allowlist.js");
importScripts("controls.js"); // the person's controls: Stop, site rules, tab sharing, Activity
importScripts("asks.js"); // the questions the agent waits on: ask_user, confirmations, sites
importScripts("site_guard.js"); // site rules in the browser's network layer while a call runs
// Only the test suite's copy of the extension has this file (tests/e2e/harness.py writes it).
try {
  importScripts("allowlist-test.js");
} catch {
  // the shipped extension: the host's methods only
}

const HOST_NAME = "com.browserx.host";
const VERSION = chrome.runtime.getManifest().version;
// The parameters a batch command may take from an earlier answer (`set`): references to nodes and
// objects, never code or a URL.
const SETTABLE = new Set(["objectId", "backendNodeId", "nodeId"]);
const ALLOWED = new Set([
  ...CDP_ALLOWLIST,
  ...(typeof CDP_TEST_ALLOWLIST !== "undefined" ? CDP_TEST_ALLOWLIST : []),
]);

// Chrome allows 64 MiB per message to the host; 8 Mi UTF-16 units stays well
// below that even after UTF-8 expansion and JSON re-escaping of the slice.
const CHUNK_CHARS = 8 * 1024 * 1024;

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;
const STABLE_MS = 10_000;

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };
// The host needs these to learn about child sessions even before enabling anything.
const ALWAYS_FORWARD = new Set([
  "Target.attachedToTarget",
  "Target.detachedFromTarget",
  "Inspector.targetCrashed",
  "Inspector.targetReloadedAfterCrash",
  "Input.dragIntercepted", // (the Input domain has no enable)
]);

let port = null;
let connectedAt = 0;
let backoff = BACKOFF_MIN_MS;
let reconnectTimer = null;

const attached = new Set(); // tabIds this extension holds a debugger session on
// tabId -> Map of the CDP domains the host enabled -> the number of the last enable or disable sent
// for it: a disable answered after a later enable was sent (an action's Network.disable, unwaited,
// then the next action's Network.enable) must not turn that enable's events off.
const enabledDomains = new Map();
let toggleCount = 0;

// ---------------------------------------------------------------- connection

function connect() {
  if (port) return;
  clearTimeout(reconnectTimer);
  reconnectTimer = null;
  try {
    const p = chrome.runtime.connectNative(HOST_NAME);
    port = p;
    connectedAt = Date.now();
    p.onMessage.addListener(onHostMessage);
    p.onDisconnect.addListener(() => onDisconnect(p));
  } catch {
    port = null;
    scheduleReconnect();
    return;
  }
  // The hello carries each tab's ID watermark, so a restarted host never numbers from [1] again.
  const connected = port;
  Promise.all([loadWatermarks(), controlsSnapshot()]).then(([watermarks, controls]) => {
    if (port !== connected) return; // that host is gone already: the next connect says hello
    post({
      type: "hello",
      version: VERSION,
      userAgent: navigator.userAgent,
      extensionId: chrome.runtime.id,
      watermarks,
      controls,
    });
  });
  updateBadge();
}

// ------------------------------------------------------------ ID watermarks
// The highest element ID the host gave out in each tab, kept in chrome.storage.session: it lives
// as long as the browser session (tab ids are never reused within it) and survives a restart of
// this worker and of the host. Keys "wm:<tabId>", one per tab, so concurrent writes never clash.

const WATERMARK_PREFIX = "wm:";

async function loadWatermarks() {
  try {
    const all = await chrome.storage.session.get(null);
    const out = {};
    for (const [key, high] of Object.entries(all)) {
      if (key.startsWith(WATERMARK_PREFIX) && Number.isInteger(high)) out[key.slice(WATERMARK_PREFIX.length)] = high;
    }
    return out;
  } catch {
    return {};
  }
}

function forgetWatermark(tabId) {
  quietly(() => chrome.storage.session.remove(WATERMARK_PREFIX + tabId));
}

function onDisconnect(p) {
  const why = chrome.runtime.lastError?.message ?? ""; // read it so Chrome doesn't log it as unchecked
  if (port !== p) return;
  port = null;
  controlsHostStatus(false, why);
  guardDropAll().catch(() => {});
  updateBadge();
  if (Date.now() - connectedAt >= STABLE_MS) backoff = BACKOFF_MIN_MS;
  // No tab should stay under debugging without a host; reconnect only after the
  // sweep so it cannot detach a tab the next host attaches.
  detachAll().finally(scheduleReconnect);
}

function scheduleReconnect() {
  if (port || reconnectTimer) return;
  // connectNative launches a fresh host process, so this also restarts a dead host.
  reconnectTimer = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
}

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

// Nobody is listening while disconnected, so drop the message.
function post(msg) {
  if (!port) return;
  try {
    port.postMessage(msg);
  } catch {}
}

function reply(id, body) {
  const msg = { id, ...body };
  let text;
  try {
    text = JSON.stringify(msg);
  } catch (e) {
    post({ id, error: `reply not serializable: ${errorText(e)}` });
    return;
  }
  if (text.length <= CHUNK_CHARS) {
    post(msg);
    return;
  }
  const slices = splitText(text, CHUNK_CHARS);
  slices.forEach((data, chunk) => post({ id, chunk, chunks: slices.length, data }));
}

// Slices of at most `size` UTF-16 units that never split a surrogate pair, so
// every slice is valid Unicode on its own.
function splitText(text, size) {
  const slices = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    slices.push(text.slice(start, end));
    start = end;
  }
  return slices;
}

// ------------------------------------------------------------ host requests

function onHostMessage(msg) {
  const id = typeof msg?.id === "number" ? msg.id : null;
  try {
    handle(msg, id).then(
      (result) => reply(id, { result: result ?? {} }),
      (err) => reply(id, { error: errorText(err) }),
    );
  } catch (err) {
    reply(id, { error: errorText(err) });
  }
}

async function handle(msg, id) {
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) throw badRequest("not an object");
  if (id === null) throw badRequest("missing numeric id");
  const handler = Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
  if (!handler) throw badRequest(`unknown type ${JSON.stringify(msg.type) ?? "undefined"}`);
  await controlsGate(msg); // refused while stopped, on a blocked site, in a tab not shared
  return handler(msg);
}

/**
 * A batch command's call arguments taken from earlier answers (`args`: {from: indices, path}): the
 * string at `path` in each answer's result as an objectId, else null (that command failed).
 * @param {{result?: any, error?: string}[]} earlier
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
 * @param {{result?: any, error?: string}} answer
 * @param {string[]} path
 */
function valueAt(answer, path) {
  let value = answer && "result" in answer ? answer.result : undefined;
  for (const key of path) value = value != null && typeof value === "object" ? value[key] : undefined;
  return value;
}

/**
 * Whether a batch answer lets a command gated on it go: a result whose value at `when` is true.
 * @param {{result?: any, error?: string}} answer
 * @param {string[] | null | undefined} when
 */
function passes(answer, when) {
  if (!answer || !("result" in answer)) return false;
  return when == null || valueAt(answer, when) === true;
}

/**
 * Whether a batch command's path into an earlier answer (`when`, `args.path`, `set.path`) is one.
 * @param {unknown} path
 */
function isPath(path) {
  return Array.isArray(path) && path.every((k) => typeof k === "string");
}

const handlers = {
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
  // resolved and read in one trip to the host (page/listeners.py). A command with `set` ({param,
  // from: an earlier index, path}) waits for that answer and is issued with the string or number
  // at its path as that parameter (else answered "skipped"): a node's object → its backendNodeId →
  // its main-world object → its listeners, one trip to the host for the whole chain.
  async batch({ tabId, sessionId, commands }) {
    requireTabId(tabId);
    if (!Array.isArray(commands) || commands.length > 5000) throw badRequest("commands must be a list (≤ 5000)");
    const target = sessionId ? { tabId, sessionId } : { tabId };
    /** @type {Promise<{result?: any, error?: string}>[]} */
    const answers = [];
    commands.forEach((c, i) => {
      /** @param {any} params */
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
      const after = c?.after, when = c?.when, args = c?.args, set = c?.set;
      if (set != null) {
        const from = set?.from, path = set?.path, param = set?.param;
        if (after != null || args != null) answers.push(Promise.resolve({ error: "bad request: a command has one of after, args and set" }));
        else if (!Number.isInteger(from) || from < 0 || from >= i || !SETTABLE.has(param)) {
          answers.push(Promise.resolve({ error: "bad request: set needs a node or object parameter and an earlier command's index" }));
        } else if (!isPath(path)) {
          answers.push(Promise.resolve({ error: "bad request: set.path must be a list of keys" }));
        } else {
          answers.push(
            answers[from].then((a) => {
              const value = valueAt(a, path);
              if (typeof value !== "string" && typeof value !== "number") return { error: `skipped: command ${from} gave no ${param}` };
              return send({ ...c.params, [param]: value });
            }),
          );
        }
      } else if (args != null) {
        const from = args?.from, path = args?.path;
        if (after != null) answers.push(Promise.resolve({ error: "bad request: a command has one of after, args and set" }));
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

  async detach({ tabId }) {
    requireTabId(tabId);
    forget(tabId);
    // Also try when untracked (worker restart); "not attached" is not an error here.
    await chrome.debugger.detach({ tabId }).catch(() => {});
    return { detached: true };
  },

  async tabs() {
    const [all, focused] = await Promise.all([
      chrome.tabs.query({}),
      chrome.windows.getLastFocused().catch(() => null),
    ]);
    return {
      tabs: all.map((t) => ({
        tabId: t.id,
        windowId: t.windowId,
        url: t.url || t.pendingUrl || "",
        title: t.title ?? "",
        active: t.active,
        status: t.status,
        attached: attached.has(t.id),
      })),
      lastFocusedWindowId: focused?.id ?? null,
    };
  },

  // Tab tools: a new tab always starts blank (the host navigates it, under its URL policy).
  async newTab() {
    const tab = await chrome.tabs.create({ url: "about:blank", active: true });
    await controlsTabOpened(tab.id); // the agent's own tab is shared with it
    return { tabId: tab.id, windowId: tab.windowId };
  },

  // Only for leaving a page chrome.debugger cannot attach to (chrome://newtab, settings): the
  // host navigates every other page itself, after its URL policy.
  async navigateTab({ tabId, url }) {
    requireTabId(tabId);
    if (!urlAllowed(url) || !/^https?:/i.test(url)) throw badRequest("url must be http(s)");
    await chrome.tabs.update(tabId, { url });
    return { navigating: true };
  },

  async closeTab({ tabId }) {
    requireTabId(tabId);
    await chrome.tabs.remove(tabId);
    return { closed: true };
  },

  async activateTab({ tabId }) {
    requireTabId(tabId);
    const tab = await chrome.tabs.update(tabId, { active: true });
    await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
    return { activated: true };
  },

  // Kept only ever higher: the host hands over its tab's highest ID after a snapshot gave out new ones.
  async watermark({ tabId, high }) {
    requireTabId(tabId);
    if (!Number.isSafeInteger(high) || high < 0) throw badRequest("high must be a non-negative integer");
    const key = WATERMARK_PREFIX + tabId;
    /** @type {any} */
    const stored = (await chrome.storage.session.get(key))[key];
    if (!Number.isInteger(stored) || high > stored) await chrome.storage.session.set({ [key]: high });
    return { high: Math.max(high, Number.isInteger(stored) ? stored : 0) };
  },

  ping() {
    return { pong: true, version: VERSION };
  },

  ...controlHandlers,
  ...askHandlers,
  ...guardHandlers,
};

// A declarative projection of a large result, to spare the pipe: of the list at `keep.list`,
// only the entries whose `keep.where` field has one of the listed values, each as an array of its
// `keep.fields`. (A document-wide listener listing is 1.6 MB on JupyterLab; its click-like part
// in this shape, 30 kB.) No page logic: the host says what to keep.
function project(result, keep) {
  if (Array.isArray(keep.paths)) return pickPaths(result, keep.paths);
  const list = result[keep.list];
  if (!Array.isArray(list) || !Array.isArray(keep.fields)) throw badRequest("keep needs list and fields");
  const [field, values] = keep.where ? [keep.where.field, new Set(keep.where.values)] : [null, null];
  const out = [];
  for (const item of list) {
    if (field !== null && !values.has(item[field])) continue;
    out.push(keep.fields.map((f) => item[f] ?? null));
  }
  return { [keep.list]: out };
}

// Only the given dotted paths of a result ("documents.*.nodes.backendNodeId"; "*" = every item of
// an array), in the result's own shape.
function pickPaths(result, paths) {
  const pick = (value, parts) => {
    if (parts.length === 0) return value;
    const [head, ...rest] = parts;
    if (head === "*") return Array.isArray(value) ? value.map((v) => pick(v, rest)) : null;
    if (value === null || typeof value !== "object" || !(head in value)) return undefined;
    const inner = pick(value[head], rest);
    return inner === undefined ? undefined : { [head]: inner };
  };
  const merge = (a, b) => {
    if (a === undefined) return b;
    if (b === undefined) return a;
    if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => merge(x, b[i]));
    if (a && b && typeof a === "object" && typeof b === "object") {
      const out = { ...a };
      for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v);
      return out;
    }
    return b;
  };
  let out = {};
  for (const path of paths) {
    if (typeof path !== "string") throw badRequest("keep.paths must be strings");
    out = merge(out, pick(result, path.split(".")));
  }
  return out ?? {};
}

// Defence in depth for the host's URL allowlist (host/browserx/url_policy.py): a tab is sent only
// to http(s) with a host, exactly about:blank, or file: (which the host allows only when the user
// did). Parsed by the WHATWG URL parser, as the browser will read it.
// url-allowed-begin (tests/test_url_policy.py runs this function)
function urlAllowed(url) {
  if (typeof url !== "string") return false;
  let u;
  try {
    // The URL Standard strips C0 controls and spaces around a URL: so does this check.
    // eslint-disable-next-line no-control-regex
    u = new URL(url.replace(/[\t\n\r]/g, "").replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, ""));
  } catch {
    return false;
  }
  if (u.protocol === "http:" || u.protocol === "https:") return u.hostname !== "";
  if (u.protocol === "about:") return u.pathname === "blank" && u.search === "";
  return u.protocol === "file:";
}
// url-allowed-end

function requireTabId(tabId) {
  if (!Number.isInteger(tabId)) throw badRequest("tabId must be an integer");
}

function badRequest(why) {
  return new Error(`bad request: ${why}`);
}

function errorText(err) {
  try {
    return typeof err?.message === "string" ? err.message : String(err);
  } catch {
    return "unknown error";
  }
}

/** @returns {Map<string, number>} */
function enabledFor(tabId) {
  let domains = enabledDomains.get(tabId);
  if (!domains) enabledDomains.set(tabId, (domains = new Map()));
  return domains;
}

function forget(tabId) {
  attached.delete(tabId);
  enabledDomains.delete(tabId);
  updateBadge();
}

// ------------------------------------------------------------ debugger events

chrome.debugger.onEvent.addListener((source, method, params) => {
  const { tabId, sessionId } = source;
  if (!attached.has(tabId)) return;
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

// ------------------------------------------------------------ tab lifecycle

chrome.tabs.onCreated.addListener((tab) => {
  post({
    type: "tab",
    event: "created",
    tabId: tab.id,
    windowId: tab.windowId,
    openerTabId: tab.openerTabId,
    url: tab.url || tab.pendingUrl || "",
    title: tab.title ?? "",
  });
});

chrome.tabs.onUpdated.addListener((tabId, changeInfo) => {
  const change = {};
  for (const key of ["status", "url", "title"]) {
    if (changeInfo[key] !== undefined) change[key] = changeInfo[key];
  }
  if (Object.keys(change).length) post({ type: "tab", event: "updated", tabId, ...change });
});

chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
  post({ type: "tab", event: "activated", tabId, windowId });
});

chrome.tabs.onRemoved.addListener((tabId) => {
  forget(tabId);
  forgetWatermark(tabId);
  post({ type: "tab", event: "removed", tabId });
});

chrome.tabs.onReplaced.addListener((addedTabId, removedTabId) => {
  forget(removedTabId);
  forgetWatermark(removedTabId);
  post({ type: "tab", event: "replaced", tabId: addedTabId, removedTabId });
});

// ------------------------------------------------------------ badge

function updateBadge() {
  const on = port !== null;
  const n = attached.size;
  quietly(() => controlsHostStatus(on));
  quietly(() => chrome.action.setBadgeText({ text: on ? "on" : "off" }));
  quietly(() => chrome.action.setBadgeBackgroundColor({ color: on ? "#1a7f37" : "#6e7781" }));
  quietly(() =>
    chrome.action.setTitle({
      title: `browserx: ${on ? "connected" : "disconnected"}, ${n} tab${n === 1 ? "" : "s"} attached`,
    }),
  );
  quietly(() => askBadge()); // "?" while the agent waits for an answer (asks.js)
}

// The badge is cosmetic; never let it break the relay.
function quietly(fn) {
  try {
    fn()?.catch?.(() => {});
  } catch {}
}

// ------------------------------------------------------------ startup

chrome.runtime.onStartup.addListener(() => connect());
chrome.runtime.onInstalled.addListener(() => connect());
connect();
