// @ts-check
// The relay's link to the native host: the port (connectNative, reconnecting with backoff; the
// hello), the framing of what goes back (replies, split into chunks when large; notices) and the
// dispatch of each host request to its handler (service-worker.js's table) after the person's
// gate (controls.js). Loaded by service-worker.js (importScripts), before cdp.js and tabs.js.
/* global handlers, controlsGate, controlsSnapshot, controlsHostStatus, guardDropAll, updateBadge */
/* global detachAll, loadWatermarks */
/* exported post, requireTabId, VERSION */

/**
 * A request from the host (parsed JSON): `id` numbers it, and its reply carries the same; `type`
 * names its handler (service-worker.js's table), which reads the rest as its own request type
 * (CdpRequest, BatchRequest, TabRequest, ...). Each checks the fields it uses before using them.
 * @typedef {{id: number, type: string}} HostRequest
 */
/**
 * A handler of one type of request. (A method's type, so that each handler may take its own
 * request type, which adds fields to HostRequest.)
 * @typedef {{handle(msg: HostRequest): unknown}["handle"]} Handler
 */
/** @typedef {{result: unknown} | {error: string}} ReplyBody a reply, but for its id */

const HOST_NAME = "com.browserx.host";
const VERSION = chrome.runtime.getManifest().version;

// Chrome allows 64 MiB per message to the host; 8 Mi UTF-16 units stays well
// below that even after UTF-8 expansion and JSON re-escaping of the slice.
const CHUNK_CHARS = 8 * 1024 * 1024;

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;
const STABLE_MS = 10_000;

/** @type {chrome.runtime.Port | null} */
let port = null;
let connectedAt = 0;
let backoff = BACKOFF_MIN_MS;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let reconnectTimer;

// ---------------------------------------------------------------- connection

function connect() {
  if (port) return;
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
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

/** @param {chrome.runtime.Port} p */
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

/**
 * A notice or a reply to the host. Nobody is listening while disconnected, so drop the message.
 * @param {object} msg
 */
function post(msg) {
  if (!port) return;
  try {
    port.postMessage(msg);
  } catch {}
}

/**
 * @param {number | null} id the request's (null: it had none)
 * @param {ReplyBody} body
 */
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

/**
 * Slices of at most `size` UTF-16 units that never split a surrogate pair, so
 * every slice is valid Unicode on its own.
 * @param {string} text
 * @param {number} size
 */
function splitText(text, size) {
  /** @type {string[]} */
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

/** @param {HostRequest | null | undefined} msg as the host sent it: handle checks its shape */
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

/**
 * @param {HostRequest | null | undefined} msg
 * @param {number | null} id
 */
async function handle(msg, id) {
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) throw badRequest("not an object");
  if (id === null) throw badRequest("missing numeric id");
  // A string, or the gate (which compares strings) would pass what hasOwn takes as its name: ["cdp"].
  if (typeof msg.type !== "string") throw badRequest("type must be a string");
  const handler = Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
  if (!handler) throw badRequest(`unknown type ${JSON.stringify(msg.type) ?? "undefined"}`);
  await controlsGate(msg); // refused while stopped, on a blocked site, in a tab not shared
  return handler(msg);
}

/**
 * @param {unknown} tabId
 * @returns {asserts tabId is number}
 */
function requireTabId(tabId) {
  if (!Number.isInteger(tabId)) throw badRequest("tabId must be an integer");
}

/** @param {string} why */
function badRequest(why) {
  return new Error(`bad request: ${why}`);
}

/** @param {unknown} err what a promise rejected with, or a catch caught */
function errorText(err) {
  const e = /** @type {{message?: unknown} | null | undefined} */ (err);
  try {
    return typeof e?.message === "string" ? e.message : String(err);
  } catch {
    return "unknown error";
  }
}
