// @ts-check
// The toolbar popup: the host's connection, the agent's state, the person's controls
// (Stop agent / Resume, Share this tab), the attached tabs and the Activity list. Everything it
// shows comes from chrome.storage (written by the service worker, extension/controls.js); what
// the person decides goes back there and the worker and the host act on it. The #ask section is
// popup-ask.js's.
//
// Opened as a page (tests, or a pinned tab), `popup.html?tab=<id>` names the tab "this tab" means.
"use strict";

/**
 * What the popup shows, as chrome.storage holds it: the person's settings (local) and what the
 * service worker writes (session: controls.js). Each is checked where it is read.
 * @typedef {{stopped?: boolean, tabSharing?: boolean}} LocalState
 * @typedef {{hostStatus?: HostStatus, agent?: AgentState, activity?: ActivityEntry[], sharedTabs?: number[]}} SessionState
 * @typedef {{connected?: boolean, error?: string, attached?: number[], stopped?: boolean}} HostStatus
 * @typedef {{working?: boolean, tabId?: number | null, since?: number}} AgentState
 * @typedef {{time: number, tabId?: number, title?: string, text?: string, outcome?: string}} ActivityEntry
 */

/** @param {string} id one of popup.html's sections and lists, by ID */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @param {string} tag
 * @param {Record<string, string | (() => void)>} [attrs] its attributes; "onclick": its click listener
 * @param {(Node | string)[]} children
 */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", /** @type {() => void} */ (value));
    else node.setAttribute(key, /** @type {string} */ (value));
  }
  for (const child of children) node.append(child);
  return node;
}

/** @param {HTMLElement} section @param {(Node | string)[]} children */
function fill(section, ...children) {
  const keep = section.querySelector("h2");
  section.replaceChildren(...(keep ? [keep] : []), ...children);
}

/** @param {number | null | undefined} tabId */
async function titleOf(tabId) {
  if (!Number.isInteger(tabId)) return "";
  try {
    const tab = await chrome.tabs.get(/** @type {number} */ (tabId));
    return tab.title || tab.url || `tab ${tabId}`;
  } catch {
    return `tab ${tabId} (closed)`;
  }
}

// The tab "Share this tab" is about: ?tab=<id>, else the active tab of the last focused window.
async function thisTab() {
  const asked = Number(new URLSearchParams(location.search).get("tab"));
  if (Number.isInteger(asked) && asked > 0) return chrome.tabs.get(asked).catch(() => null);
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab && !tab.url?.startsWith(location.origin) ? tab : null;
}

/** @type {{local: LocalState, session: SessionState}} */
let state = { local: {}, session: {} };

async function load() {
  const [local, session] = await Promise.all([
    chrome.storage.local.get(["stopped", "tabSharing"]),
    chrome.storage.session.get(["hostStatus", "agent", "activity", "sharedTabs"]),
  ]);
  state = { local: /** @type {LocalState} */ (local), session: /** @type {SessionState} */ (session) };
  await render();
}

async function render() {
  const { local, session } = state;
  const host = session.hostStatus || {};
  const stopped = local.stopped === true;

  // Host
  if (host.connected) {
    fill($("host"), el("p", { id: "host-state", class: "ok" }, "Host connected"));
  } else if (/not found|not installed/i.test(host.error || "")) {
    fill($("host"),
      el("p", { id: "host-state", class: "bad" }, "Host not installed"),
      el("p", {}, "Install it once, from the browserx folder:"),
      el("code", { id: "install-command" }, "make install-host"));
  } else {
    fill($("host"), el("p", { id: "host-state", class: "bad" }, "Host not connected"),
      el("p", { class: "hint" }, host.error ? `(${host.error}) ` : "", "The browser restarts it on its own."));
  }

  // Agent
  const agent = session.agent || {};
  let line = "Agent: idle";
  if (stopped) line = "Agent: stopped by you";
  else if (agent.working) line = `Agent: working in tab ${(await titleOf(agent.tabId)) || "(unknown)"}`;
  fill($("agent"), el("p", { id: "agent-state" }, line));

  // Stop / Resume
  const controls = [];
  if (stopped) {
    controls.push(
      el("p", { class: "bad" }, "Stopped: the agent can do nothing in this browser until you resume."),
      el("button", { id: "resume", type: "button", onclick: () => chrome.storage.local.set({ stopped: false }) }, "Resume"));
  } else {
    controls.push(el("button", { id: "stop", type: "button", class: "danger",
      onclick: () => chrome.storage.local.set({ stopped: true }) }, "Stop agent"));
  }
  fill($("controls"), ...controls);

  // Share this tab (only when tab sharing is on)
  const share = $("share");
  if (local.tabSharing === true) {
    const tab = await thisTab();
    const shared = Array.isArray(session.sharedTabs) ? session.sharedTabs : [];
    const id = /** @type {number} */ (tab?.id); // (a tab tabs.get or tabs.query gives has one)
    if (!tab) {
      fill(share, el("p", { class: "hint" }, "Tab sharing is on: open this on the tab you want to share."));
    } else if (shared.includes(id)) {
      fill(share, el("p", {}, `Shared with the agent: ${tab.title || tab.url}`),
        el("button", { id: "unshare", type: "button",
          onclick: () => setShared(id, false) }, "Stop sharing"));
    } else {
      fill(share, el("p", {}, `Not shared: ${tab.title || tab.url}`),
        el("button", { id: "share-tab", type: "button", onclick: () => setShared(id, true) }, "Share this tab"));
    }
  } else {
    fill(share);
  }

  // Attached tabs
  const attachedIds = Array.isArray(host.attached) ? host.attached : [];
  const items = await Promise.all(attachedIds.map(async (id) => el("li", { "data-tab": String(id) }, await titleOf(id))));
  $("tabs").replaceChildren(el("h2", {}, "Attached tabs"),
    items.length ? el("ul", { id: "tabs-list" }, ...items) : el("p", { class: "hint" }, "None"));

  // Activity, newest first
  const list = $("activity-list");
  const entries = Array.isArray(session.activity) ? session.activity : [];
  list.replaceChildren(...entries.slice().reverse().map((e) => el("li", { class: `outcome-${e.outcome === "ok" ? "ok" : "error"}` },
    el("time", {}, new Date(e.time).toLocaleTimeString()), " ",
    el("span", { class: "tab-title" }, e.title || ""), " ",
    el("span", { class: "what" }, e.text || ""), " ",
    el("span", { class: "outcome" }, e.outcome || ""))));
  if (!entries.length) list.replaceChildren(el("li", { class: "hint" }, "Nothing yet"));
}

/** @param {number} tabId @param {boolean} on */
async function setShared(tabId, on) {
  const { sharedTabs } = await chrome.storage.session.get("sharedTabs");
  const shared = new Set(Array.isArray(sharedTabs) ? sharedTabs : []);
  if (on) shared.add(tabId);
  else shared.delete(tabId);
  await chrome.storage.session.set({ sharedTabs: [...shared] });
}

chrome.storage.onChanged.addListener((changes, area) => {
  const part = area === "local" ? state.local : area === "session" ? state.session : null;
  if (!part) return;
  for (const [key, change] of Object.entries(changes)) /** @type {Record<string, unknown>} */ (part)[key] = change.newValue;
  render();
});

load();
