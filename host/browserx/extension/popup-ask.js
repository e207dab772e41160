// @ts-check
// The popup's "#ask" section: the questions the agent waits on, kept by the service worker
// (asks.js) in chrome.storage.session under "ask:<askId>". A question shows its text, its choices
// as buttons, a textbox "Answer" and a "Send" button; a confirmation before a sensitive action
// "Allow" and "Deny"; a site the agent wants to use for the first time "Allow" and "Block". The
// answer goes to the service worker, which tells the host.

/**
 * A question as the service worker keeps it (asks.js).
 * @typedef {{askId: string, kind: string, question: string, choices: string[], timeoutS: number, tabId: number | null,
 *   site: string | null, since: number}} Ask
 */

(() => {
  const found = document.getElementById("ask");
  if (!found) return;
  const section = found;
  const PREFIX = "ask:";
  /** @type {Record<string, string>} */
  const TITLES = { question: "The agent asks", confirm: "Confirm this action", site: "A new site" };

  /**
   * @param {string} askId
   * @param {{answer: string} | {allowed: boolean}} body
   * @param {HTMLElement} box
   */
  function send(askId, body, box) {
    const fields = /** @type {NodeListOf<HTMLButtonElement | HTMLInputElement>} */ (box.querySelectorAll("button, input"));
    for (const b of fields) b.disabled = true;
    chrome.runtime.sendMessage({ type: "askAnswer", askId, ...body }).then(
      (reply) => {
        if (reply?.error) showError(box, reply.error);
      },
      (err) => showError(box, String(err?.message || err)),
    );
  }

  /** @param {HTMLElement} box @param {string} text */
  function showError(box, text) {
    const p = document.createElement("p");
    p.className = "ask-error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    box.append(p);
  }

  /** @param {string} text @param {() => void} onClick */
  function button(text, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  /** @param {Ask} ask */
  function render(ask) {
    const box = document.createElement("div");
    box.className = `ask ask-${ask.kind}`;
    box.dataset.askId = ask.askId;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", TITLES[ask.kind] || "The agent asks");
    const title = document.createElement("h2");
    title.textContent = TITLES[ask.kind] || "The agent asks";
    const question = document.createElement("p");
    question.className = "ask-question";
    question.textContent = ask.question; // text, never markup: the agent wrote it
    box.append(title, question);
    if (ask.kind === "question") {
      if (ask.choices?.length) {
        const choices = document.createElement("div");
        choices.className = "ask-choices";
        for (const choice of ask.choices) choices.append(button(choice, () => send(ask.askId, { answer: choice }, box)));
        box.append(choices);
      }
      const form = document.createElement("form");
      const label = document.createElement("label");
      label.textContent = "Answer ";
      const input = document.createElement("input");
      input.type = "text";
      input.name = "answer";
      input.maxLength = 4000;
      input.autocomplete = "off";
      label.append(input);
      const submit = document.createElement("button");
      submit.type = "submit";
      submit.textContent = "Send";
      form.append(label, submit);
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        send(ask.askId, { answer: input.value }, box);
      });
      box.append(form);
    } else {
      const [yes, no] = ask.kind === "site" ? ["Allow", "Block"] : ["Allow", "Deny"];
      const row = document.createElement("div");
      row.className = "ask-decision";
      row.append(
        button(yes, () => send(ask.askId, { allowed: true }, box)),
        button(no, () => send(ask.askId, { allowed: false }, box)),
      );
      box.append(row);
    }
    return box;
  }

  async function refresh() {
    /** @type {Record<string, unknown>} */
    let all = {};
    try {
      all = await chrome.storage.session.get(null);
    } catch {
      return;
    }
    const now = Date.now();
    const asks = Object.entries(all)
      .filter(([key, v]) => key.startsWith(PREFIX) && v && typeof v === "object")
      .map(([, v]) => /** @type {Ask} */ (v))
      .filter((a) => !(a.since + a.timeoutS * 1000 < now)) // its time ran out: the host takes it back
      .sort((a, b) => a.since - b.since);
    // Keep what the person is typing: redraw only when the set of questions changed.
    const shown = [.../** @type {NodeListOf<HTMLElement>} */ (section.querySelectorAll(".ask"))].map((b) => b.dataset.askId).join(",");
    if (shown === asks.map((a) => a.askId).join(",")) return;
    section.replaceChildren(...asks.map(render));
    section.hidden = asks.length === 0;
    /** @type {HTMLInputElement | null} */ (section.querySelector("input[name=answer]"))?.focus();
  }

  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "session" && Object.keys(changes).some((k) => k.startsWith(PREFIX))) refresh();
  });
  section.hidden = true;
  refresh();
})();
