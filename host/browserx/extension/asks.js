// @ts-check
// The questions the agent waits on, the service worker's side: the host's `ask` (ask_user's
// question, a confirmation before a sensitive action, "Allow browserx on this site?") is kept in
// chrome.storage.session under "ask:<askId>" — where the popup (popup-ask.js), opened at any time,
// shows it — and the toolbar badge shows "?" while one waits. The popup's answer comes back as a
// runtime message and goes to the host as the notice {type: "answer", askId, answer, allowed}; the
// host's `askDone` takes back one nobody answered. A site the person allowed joins allowedSites in
// chrome.storage.local, one they blocked blockedSites. Loaded by service-worker.js (importScripts);
// host side: host/browserx/control/person/ask.py.
/* exported askHandlers, askBadge */
/* global port, post, badRequest, updateBadge, quietly, takeControls, guardRefresh */

const ASK_PREFIX = "ask:";
const ASK_KINDS = new Set(["question", "confirm", "site"]);
const ASK_MAX_TEXT = 1000;
const ASK_MAX_ANSWER = 4000;
const ASK_MAX_CHOICES = 10;

/**
 * A question for the person (host/browserx/control/person/ask.py): `site` names the site a "site" question is about.
 * @typedef {HostRequest & {askId: string, kind: string, question: string, choices: string[] | null, timeoutS: number,
 *   tabId: number | null, site: string | null}} AskRequest
 */
/** @typedef {HostRequest & {askId: string}} AskDoneRequest */
/**
 * A question as the popup finds it in chrome.storage.session, under "ask:<askId>".
 * @typedef {{askId: string, kind: string, question: string, choices: string[], timeoutS: number, tabId: number | null,
 *   site: string | null, since: number}} AskEntry
 */
/** @typedef {{type: "askAnswer", askId: string, answer?: unknown, allowed?: unknown}} AskAnswer the popup's answer */

/** @type {Set<string>} askIds shown in the popup, waiting for the person */
const waitingAsks = new Set();

const askHandlers = {
  /** @param {AskRequest} msg */
  async ask({ askId, kind, question, choices, timeoutS, tabId, site }) {
    if (typeof askId !== "string" || !/^[0-9a-f]{1,64}$/.test(askId)) throw badRequest("askId must be hex");
    if (!ASK_KINDS.has(kind)) throw badRequest("kind must be question, confirm or site");
    if (typeof question !== "string" || !question) throw badRequest("question must be a string");
    if (choices != null && (!Array.isArray(choices) || choices.some((c) => typeof c !== "string"))) {
      throw badRequest("choices must be a list of strings");
    }
    if (kind === "site" && (typeof site !== "string" || !site)) throw badRequest("a site question names its site");
    /** @type {AskEntry} */
    const entry = {
      askId,
      kind,
      question: question.slice(0, ASK_MAX_TEXT),
      choices: (choices || []).slice(0, ASK_MAX_CHOICES).map((c) => c.slice(0, 100)),
      timeoutS: Number.isFinite(timeoutS) && timeoutS > 0 ? timeoutS : 300,
      tabId: Number.isInteger(tabId) ? tabId : null,
      site: kind === "site" ? /** @type {string} */ (site).slice(0, 253) : null, // (checked above)
      since: Date.now(),
    };
    waitingAsks.add(askId);
    await chrome.storage.session.set({ [ASK_PREFIX + askId]: entry });
    askBadge();
    return { queued: true };
  },

  /** @param {AskDoneRequest} msg */
  async askDone({ askId }) {
    if (typeof askId !== "string") throw badRequest("askId must be a string");
    await dropAsk(askId);
    return { done: true };
  },
};

/** @param {string} askId */
async function dropAsk(askId) {
  waitingAsks.delete(askId);
  await chrome.storage.session.remove(ASK_PREFIX + askId).catch(() => {});
  if (waitingAsks.size === 0) updateBadge();
}

/**
 * The person answered in the popup: record a site decision, then tell the host.
 * @param {AskAnswer} msg
 */
async function answerAsk({ askId, answer, allowed }) {
  const key = ASK_PREFIX + askId;
  // What ask kept of the question (none: it is gone).
  const entry = /** @type {AskEntry | undefined} */ ((await chrome.storage.session.get(key))[key]);
  if (!entry || !waitingAsks.has(askId)) return { error: "This question is no longer waiting for an answer." };
  const decision = typeof allowed === "boolean" ? allowed : null;
  if (entry.kind !== "question" && decision === null) return { error: "Allow or deny." };
  // (A site question has its site: ask checked it.)
  if (entry.kind === "site" && decision !== null) await recordSite(/** @type {string} */ (entry.site), decision);
  post({
    type: "answer",
    askId,
    answer: entry.kind === "question" && typeof answer === "string" ? answer.slice(0, ASK_MAX_ANSWER) : null,
    allowed: entry.kind === "question" ? null : decision,
  });
  await dropAsk(askId);
  return { sent: true };
}

// "Allow" adds the site to allowedSites, "Block" to blockedSites (chrome.storage.local, the
// options page's lists), before the host hears the answer: the worker's own gate (controls.js)
// lets the host's next command through at once.
/** @param {string} site @param {boolean} allowed */
async function recordSite(site, allowed) {
  const key = allowed ? "allowedSites" : "blockedSites";
  const stored = (await chrome.storage.local.get(key))[key];
  const list = Array.isArray(stored) ? stored.filter((p) => typeof p === "string") : [];
  if (!list.includes(site)) list.push(site);
  await chrome.storage.local.set({ [key]: list });
  if (typeof takeControls === "function") takeControls({ [key]: list });
  // In force in the network layer before the host's next command (site_guard.js).
  if (typeof guardRefresh === "function") await guardRefresh().catch(() => {});
}

// Only browserx's own pages (the popup) answer.
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (!msg || msg.type !== "askAnswer") return false;
  if (sender.id !== chrome.runtime.id || !String(sender.url || "").startsWith(chrome.runtime.getURL(""))) return false;
  answerAsk(msg).then(sendResponse, (err) => sendResponse({ error: String(err?.message || err) }));
  return true; // answered asynchronously
});

// "?" on the toolbar while the agent waits for an answer (called at the end of updateBadge). With
// no host, nobody waits: every question goes.
function askBadge() {
  if (!port) {
    if (waitingAsks.size) waitingAsks.clear();
    quietly(() => clearAsks());
    return;
  }
  if (waitingAsks.size === 0) return;
  quietly(() => chrome.action.setBadgeText({ text: "?" }));
  quietly(() => chrome.action.setBadgeBackgroundColor({ color: "#bf8700" }));
  quietly(() => chrome.action.setTitle({ title: "browserx: the agent is waiting for your answer (open this popup)" }));
}

async function clearAsks() {
  const all = await chrome.storage.session.get(null);
  const keys = Object.keys(all).filter((k) => k.startsWith(ASK_PREFIX));
  if (keys.length) await chrome.storage.session.remove(keys);
}
