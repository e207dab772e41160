// @ts-check
// Site rules in the browser's network layer. While an agent call runs in a tab, and for
// a moment after while its effects settle, declarativeNetRequest session rules refuse every request
// to a site the person's rules keep browserx off. The browser checks each one, whatever sent it:
// a redirect hop, a form post, a script's navigation, a popup, a prefetch. The host's own checks
// before a click (actions/links.py) are only the early, friendlier answer.
//
// The rules bind the agent, never the person. They are in force only while a call is guarded, and
// they skip the person's tabs: every tab that existed when the first call was guarded and is not
// guarded itself, and the tabs those open. Any other tab opened meanwhile (the page's popup, its
// target=_blank link) is not skipped, so it is refused from its first request. Requests of no tab (a page's service worker) are refused too while a call
// is guarded. The rules are the host's (the config file's and the options page's, merged), united
// here with the options page's as they are now (a site the person just allowed in "ask" mode).
// Loaded by service-worker.js (importScripts), after controls.js.
/* global personControls, normalizePattern, siteVerdict -- controls.js's */
/* exported guardHandlers, guardRefresh, guardDropAll */

// After a call: its effects settle (a timer, a redirect), and an agent's next call, seconds later,
// finds the rules in force (bench/gates.py: putting them back costs a call ~8-12 ms, finding them
// there ~6 ms, a round trip through the worker).
const GUARD_LINGER_MS = 3000;
// A guard the host never lifted goes by then (a host that dies drops every guard at once: the port
// closes); longer than any call can run (timeouts, the person's answers).
const GUARD_MAX_MS = 900_000;
const LONG_HOST = 60; // a longer host is matched with requestDomains (subdomains too): RE2's 2 KB budget
// Every resource type: a rule naming none matches all but main_frame.
/** @type {chrome.declarativeNetRequest.ResourceType[]} */
const ALL_TYPES = /** @type {any} */ ([
  "main_frame", "sub_frame", "stylesheet", "script", "image", "font", "object", "xmlhttprequest",
  "ping", "csp_report", "media", "websocket", "webtransport", "webbundle", "other",
]);

/**
 * The host's site rules (control/person/site_guard.py), from its config and the options page, merged.
 * @typedef {{mode: string, blocked: string[], allowed: string[]}} GuardSites
 */
/** @typedef {HostRequest & {tabId: number, on: boolean, rules?: GuardSites}} SiteGuardRequest */
/** @typedef {{calls: number, ready: Promise<void>, linger?: ReturnType<typeof setTimeout>, expiry?: ReturnType<typeof setTimeout>}} Guard */
/** @type {Map<number, Guard>} */
const guardedTabs = new Map();
/** @type {Set<number> | null} the person's tabs while any call is guarded (skipped by the rules) */
let personTabs = null;
/** @type {GuardSites} the host's rules, from its last siteGuard */
let hostRules = { mode: "all", blocked: [], allowed: [] };
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
 * The condition that matches URLs on the hosts a pattern names, as siteMatches (controls.js) reads
 * it: "host" that host only (a regexFilter over the URL as the network layer sees it: any user
 * name and port, trailing dots, an IPv4 address also as the IPv4-mapped IPv6 address Chrome
 * writes), "*.host" it and its subdomains (requestDomains). A host too long for a regex is matched
 * with its subdomains (stricter). null: a pattern that names nothing; {}: every host ("*").
 * @param {string} pattern
 * @returns {{regexFilter?: string, requestDomains?: string[]} | null}
 */
function patternCondition(pattern) {
  const p = normalizePattern(pattern);
  if (!p) return null;
  if (p === "*") return {};
  const wild = p.startsWith("*.");
  const base = wild ? p.slice(2) : p;
  if (!base) return null;
  const ip = base.includes(":") || /^[\d.]+$/.test(base);
  if (!ip && (wild || base.length > LONG_HOST)) return { requestDomains: [base] };
  const spellings = [base.includes(":") ? `\\[${regexQuote(base)}\\]` : regexQuote(base)];
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(base);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    spellings.push(`\\[::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}\\]`);
  }
  const sub = wild ? "([^/?#@:]+\\.)?" : "";
  // (trailing dots: one host)
  return { regexFilter: `^[a-z][a-z0-9+.-]*://([^/?#@]*@)?${sub}(${spellings.join("|")})\\.*(:[0-9]*)?([/?#]|$)` };
}

// The rules in force: the host's and the options page's now, the stricter of each (as
// site_rules.merge on the host: blocked lists united, the strictest mode, the allowed lists of the
// sources whose mode is not "all").
function guardSites() {
  const page = { mode: personControls.siteMode, blocked: personControls.blockedSites, allowed: personControls.allowedSites };
  /** @type {Record<string, number>} */
  const strict = { all: 0, ask: 1, listed: 2 };
  const mode = [hostRules, page].map((r) => r.mode).reduce((a, b) => ((strict[b] ?? 0) > (strict[a] ?? 0) ? b : a), "all");
  const blocked = [...hostRules.blocked, ...page.blocked];
  const allowed = [hostRules, page].flatMap((r) => (r.mode === "all" ? [] : r.allowed));
  return { mode, blocked, allowed };
}

/**
 * The session rules for the site rules in force, skipping the tabs in `skipped`: blocked sites
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
   * @param {{regexFilter?: string, requestDomains?: string[]}} match
   * @param {chrome.declarativeNetRequest.ResourceType[]} types
   */
  const add = (priority, type, match, types) => {
    rules.push({ id: rules.length + 1, priority, action: { type }, condition: { ...skip, resourceTypes: types, ...match } });
  };
  const sites = guardSites();
  if (sites.mode === "listed" || sites.mode === "ask") {
    add(1, "block", {}, sites.mode === "listed" ? ALL_TYPES : ALL_TYPES.slice(0, 1)); // (main_frame)
    for (const p of sites.allowed) {
      const match = patternCondition(p);
      if (match) add(2, "allow", match, ALL_TYPES);
    }
  }
  for (const p of sites.blocked) {
    const match = patternCondition(p);
    if (match) add(3, "block", match, ALL_TYPES);
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
    if (guardedTabs.size) {
      if (personTabs === null) {
        const tabs = await chrome.tabs.query({});
        personTabs = new Set(tabs.flatMap((t) => (t.id !== undefined ? [t.id] : [])));
      }
      for (const tabId of guardedTabs.keys()) personTabs.delete(tabId);
      addRules = guardRules([...personTabs]);
    } else {
      personTabs = null;
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

/**
 * The host's rules of a siteGuard message (anything else: none of its own).
 * @param {{mode?: unknown, blocked?: unknown, allowed?: unknown} | null | undefined} rules
 */
function takeHostRules(rules) {
  /** @type {(v: unknown) => string[]} */
  const list = (v) => (Array.isArray(v) ? v.filter((p) => typeof p === "string").slice(0, 1000) : []);
  const given = rules?.mode;
  const mode = given === "all" || given === "listed" || given === "ask" ? given : "all";
  const next = { mode, blocked: list(rules?.blocked), allowed: list(rules?.allowed) };
  const changed = JSON.stringify(next) !== JSON.stringify(hostRules);
  hostRules = next;
  return changed;
}

/**
 * Whether the rules in force refuse a URL (as siteVerdict reads them).
 * @param {string} url
 */
function guardRefuses(url) {
  const sites = guardSites();
  const verdict = siteVerdict(url, { siteMode: sites.mode, blockedSites: sites.blocked, allowedSites: sites.allowed });
  return verdict === "blocked" || verdict === "unlisted" || verdict === "ask";
}

const guardHandlers = {
  // The host guards a tab for one call ({on: true, rules}, answered once the rules are in force)
  // and lifts it after ({on: false}, the rules go GUARD_LINGER_MS later unless another call comes).
  // A tab already on its way to a refused page (a navigation the page started before the call) is
  // refused: the rules judge requests as they start, and that one has.
  /** @param {SiteGuardRequest} msg */
  async siteGuard({ tabId, on, rules }) {
    if (!Number.isInteger(tabId) || tabId < 0) throw new Error("bad request: tabId must be a tab's id");
    let entry = guardedTabs.get(tabId);
    if (on !== true) {
      if (entry && --entry.calls <= 0) {
        entry.calls = 0;
        clearTimeout(entry.linger);
        entry.linger = setTimeout(() => guardLift(tabId), GUARD_LINGER_MS);
      }
      return { guarded: false };
    }
    const changed = takeHostRules(rules);
    const fresh = !entry;
    if (entry) {
      entry.calls++;
      clearTimeout(entry.linger);
      clearTimeout(entry.expiry);
      entry.expiry = setTimeout(() => guardLift(tabId), GUARD_MAX_MS);
      if (changed) entry.ready = guardRefresh();
    } else {
      const expiry = setTimeout(() => guardLift(tabId), GUARD_MAX_MS);
      entry = { calls: 1, expiry, ready: guardRefresh() };
      guardedTabs.set(tabId, entry);
      const made = entry;
      made.ready.catch(() => {
        if (guardedTabs.get(tabId) !== made) return;
        clearTimeout(made.expiry); // not guarded: the call fails, and the next one tries again
        guardedTabs.delete(tabId);
      });
    }
    await entry.ready; // every call of the tab waits on the same rules, and fails with them
    if (!fresh) return { guarded: true, rules: guardRuleIds.length }; // (guarded since: judged by them)
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    const going = tab ? tab.pendingUrl || tab.url || "" : "";
    if (going && guardRefuses(going)) throw new Error("site_blocked: The tab is on its way to a site the person's rules refuse.");
    return { guarded: true, rules: guardRuleIds.length };
  },
};

chrome.tabs.onRemoved.addListener((tabId) => {
  guardLift(tabId);
  personTabs?.delete(tabId);
});

// A tab opened while a call is guarded stays under the rules (a page can open one without naming
// its opener: noopener), unless one of the person's tabs opened it. (One the person opens by hand
// meanwhile is refused blocked sites until the agent's calls pause for GUARD_LINGER_MS.)
chrome.tabs.onCreated.addListener((tab) => {
  if (personTabs === null || tab.id === undefined || tab.openerTabId === undefined) return;
  if (personTabs.has(tab.openerTabId)) {
    personTabs.add(tab.id);
    guardRefresh().catch(() => {});
  }
});
