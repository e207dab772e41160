"""Where browserx sends a tab: the URL allowlist, as Chrome's URL parser reads a URL. Pure (no
browser), below every layer, so every door uses this one rule: navigate, new_tab and the raw
``cdp Page.navigate`` (control/), and the links an action would follow (actions/links.py)."""

from __future__ import annotations

import re

from browserx.errors import BadRequest, UrlNotAllowed

# The URL allowlist: anything else (every browser page under any name, about:version included,
# script and data URLs, external protocol handlers) is refused before it reaches Chrome. Some of
# those pages kill the whole browser when opened by CDP; a denylist always misses one alias.
WEB_SCHEMES = frozenset({"http", "https"})
# What the WHATWG URL parser (Chrome's) drops before parsing: tabs and newlines anywhere, C0
# controls and spaces at either end. "java\tscript:" is javascript: to Chrome, so it is to us.
_ANYWHERE = re.compile(r"[\t\n\r]")
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_HOST_SLASHES = re.compile(r"^[/\\]*")  # http:/\\host and http:host are http://host to Chrome
# A bare host (and port) means the web site: "example.com", "localhost:8000".
_NOT_A_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:\d")


def allowed_url(url: str, allow_file_urls: bool) -> str:
    """The URL a navigation will send to Chrome (a bare host gets https://), or UrlNotAllowed:
    only http and https (with a host), exactly about:blank (a fragment allowed), and file:// when
    the user allowed it."""
    cleaned = _ANYWHERE.sub("", url).strip(_C0_OR_SPACE)
    if not cleaned:
        raise BadRequest("url must not be empty")
    match = _SCHEME.match(cleaned)
    if match is None or _NOT_A_SCHEME.match(cleaned):
        cleaned = "https://" + cleaned  # what navigate does with "example.com"
        match = _SCHEME.match(cleaned)
        assert match is not None
    scheme = match.group(1).lower()
    rest = cleaned[match.end() :]
    if scheme in WEB_SCHEMES:
        host = re.split(r"[/\\?#]", _HOST_SLASHES.sub("", rest), maxsplit=1)[0]
        if host.rpartition("@")[2].split(":", 1)[0]:
            return cleaned
        raise UrlNotAllowed("That web address has no host; give a full one (https://example.com/...).")
    if scheme == "about" and rest.split("#", 1)[0] == "blank":  # exactly: about:BLANK is not it
        return cleaned
    if scheme == "file":
        if allow_file_urls:
            return cleaned
        raise UrlNotAllowed(
            "file:// URLs are off: they would expose the computer's files. The user can allow them with "
            '"allow_file_urls": true in the browserx config file (see `browserx status`).'
        )
    raise UrlNotAllowed(
        f"browserx opens only web pages (http:// and https://) and about:blank; {scheme}: URLs are refused "
        "(browser pages, scripts, data and other apps' links can harm the browser or the computer). "
        "Ask the user to do this step themselves.",
        scheme=scheme,
    )


def check_link(href: str, page_url: str | None, download: bool = False) -> None:
    """Refuse (UrlNotAllowed) a link an action would follow, by the same allowlist, before the
    input is sent. Two readings of a page's own links: ``javascript:`` runs the page's own script
    (no more than its click handlers can do), and a ``download`` link to the page's own data
    (blob:, data:) saves a file instead of opening a page. A file:// link is followed only from a
    file:// page (Chrome blocks it from any other; being there took the user or allow_file_urls)."""
    cleaned = _ANYWHERE.sub("", href).strip(_C0_OR_SPACE)
    match = _SCHEME.match(cleaned)
    scheme = match.group(1).lower() if match else ""
    if scheme == "javascript" or (download and scheme in ("blob", "data")):
        return
    from_file = (page_url or "").lower().startswith("file:")
    try:
        allowed_url(cleaned, allow_file_urls=from_file)
    except BadRequest as exc:
        raise UrlNotAllowed(
            f"This link goes to a {scheme or 'non-web'}: address, which browserx does not open (only http://, "
            "https:// and about:blank; browser pages and other apps' links can harm the browser or the "
            "computer). Nothing was clicked. Ask the user to do this step themselves.",
            scheme=scheme,
        ) from exc
