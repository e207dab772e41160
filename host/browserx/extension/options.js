// @ts-check
// browserx settings page (options.html): the person's site rules, tab sharing, confirmations and
// upload folders and dialog answers,
// kept in chrome.storage.local under the names the service worker reads (extension/controls.js).
"use strict";

/** @param {string} id The settings page's fields and buttons, by ID. */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

const KEYS = ["siteMode", "blockedSites", "allowedSites", "tabSharing", "confirmSensitive", "uploadFolders", "autoDialogs"];
const DIALOG_KINDS = ["alert", "confirm", "prompt", "beforeunload"];

/** @param {string} text */
function lines(text) {
  return [...new Set(text.split("\n").map((l) => l.trim()).filter(Boolean))];
}

async function load() {
  /** @type {Record<string, any>} what storage holds: checked below */
  const v = await chrome.storage.local.get(KEYS);
  const mode = ["all", "listed", "ask"].includes(v.siteMode) ? v.siteMode : "all";
  for (const radio of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="siteMode"]'))) radio.checked = radio.value === mode;
  $("blockedSites").value = (Array.isArray(v.blockedSites) ? v.blockedSites : []).join("\n");
  $("allowedSites").value = (Array.isArray(v.allowedSites) ? v.allowedSites : []).join("\n");
  $("tabSharing").checked = v.tabSharing === true;
  $("confirmSensitive").checked = v.confirmSensitive === true;
  $("uploadFolders").value = (Array.isArray(v.uploadFolders) ? v.uploadFolders : []).join("\n");
  const dialogs = v.autoDialogs && typeof v.autoDialogs === "object" ? v.autoDialogs : {};
  for (const kind of DIALOG_KINDS) {
    $(`dialog-${kind}`).value = ["accept", "dismiss"].includes(dialogs[kind]) ? dialogs[kind] : "";
  }
}

$("settings").addEventListener("submit", async (event) => {
  event.preventDefault();
  const mode = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="siteMode"]:checked'))?.value || "all";
  await chrome.storage.local.set({
    siteMode: mode,
    blockedSites: lines($("blockedSites").value),
    allowedSites: lines($("allowedSites").value),
    tabSharing: $("tabSharing").checked,
    confirmSensitive: $("confirmSensitive").checked,
    uploadFolders: lines($("uploadFolders").value),
    autoDialogs: Object.fromEntries(DIALOG_KINDS.map((k) => [k, $(`dialog-${k}`).value]).filter(([, v]) => v)),
  });
  $("saved").textContent = `Saved at ${new Date().toLocaleTimeString()}`;
});

// Another page (the popup, the "ask" mode's answers) may change them meanwhile.
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && KEYS.some((k) => k in changes)) load();
});

load();
