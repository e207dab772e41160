"""The person's site rules, as one pure function per question (no browser, no I/O): does a host
pattern match a site, which sites may the agent use, what the extension's popup and options page
set (``page_controls``), and what are the rules in force when the config file and the options
page both say something.

Patterns are host names, one a line: ``mail.example.com`` matches that host only;
``*.bank.example`` matches ``bank.example`` and every host under it. A pattern written as a URL
(``https://bank.example/login``) means its host; case, a port and a trailing dot do not matter.
The service worker keeps the same rule (extension/controls.js, ``siteMatches``; tests/
test_site_rules.py runs both on the same cases).

Modes: ``all`` (every site but the blocked ones), ``listed`` (only the allowed sites), ``ask`` (the
person is asked the first time a site is used; the sites they allowed join the allowed list).
Pages without a site (about:blank, file://) are never blocked by a host pattern.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import unquote

import idna

Mode = Literal["all", "listed", "ask"]
MODES: tuple[Mode, ...] = ("all", "listed", "ask")
# How strict each mode is: when two sources disagree, the stricter one is in force.
_STRICTNESS = {"all": 0, "ask": 1, "listed": 2}

Verdict = Literal["allowed", "blocked", "unlisted", "ask"]

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://")
# What Chrome's URL parser drops before parsing (as browserx/url_policy.py).
_ANYWHERE = re.compile(r"[\t\n\r]")
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_PORT = re.compile(r":\d*$")


def normalize_pattern(pattern: str) -> str:
    """A pattern as the matcher reads it: no scheme, path or port, its host as the browser writes
    it (``canonical_host``; ``*.`` kept) ("" for a line that names no host)."""
    text = pattern.strip().lower()
    text = _SCHEME.sub("", text)
    text = re.split(r"[/?#]", text, maxsplit=1)[0]
    text = text.rpartition("@")[2]
    if not text.startswith("["):  # an IPv6 literal keeps its colons
        text = _PORT.sub("", text)
    text = text.rstrip(".")
    if text.startswith("*."):
        return "*." + canonical_host(text[2:])
    return text if text == "*" else canonical_host(text)


def host_matches(pattern: str, host: str) -> bool:
    """Whether ``host`` is the site ``pattern`` names (``*.x`` is x and every host under it)."""
    p = normalize_pattern(pattern)
    h = canonical_host(host)
    if not p or not h:
        return False
    if p.startswith("*."):
        base = p[2:]
        return bool(base) and (h == base or h.endswith("." + base))
    if p == "*":
        return True
    return h == p


def canonical_host(host: str) -> str:
    """A host as Chrome's URL parser writes it, so a pattern and a URL name one site one way: lower
    case, no trailing dot, IDNA (UTS 46, ``bücher.example`` is ``xn--bcher-kva.example``), IPv4 in
    dotted decimal (``0x7f.1`` is ``127.0.0.1``), IPv6 compressed without brackets, and an
    IPv4-mapped IPv6 address as its IPv4 one. The service worker's ``canonicalHost`` agrees."""
    text = host.strip().lower().rstrip(".")
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if ":" in text:
        try:
            v6 = ipaddress.IPv6Address(text)
        except ValueError:
            return text
        return str(v6.ipv4_mapped) if v6.ipv4_mapped is not None else v6.compressed
    if not text.isascii():  # first: IDNA maps full-width digits and dots too (０ｘ７ｆ.1)
        text = ".".join(_idna_label(label) for label in text.replace("\u3002", ".").split("."))
    v4 = _ipv4(text)
    return v4 if v4 is not None else text


def _idna_label(label: str) -> str:
    if label.isascii():
        return label
    try:  # UTS 46, nontransitional, as browsers read hosts (ß stays ß)
        return idna.encode(label, uts46=True, transitional=False, std3_rules=False).decode("ascii")
    except idna.IDNAError:
        pass
    try:  # what IDNA 2008 refuses and browsers take (a symbol: ☃)
        return label.encode("idna").decode("ascii")
    except UnicodeError:
        return label


_IPV4_PART = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$")


def _ipv4(host: str) -> str | None:
    """The dotted-decimal form of a host that is an IPv4 address as URLs may write one (1 to 4
    parts, each decimal, octal with a leading 0, or hex with 0x), else None."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_IPV4_PART.match(p) for p in parts):
        return None
    numbers = []
    for part in parts:
        if part.startswith("0x"):
            numbers.append(int(part[2:] or "0", 16))
        elif len(part) > 1 and part.startswith("0"):
            if not set(part) <= set("01234567"):
                return None
            numbers.append(int(part, 8))
        else:
            numbers.append(int(part))
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        return None
    value = last + sum(n * 256 ** (3 - i) for i, n in enumerate(head))
    return str(ipaddress.IPv4Address(value))


def host_of(url: str) -> str | None:
    """The host of an http(s) URL as Chrome's URL parser reads it (``canonical_host`` of what it
    names, percent-decoded; ``http:/\\evil.example`` is evil.example), or None for a page without a
    site."""
    cleaned = _ANYWHERE.sub("", url).strip(_C0_OR_SPACE)
    match = re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*):", cleaned)
    if match is None or match.group(1).lower() not in ("http", "https"):
        return None
    rest = re.sub(r"^[/\\]*", "", cleaned[match.end() :])
    authority = re.split(r"[/\\?#]", rest, maxsplit=1)[0]
    host = unquote(authority.rpartition("@")[2])
    if host.startswith("["):  # an IPv6 literal
        return canonical_host(host.split("]", 1)[0] + "]") or None
    host = host.rsplit(":", 1)[0] if re.search(r":\d*$", host) else host
    return canonical_host(host) or None


def any_match(patterns: Iterable[str], host: str) -> bool:
    return any(host_matches(p, host) for p in patterns)


@dataclass(frozen=True)
class SiteRules:
    mode: Mode = "all"
    blocked: tuple[str, ...] = ()
    allowed: tuple[str, ...] = ()

    @property
    def restrictive(self) -> bool:
        """Whether any site at all can be refused (else nothing needs checking)."""
        return self.mode != "all" or any(normalize_pattern(p) for p in self.blocked)

    def verdict(self, url: str) -> Verdict:
        """``blocked`` (a blocked pattern matches), ``unlisted`` (only listed sites, and this is
        not one), ``ask`` (the person has not been asked about it yet), else ``allowed``."""
        host = host_of(url)
        if host is None:
            return "allowed"
        if any_match(self.blocked, host):
            return "blocked"
        if self.mode == "all" or any_match(self.allowed, host):
            return "allowed"
        return "unlisted" if self.mode == "listed" else "ask"

    def to_dict(self) -> dict[str, object]:
        return {"mode": self.mode, "blocked": list(self.blocked), "allowed": list(self.allowed)}


def clean_patterns(patterns: Iterable[object]) -> tuple[str, ...]:
    """The non-empty string patterns of a list, in order, once each."""
    out: dict[str, None] = {}
    for p in patterns:
        if isinstance(p, str) and normalize_pattern(p):
            out.setdefault(p.strip(), None)
    return tuple(out)


def merge(*sources: SiteRules) -> SiteRules:
    """The rules in force when several sources say something (the config file and the options
    page): the stricter of each. Blocked lists are united; the strictest mode wins (listed over
    ask over all); the allowed list is the union of the allowed lists of the sources whose mode
    is not ``all`` (a source that allows every site lists nothing to widen the others)."""
    mode: Mode = "all"
    for s in sources:
        if _STRICTNESS[s.mode] > _STRICTNESS[mode]:
            mode = s.mode
    blocked = clean_patterns(p for s in sources for p in s.blocked)
    allowed = clean_patterns(p for s in sources if s.mode != "all" for p in s.allowed)
    return SiteRules(mode, blocked, allowed)


@dataclass(frozen=True)
class Controls:
    """What the person decided, from one source (the options page, the config file) or merged."""

    sites: SiteRules = field(default_factory=SiteRules)
    tab_sharing: bool = False
    confirm_sensitive: bool = False
    upload_folders: tuple[str, ...] = ()  # files under these go into pages without asking
    # JavaScript dialogs answered without the agent: (type, "accept" | "dismiss") pairs.
    auto_dialogs: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "site_rules": self.sites.to_dict(),
            "tab_sharing": self.tab_sharing,
            "confirm_sensitive": self.confirm_sensitive,
            "upload_folders": list(self.upload_folders),
            "auto_dialogs": dict(self.auto_dialogs),
        }


def page_controls(data: Mapping[str, object]) -> Controls:
    """The controls the extension's popup and options page set, as chrome.storage holds them (the
    hello's ``controls``, a ``controls`` notice's fields), cleaned: a value of the wrong shape
    counts as unset."""
    mode = data.get("siteMode")
    return Controls(
        SiteRules(
            mode if mode in MODES else "all",
            _patterns(data.get("blockedSites")),
            _patterns(data.get("allowedSites")),
        ),
        data.get("tabSharing") is True,
        data.get("confirmSensitive") is True,
        _folders(data.get("uploadFolders")),
        dialog_answers(data.get("autoDialogs")),
    )


def _patterns(value: object) -> tuple[str, ...]:
    return clean_patterns(value) if isinstance(value, list) else ()


def _folders(value: object) -> tuple[str, ...]:
    """The options page's upload folders: strings, trimmed, at most 50 of 4,096 characters."""
    if not isinstance(value, list):
        return ()
    return tuple(f.strip() for f in value if isinstance(f, str) and f.strip() and len(f) <= 4096)[:50]


def merge_controls(*sources: Controls) -> Controls:
    """The stricter union: site rules by ``merge``; sharing and confirmation on if any says so.
    Upload folders: every source's (each is the person's own word that those files may go).
    Dialogs: a kind is answered automatically only as every source that names it says; where two
    disagree, it is left to the agent."""
    return Controls(
        merge(*(s.sites for s in sources)),
        any(s.tab_sharing for s in sources),
        any(s.confirm_sensitive for s in sources),
        tuple(dict.fromkeys(f for s in sources for f in s.upload_folders)),
        _agreed(s.auto_dialogs for s in sources),
    )


DIALOG_KINDS = ("alert", "confirm", "prompt", "beforeunload")
DIALOG_ANSWERS = ("accept", "dismiss")


def dialog_answers(value: object) -> tuple[tuple[str, str], ...]:
    """{kind: "accept" | "dismiss"} as the options page or the config file writes it, cleaned."""
    if not isinstance(value, dict):
        return ()
    return tuple((k, value[k]) for k in DIALOG_KINDS if value.get(k) in DIALOG_ANSWERS)


def _agreed(sources: Iterable[tuple[tuple[str, str], ...]]) -> tuple[tuple[str, str], ...]:
    said: dict[str, set[str]] = {}
    for pairs in sources:
        for kind, answer in pairs:
            said.setdefault(kind, set()).add(answer)
    return tuple((k, next(iter(said[k]))) for k in DIALOG_KINDS if len(said.get(k, ())) == 1)
