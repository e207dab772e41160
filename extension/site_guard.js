// @ts-check
// Site rules in the browser's network layer (issue 34). While an agent call runs in a tab, and for
// a moment after while its effects settle, declarativeNetRequest session rules refuse every request
// to a site the person's rules keep browserx off. The browser checks each one, whatever sent it:
// a redirect hop, a form post, a script's navigation, a popup, a prefetch. The host's own checks
// before a click (actions/links.py) are only the early, friendlier answer.
//
// The rules bind the agent, never the person. They are in force only while a call is guarded, and
// they skip every tab that existed then and is not guarded: the person's own tabs. A tab opened
// while a call is guarded (the page's popup, its target=_blank link) is not among those skipped,
// so it is refused from its first request. Requests of no tab (a page's service worker) are
// refused too while a call is guarded.
// Loaded by service-worker.js (importScripts), after controls.js.
/* global personControls, normalizePattern, rulesRestrict -- controls.js's */
/* exported guardHandlers, guardRefresh, guardDropAll */

const GUARD_LINGER_MS = 500; // after a call: its effects settle (a timer, a redirect)
const GUARD_MAX_MS = 300_000; // a guard the host never lifted (it died mid-call) goes by then
// Every resource type: a rule naming none matches all but main_frame.
/** @type {chrome.declarativeNetRequest.ResourceType[]} */
const ALL_TYPES = /** @type {any} */ ([
  "main_frame", "sub_frame", "stylesheet", "script", "image", "font", "object", "xmlhttprequest",
  "ping", "csp_report", "media", "websocket", "webtransport", "webbundle", "other",
]);

/** @type {Map<number, {calls: number, linger?: ReturnType<typeof setTimeout>, expiry?: ReturnType<typeof setTimeout>}>} */
const guardedTabs = new Map();
let guardChain = Promise.resolve();
/** @type {number[]} */
let guardRuleIds = [];
// Rules a previous worker left (it stopped mid-call): none is in force before a call arms it.
guardQueue(async () => {
  const old = await chrome.declarativeNetRequest.getSessionRules();
  if (old.length) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old.map((r) => r.id) });
});

/** @param {string} text */
function regexQuote(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A regexFilter for the URLs on the hosts a pattern names, as siteMatches (controls.js) reads it:
 * "host" that host only, "*.host" it and its subdomains, an IPv4 address also as the IPv4-mapped
 * IPv6 address Chrome writes. null: a pattern that names nothing.
 * @param {string} pattern
 */
function patternRegex(pattern) {
  const p = normalizePattern(pattern);
  if (!p) return null;
  const start = "^[a-z][a-z0-9+.-]*://([^/?#@]*@)?";
  if (p === "*") return start;
  const wild = p.startsWith("*.");
  const base = wild ? p.slice(2) : p;
  if (!base) return null;
  const spellings = [base.includes(":") ? `\\[${regexQuote(base)}\\]` : regexQuote(base)];
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(base);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    spellings.push(`\\[::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}\\]`);
  }
  const sub = wild ? "([^/?#@:]+\\.)?" : "";
  return `${start}${sub}(${spellings.join("|")})\\.*(:[0-9]*)?([/?#]|$)`; // (trailing dots: one host)
}

/**
 * The session rules for the person's site rules, skipping the tabs in `skipped`: blocked sites
 * refused for every request; in "listed" mode every site not listed too; in "ask" mode a page
 * (main frame) on a site not allowed yet (the host asks before it goes there).
 * @param {number[]} skipped
 */
function guardRules(skipped) {
  /** @type {chrome.declarativeNetRequest.Rule[]} */
  const rules = [];
  const skip = skipped.length ? { excludedTabIds: skipped } : {};
  /**
   * @param {number} priority
   * @param {"block" | "allow"} type
   * @param {string | null} regex
   * @param {chrome.declarativeNetRequest.ResourceType[]} types
   */
  const add = (priority, type, regex, types) => {
    const condition = { ...skip, resourceTypes: types, ...(regex ? { regexFilter: regex } : {}) };
    rules.push({ id: rules.length + 1, priority, action: { type }, condition });
  };
  const mode = personControls.siteMode;
  if (mode === "listed" || mode === "ask") {
    add(1, "block", null, mode === "listed" ? ALL_TYPES : ALL_TYPES.slice(0, 1)); // (main_frame)
    for (const p of personControls.allowedSites) {
      const regex = patternRegex(p);
      if (regex) add(2, "allow", regex, ALL_TYPES);
    }
  }
  for (const p of personControls.blockedSites) {
    const regex = patternRegex(p);
    if (regex) add(3, "block", regex, ALL_TYPES);
  }
  return rules;
}

/**
 * Run `work` after every earlier change of the rules; its failure reaches the caller only.
 * @param {() => Promise<void>} work
 */
function guardQueue(work) {
  const done = guardChain.then(work);
  guardChain = done.catch(() => {});
  return done;
}

// Put the rules in force for the tabs guarded now (none: no rule).
function guardRefresh() {
  return guardQueue(async () => {
    /** @type {chrome.declarativeNetRequest.Rule[]} */
    let addRules = [];
    if (guardedTabs.size && rulesRestrict()) {
      const tabs = await chrome.tabs.query({});
      const skipped = tabs.flatMap((t) => (t.id !== undefined && !guardedTabs.has(t.id) ? [t.id] : []));
      addRules = guardRules(skipped);
    }
    if (!addRules.length && !guardRuleIds.length) return;
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: guardRuleIds, addRules });
    guardRuleIds = addRules.map((r) => r.id);
  });
}

/** @param {number} tabId */
function guardLift(tabId) {
  const entry = guardedTabs.get(tabId);
  if (!entry) return;
  clearTimeout(entry.linger);
  clearTimeout(entry.expiry);
  guardedTabs.delete(tabId);
  guardRefresh().catch(() => {});
}

// The host is gone: no call runs.
function guardDropAll() {
  for (const entry of guardedTabs.values()) {
    clearTimeout(entry.linger);
    clearTimeout(entry.expiry);
  }
  guardedTabs.clear();
  return guardRefresh();
}

const guardHandlers = {
  // The host guards a tab for one call ({on: true}, answered once the rules are in force) and lifts
  // it after ({on: false}, the rules go GUARD_LINGER_MS later unless another call comes).
  async siteGuard({ tabId, on }) {
    if (!Number.isInteger(tabId) || tabId < 0) throw new Error("bad request: tabId must be a tab's id");
    const entry = guardedTabs.get(tabId);
    if (on !== true) {
      if (entry && --entry.calls <= 0) {
        entry.calls = 0;
        clearTimeout(entry.linger);
        entry.linger = setTimeout(() => guardLift(tabId), GUARD_LINGER_MS);
      }
      return { guarded: false };
    }
    if (entry) {
      entry.calls++;
      clearTimeout(entry.linger);
      clearTimeout(entry.expiry);
      entry.expiry = setTimeout(() => guardLift(tabId), GUARD_MAX_MS);
      await guardQueue(async () => {}); // the rules asked for earlier are in force
    } else {
      const expiry = setTimeout(() => guardLift(tabId), GUARD_MAX_MS);
      guardedTabs.set(tabId, { calls: 1, expiry });
      try {
        await guardRefresh();
      } catch (err) {
        clearTimeout(expiry); // not guarded: the call fails, and the next one tries again
        guardedTabs.delete(tabId);
        throw err;
      }
    }
    return { guarded: true, rules: guardRuleIds.length };
  },
};

chrome.tabs.onRemoved.addListener((tabId) => guardLift(tabId));
