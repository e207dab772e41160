// @ts-check
// Tabs: the host's tab tools (list, open, navigate, close, activate), the ID watermarks kept for
// it across restarts, and the notices of tabs created, updated, activated, removed and replaced.
// Loaded by service-worker.js (importScripts), after cdp.js.
/* global attached, forget, post, badRequest, requireTabId, quietly, urlAllowed, controlsTabOpened */
/* exported tabHandlers, loadWatermarks */

/** @typedef {HostRequest & {tabId: number, url: string}} NavigateTabRequest */
/** @typedef {HostRequest & {tabId: number, high: number}} WatermarkRequest */

// ------------------------------------------------------------ ID watermarks
// The highest element ID the host gave out in each tab, kept in chrome.storage.session: it lives
// as long as the browser session (tab ids are never reused within it) and survives a restart of
// this worker and of the host. Keys "wm:<tabId>", one per tab, so concurrent writes never clash.

const WATERMARK_PREFIX = "wm:";

async function loadWatermarks() {
  try {
    const all = await chrome.storage.session.get(null);
    /** @type {Record<string, number>} tabId -> the highest ID given out there */
    const out = {};
    for (const [key, high] of Object.entries(all)) {
      if (!key.startsWith(WATERMARK_PREFIX) || typeof high !== "number" || !Number.isInteger(high)) continue;
      out[key.slice(WATERMARK_PREFIX.length)] = high;
    }
    return out;
  } catch {
    return {};
  }
}

/** @param {number} tabId */
function forgetWatermark(tabId) {
  quietly(() => chrome.storage.session.remove(WATERMARK_PREFIX + tabId));
}

const tabHandlers = {
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
        attached: t.id !== undefined && attached.has(t.id),
      })),
      lastFocusedWindowId: focused?.id ?? null,
    };
  },

  // Tab tools: a new tab always starts blank (the host navigates it, under its URL policy).
  async newTab() {
    const tab = await chrome.tabs.create({ url: "about:blank", active: true });
    await controlsTabOpened(/** @type {number} */ (tab.id)); // the agent's own tab is shared with it
    return { tabId: tab.id, windowId: tab.windowId };
  },

  // Only for leaving a page chrome.debugger cannot attach to (chrome://newtab, settings): the
  // host navigates every other page itself, after its URL policy.
  /** @param {NavigateTabRequest} msg */
  async navigateTab({ tabId, url }) {
    requireTabId(tabId);
    if (!urlAllowed(url) || !/^https?:/i.test(url)) throw badRequest("url must be http(s)");
    await chrome.tabs.update(tabId, { url });
    return { navigating: true };
  },

  /** @param {TabRequest} msg */
  async closeTab({ tabId }) {
    requireTabId(tabId);
    await chrome.tabs.remove(tabId);
    return { closed: true };
  },

  /** @param {TabRequest} msg */
  async activateTab({ tabId }) {
    requireTabId(tabId);
    // (With the "tabs" permission, update gives the tab.)
    const tab = /** @type {chrome.tabs.Tab} */ (await chrome.tabs.update(tabId, { active: true }));
    await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
    return { activated: true };
  },

  // Kept only ever higher: the host hands over its tab's highest ID after a snapshot gave out new ones.
  /** @param {WatermarkRequest} msg */
  async watermark({ tabId, high }) {
    requireTabId(tabId);
    if (!Number.isSafeInteger(high) || high < 0) throw badRequest("high must be a non-negative integer");
    const key = WATERMARK_PREFIX + tabId;
    /** @type {unknown} */
    const stored = (await chrome.storage.session.get(key))[key];
    const kept = typeof stored === "number" && Number.isInteger(stored) ? stored : null;
    if (kept === null || high > kept) await chrome.storage.session.set({ [key]: high });
    return { high: Math.max(high, kept ?? 0) };
  },
};

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
  /** @type {Record<string, unknown>} */
  const change = {};
  for (const key of /** @type {const} */ (["status", "url", "title"])) {
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
