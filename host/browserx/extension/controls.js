// @ts-check
// The person's controls over the agent, the service worker's side: "Stop agent" / "Resume", site
// rules, tab sharing; the Activity list and the agent's state for the popup; the toolbar badge.
// Loaded by service-worker.js (importScripts). The host enforces the same rules
// (host/browserx/control/person/controls.py); this is defence in depth: while stopped, or for a tab on a
// blocked site or not shared, no attach and no CDP command goes through.
//
// chrome.storage.local (set by popup.html and options.html): stopped, siteMode ("all" | "listed" |
// "ask"), blockedSites, allowedSites, tabSharing, confirmSensitive, uploadFolders, autoDialogs.
// chrome.storage.session: sharedTabs (tab ids), activity (the last 50 entries), agent (the
// agent's state), hostStatus (connected or why not, attached tabs).
/* global port, post, badRequest -- relay.js's */
/* global detachAll, attached, forget -- cdp.js's */
/* global guardRefresh -- site_guard.js's */
/* global askBadge -- asks.js's */
/* exported CONTROL_DEFAULTS, controlsSnapshot, controlsGate, controlHandlers, controlsHostStatus, controlsTabOpened */
/* exported updateBadge, quietly */

/**
 * The person's controls as chrome.storage.local holds them (each checked by takeControls).
 * @typedef {{stopped: boolean, siteMode: string, blockedSites: string[], allowedSites: string[], tabSharing: boolean,
 *   confirmSensitive: boolean, uploadFolders: string[], autoDialogs: Record<string, string>}} Controls
 */
/** @typedef {{siteMode: string, blockedSites: string[], allowedSites: string[]}} SiteRules as siteVerdict reads them */
/**
 * Any request, as the gate sees it before its handler checked it: the fields that name a tab or a page.
 * @typedef {HostRequest & {tabId?: unknown, url?: unknown, method?: unknown, params?: {url?: unknown}, commands?: unknown}} GateRequest
 */
/** @typedef {HostRequest & {entry: Record<string, unknown>}} ActivityRequest one line of the Activity list */
/** @typedef {HostRequest & {working: boolean, tabId: number | null}} AgentStateRequest */

/** @type {Controls} */
const CONTROL_DEFAULTS = {
  stopped: false,
  siteMode: "all",
  blockedSites: [],
  allowedSites: [],
  tabSharing: false,
  confirmSensitive: false,
  uploadFolders: [],
  autoDialogs: {}, // {alert|confirm|prompt|beforeunload: "accept"|"dismiss"}: answered without the agent
};
const ACTIVITY_MAX = 50;

/** @type {Controls & {sharedTabs: number[]}} */
const personControls = { ...CONTROL_DEFAULTS, sharedTabs: [] };
/** @type {Map<number, string>} tabId -> last URL seen (tabs.onUpdated), for a gate without a lookup */
const tabUrls = new Map();

const controlsLoaded = (async () => {
  try {
    const local = await chrome.storage.local.get(Object.keys(CONTROL_DEFAULTS));
    const session = await chrome.storage.session.get("sharedTabs");
    takeControls(local);
    personControls.sharedTabs = Array.isArray(session.sharedTabs) ? session.sharedTabs : [];
  } catch {
    // storage unreadable: the defaults (nothing refused here; the host still checks its config)
  }
})();

/** @param {Record<string, unknown>} values some of the controls, as stored: each is checked */
function takeControls(values) {
  /** @type {Record<string, unknown>} */
  const controls = personControls;
  for (const [key, fallback] of Object.entries(CONTROL_DEFAULTS)) {
    if (!(key in values)) continue;
    const v = values[key];
    controls[key] = typeof fallback === "boolean" ? v === true
      : Array.isArray(fallback) ? (Array.isArray(v) ? v.filter((p) => typeof p === "string") : [])
      : typeof fallback === "object" ? dialogAnswers(v)
      : (v === "all" || v === "listed" || v === "ask" ? v : "all");
  }
}

/** @param {unknown} v */
function dialogAnswers(v) {
  /** @type {Record<string, string>} */
  const out = {};
  if (!v || typeof v !== "object") return out;
  for (const kind of ["alert", "confirm", "prompt", "beforeunload"]) {
    const answer = /** @type {Record<string, unknown>} */ (v)[kind];
    if (answer === "accept" || answer === "dismiss") out[kind] = answer;
  }
  return out;
}

// What the host gets in the hello and in every "controls" notice.
async function controlsSnapshot() {
  await controlsLoaded;
  return { ...personControls, sharedTabs: [...personControls.sharedTabs] };
}

async function sendControls() {
  post({ type: "controls", ...(await controlsSnapshot()) });
}

// --------------------------------------------------------------- site patterns
// site-rules-begin (tests/test_site_rules.py runs these functions; keep them in step with
// host/browserx/site_rules.py)
/** @param {string} pattern */
function normalizePattern(pattern) {
  let text = String(pattern).trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  text = text.split(/[/?#]/, 1)[0];
  text = text.slice(text.lastIndexOf("@") + 1);
  if (!text.startsWith("[")) text = text.replace(/:\d*$/, "");
  text = text.replace(/\.+$/, "");
  if (text.startsWith("*.")) return "*." + canonicalHost(text.slice(2));
  return text === "*" ? text : canonicalHost(text);
}

// A host as the browser's URL parser writes it (IDNA, IPv4 in dotted decimal, IPv6 compressed
// without brackets), an IPv4-mapped IPv6 address as its IPv4 one: as canonical_host on the host.
/** @param {string} host */
function canonicalHost(host) {
  let h = String(host).trim().toLowerCase().replace(/\.+$/, "");
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (!h) return h;
  try {
    h = new URL(`http://${h.includes(":") ? `[${h}]` : h}/`).hostname;
  } catch {
    return h;
  }
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(h);
  if (mapped) {
    const a = parseInt(mapped[1], 16), b = parseInt(mapped[2], 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  if (h.startsWith("[")) return h.slice(1, -1);
  return h.replace(/\.+$/, "");
}

/** @param {string} pattern @param {string} host */
function siteMatches(pattern, host) {
  const p = normalizePattern(pattern);
  const h = canonicalHost(host);
  if (!p || !h) return false;
  if (p.startsWith("*.")) {
    const base = p.slice(2);
    return base !== "" && (h === base || h.endsWith("." + base));
  }
  if (p === "*") return true;
  return h === p;
}

// "allowed" | "blocked" | "unlisted" | "ask", as SiteRules.verdict on the host.
/** @param {string} url @param {SiteRules} rules */
function siteVerdict(url, rules) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return "allowed";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "allowed"; // no site
  let host = u.hostname.replace(/\.+$/, "");
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (!host) return "allowed";
  const any = (/** @type {string[]} */ list) => list.some((p) => siteMatches(p, host));
  if (any(rules.blockedSites)) return "blocked";
  if (rules.siteMode === "all" || any(rules.allowedSites)) return "allowed";
  return rules.siteMode === "listed" ? "unlisted" : "ask";
}
// site-rules-end

function rulesRestrict() {
  return personControls.siteMode !== "all" || personControls.blockedSites.some((p) => normalizePattern(p));
}

// -------------------------------------------------------------------- the gate
// Errors start with the host's error code (host/browserx/relay/connection.py maps them).

function stoppedError() {
  return new Error("stopped_by_user: The person paused the agent (\"Stop agent\" in the browserx popup); wait, or ask them to press Resume.");
}

/** @param {unknown} url as the request has it (not a string: the URL parser reads it as one) */
function refuseUrl(url) {
  const verdict = siteVerdict(String(url), personControls);
  // "ask": the host asks the person first (its site asker); the worker lets through only
  // the sites the person allowed, which join allowedSites.
  if (verdict === "allowed") return;
  throw new Error("site_blocked: The person's site rules keep browserx off this site.");
}

/** @param {number} tabId */
async function tabUrl(tabId) {
  try {
    const tab = await chrome.tabs.get(tabId);
    const url = tab.url || tab.pendingUrl || "";
    tabUrls.set(tabId, url);
    return url;
  } catch {
    return tabUrls.get(tabId) ?? "";
  }
}

/** @param {number} tabId */
async function refuseTab(tabId) {
  if (personControls.tabSharing && !personControls.sharedTabs.includes(tabId)) {
    throw new Error("tab_not_shared: Tab sharing is on and the person has not shared this tab.");
  }
  if (rulesRestrict()) refuseUrl(await tabUrl(tabId));
}

/**
 * Called for every host request before it is handled.
 * @param {GateRequest} msg
 */
async function controlsGate(msg) {
  await controlsLoaded;
  const type = msg.type;
  const touches = type === "cdp" || type === "batch" || type === "attach";
  if (!touches && type !== "newTab" && type !== "navigateTab") return;
  if (personControls.stopped) throw stoppedError();
  if (type === "newTab") return;
  if (Number.isInteger(msg.tabId)) await refuseTab(/** @type {number} */ (msg.tabId));
  if (!rulesRestrict()) return;
  if (type === "navigateTab") refuseUrl(msg.url);
  if (type === "cdp" && msg.method === "Page.navigate") refuseUrl(msg.params?.url);
  if (type === "batch" && Array.isArray(msg.commands)) {
    for (const c of msg.commands) if (c?.method === "Page.navigate") refuseUrl(c.params?.url);
  }
}

/**
 * A tab the agent opened (newTab) is shared with it.
 * @param {number} tabId
 */
async function controlsTabOpened(tabId) {
  await controlsLoaded;
  if (personControls.sharedTabs.includes(tabId)) return;
  const shared = [...personControls.sharedTabs, tabId];
  personControls.sharedTabs = shared;
  await chrome.storage.session.set({ sharedTabs: shared }).catch(() => {});
  await sendControls(); // before newTab's reply: the host knows the tab is shared when it gets it
}

// The tabs this worker must let go of now: all when stopped, else those now refused.
async function controlsSweep() {
  if (personControls.stopped) {
    await detachAll();
    return;
  }
  for (const tabId of [...attached]) {
    try {
      await refuseTab(tabId);
    } catch {
      forget(tabId);
      await chrome.debugger.detach({ tabId }).catch(() => {});
    }
  }
}

chrome.storage.onChanged.addListener((changes, area) => {
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [key, change] of Object.entries(changes)) values[key] = change.newValue;
  if (area === "local" && Object.keys(values).some((k) => k in CONTROL_DEFAULTS)) {
    /** @type {Record<string, unknown>} */
    const filled = {};
    for (const [key, fallback] of Object.entries(CONTROL_DEFAULTS)) if (key in values) filled[key] = values[key] ?? fallback;
    takeControls(filled);
  } else if (area === "session" && "sharedTabs" in values) {
    personControls.sharedTabs = Array.isArray(values.sharedTabs) ? values.sharedTabs : [];
  } else {
    return;
  }
  // Stop first (the banner goes at once), then tell the host (it fails what is running).
  if (typeof guardRefresh === "function") guardRefresh().catch(() => {});
  controlsSweep().catch(() => {}).finally(() => sendControls());
  updateBadge();
});

// A tab that went to a blocked site while attached is let go.
chrome.tabs.onUpdated.addListener((tabId, changeInfo) => {
  if (changeInfo.url === undefined) return;
  tabUrls.set(tabId, changeInfo.url);
  if (attached.has(tabId) && rulesRestrict() && siteVerdict(changeInfo.url, personControls) !== "allowed") {
    forget(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
    // The call running in it (if any) answers site_blocked: the browser refused the page
    // (site_guard.js), or the person went there; either way nothing of it is read.
    post({ type: "siteBlocked", tabId, url: changeInfo.url });
  }
});

chrome.tabs.onRemoved.addListener((tabId) => {
  tabUrls.delete(tabId);
  if (personControls.sharedTabs.includes(tabId)) {
    const shared = personControls.sharedTabs.filter((t) => t !== tabId);
    chrome.storage.session.set({ sharedTabs: shared }).catch(() => {});
  }
});

// ------------------------------------------------------- activity, agent state
// Writes to chrome.storage.session one after the other (a read-modify-write each).
let sessionWrites = Promise.resolve();
/** @param {() => Promise<void>} work */
function inOrder(work) {
  sessionWrites = sessionWrites.then(work, work).catch(() => {});
  return sessionWrites;
}

const ENTRY_FIELDS = { time: "number", tabId: "number", title: "string", text: "string", outcome: "string" };

const controlHandlers = {
  /** @param {ActivityRequest} msg */
  async activity({ entry }) {
    if (!entry || typeof entry !== "object") throw badRequest("entry must be an object");
    /** @type {Record<string, unknown>} */
    const clean = {};
    for (const [key, type] of Object.entries(ENTRY_FIELDS)) {
      const value = entry[key];
      if (typeof value === type) clean[key] = typeof value === "string" ? value.slice(0, 300) : value;
    }
    if (!clean.title && Number.isInteger(clean.tabId)) {
      clean.title = await chrome.tabs.get(/** @type {number} */ (clean.tabId)).then((t) => t.title || t.url || "", () => "");
    }
    await inOrder(async () => {
      const { activity } = await chrome.storage.session.get("activity");
      const list = Array.isArray(activity) ? activity : [];
      list.push(clean);
      await chrome.storage.session.set({ activity: list.slice(-ACTIVITY_MAX) });
    });
    return { logged: true };
  },

  /** @param {AgentStateRequest} msg */
  async agentState({ working, tabId }) {
    const agent = { working: working === true, tabId: Number.isInteger(tabId) ? tabId : null, since: Date.now() };
    await chrome.storage.session.set({ agent });
    return { ok: true };
  },
};

// The popup's view of the connection (called from updateBadge).
let lastHostError = "";
/**
 * @param {boolean} connected
 * @param {string} [error] why not (none: the last reason given)
 */
function controlsHostStatus(connected, error) {
  if (error !== undefined) lastHostError = error;
  const hostStatus = { connected, error: connected ? "" : lastHostError, attached: [...attached], stopped: personControls.stopped };
  chrome.storage.session.set({ hostStatus }).catch(() => {});
  if (!connected) chrome.storage.session.set({ agent: { working: false, tabId: null, since: Date.now() } }).catch(() => {});
}

// The toolbar badge: whether the host is connected and how many tabs are attached.
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

/**
 * The badge is cosmetic; never let it break the relay.
 * @param {() => Promise<unknown> | void} fn
 */
function quietly(fn) {
  try {
    fn()?.catch?.(() => {});
  } catch {}
}
