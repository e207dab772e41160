// @ts-check
// browserx relay: a thin pipe between the native host and chrome.debugger.
// The host owns all the logic. This worker forwards messages, remembers what it
// attached, and cleans up when the host goes away.
//
//
// Its parts, loaded in this order: a script's top-level code uses only what the scripts before it
// define (cdp.js's ALLOWED needs allowlist.js and allowlist-test.js, the handlers table below all
// of them), and every listener is added during this first run, as Chrome wants of a service
// worker; the listeners of one event run in the order the scripts added them.
/* global controlHandlers, askHandlers, guardHandlers, cdpHandlers, tabHandlers, VERSION, connect */
/* exported handlers, urlAllowed */
importScripts("allowlist.js"); // the CDP methods the relay forwards
importScripts("controls.js"); // the person's controls: Stop, site rules, tab sharing, Activity, the badge
importScripts("asks.js"); // the questions the agent waits on: ask_user, confirmations, sites
importScripts("site_guard.js"); // site rules in the browser's network layer while a call runs
// Only the test suite's copy of the extension has this file (tests/e2e/harness.py writes it).
try {
  importScripts("allowlist-test.js");
} catch {
  // the shipped extension: the host's methods only
}
importScripts("relay.js"); // the native port: connection, hello, replies and notices, dispatch
importScripts("cdp.js"); // CDP commands, batches, attach and detach, events
importScripts("tabs.js"); // the tab tools, ID watermarks, tab notices

// Every request the host may send, by its type (relay.js's handle dispatches them).
/** @type {Record<string, Handler>} */
const handlers = {
  ...cdpHandlers,
  ...tabHandlers,

  ping() {
    return { pong: true, version: VERSION };
  },

  ...controlHandlers,
  ...askHandlers,
  ...guardHandlers,
};

// Defence in depth for the host's URL allowlist (host/browserx/url_policy.py): a tab is sent only
// to http(s) with a host, exactly about:blank, or file: (which the host allows only when the user
// did). Parsed by the WHATWG URL parser, as the browser will read it.
// url-allowed-begin (tests/test_url_policy.py runs this function)
/** @param {unknown} url */
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

// ------------------------------------------------------------ startup

chrome.runtime.onStartup.addListener(() => connect());
chrome.runtime.onInstalled.addListener(() => connect());
connect();
