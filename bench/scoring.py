"""run.py's scoring: coverage by name (the other tools' named controls that browserx's whole-page
view gives no control of that name) and the floors browserx holds itself to (latency, speed-up over
browser-use, host RSS, tokens, the other views), each measured and given a verdict. Reads the
records (results.py); report.py prints what this computes."""

from __future__ import annotations

from typing import Any

from adapters import OTHERS
from harness import VIEWPORT
from results import PageReport, Result

from browserx.views.options import DEFAULT_MAX_TOKENS

# Latency floors: page size → max browserx median seconds.
LATENCY_FLOORS = {5000: 0.3, 20000: 1.0, 50000: 2.5}
SPEEDUP_FLOOR = 5.0  # vs browser-use at 5k and 20k
SPEEDUP_SIZES = (5000, 20000)
RSS_FLOOR_MB = 150.0  # at 50k
TOKENS_VS_PLAYWRIGHT = 0.3
TOKENS_VS_BROWSER_USE = 0.7
VIEWPORT_ONLY_TOKENS = 1500  # viewport_only views of long pages
QUERY_MAX_TOKENS = 2000  # the query-focused view of the largest page, asked with this budget


# -- coverage --------------------------------------------------------------------------------------


def normalise(name: str) -> str:
    return " ".join(name.replace('"', "'").split()).casefold()


def whole_view(page: PageReport) -> Result | None:
    """browserx's whole-page output: ``browserx full`` when measured, else the default view."""
    for name in ("browserx full", "browserx"):
        res = page.results.get(name)
        if res is not None and res.runs_ms:
            return res
    return None


def missed_by_browserx(page: PageReport, tool: str, which: str = "controls") -> tuple[int, list[str]] | None:
    """How many of ``tool``'s named interactive elements (its ``controls`` or ``others``) have a name
    browserx's whole-page view gives none of its controls, and those names. None when either side
    has no output."""
    bx, other = whole_view(page), page.results.get(tool)
    if not bx or not other or not other.runs_ms:
        return None
    exact = {normalise(n) for n in bx.names if n}
    truncated = [n[:-1] for n in exact if n.endswith("…")]  # browserx cuts long names with …
    named = [n for n in getattr(other, which) if normalise(n)]
    missed = [
        n
        for n in named
        if normalise(n) not in exact and not any(normalise(n).startswith(t) for t in truncated)
    ]
    return len(named), missed


# -- floors ----------------------------------------------------------------------------------------


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("holds" if ok else "**misses**")


def median_of(page: PageReport | None, tool: str) -> float | None:
    res = page.results.get(tool) if page else None
    return res.median if res else None


def floor_rows(pages: list[PageReport], env_info: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Each floor: what it is, what was measured, the verdict."""
    by_size = {p.size: p for p in pages if p.size}
    rows: list[tuple[str, str, str]] = []
    for size, limit in LATENCY_FLOORS.items():
        med, full = median_of(by_size.get(size), "browserx"), median_of(by_size.get(size), "browserx full")
        measured = f"{med / 1000:.3f} s" if med is not None else "not measured"
        if full is not None:
            measured += f" (full view {full / 1000:.3f} s)"
        rows.append(
            (
                f"browserx text snapshot ≤ {limit} s at {size // 1000}k (median)",
                measured,
                verdict(None if med is None else med <= limit * 1000),
            )
        )
    for size in SPEEDUP_SIZES:
        page = by_size.get(size)
        bx, full, bu = (median_of(page, t) for t in ("browserx", "browserx full", "browser-use"))
        ratio = bu / bx if bx and bu else None
        measured = f"{ratio:.1f}×" if ratio else "not measured"
        if full and bu:
            measured += f" (full view {bu / full:.1f}×)"
        rows.append(
            (
                f"≥ {SPEEDUP_FLOOR:.0f}× faster than browser-use at {size // 1000}k (median ÷ median)",
                measured,
                verdict(None if ratio is None else ratio >= SPEEDUP_FLOOR),
            )
        )
    big = by_size.get(max(LATENCY_FLOORS))
    rss = big.rss_max_mb if big else None
    rows.append(
        (
            f"host RSS ≤ {RSS_FLOOR_MB:.0f} MB at 50k (max sampled VmRSS while serving it)",
            f"{rss:.0f} MB (lifetime VmHWM {env_info.get('host_hwm_mb', 0):.0f} MB)"
            if rss
            else "not measured",
            verdict(None if not rss else rss <= RSS_FLOOR_MB),
        )
    )
    views_rss = big.views.get("rss_max_mb") if big else None
    rows.append(
        (
            f"host RSS ≤ {RSS_FLOOR_MB:.0f} MB at 50k while serving its other views (`viewport_only`, query-focused)",
            f"{views_rss:.0f} MB" if views_rss else "not measured",
            verdict(None if not views_rss else views_rss <= RSS_FLOOR_MB),
        )
    )
    for label, pick in (
        ("whole-page view", whole_view),
        ("default view (info)", lambda p: p.results.get("browserx")),
    ):
        ratios = []
        for page in pages:
            view, pw = pick(page), page.results.get("playwright")
            if view and pw and view.tokens and pw.tokens:
                ratios.append((page.name, view.tokens / pw.tokens))
        ok = None if not ratios else all(x <= TOKENS_VS_PLAYWRIGHT for _, x in ratios)
        rows.append(
            (
                f"tokens ≤ {TOKENS_VS_PLAYWRIGHT}× Playwright whole-page, browserx {label}",
                ", ".join(f"{n} {x:.2f}×" for n, x in ratios) or "not measured",
                verdict(ok) if "info" not in label else "—",
            )
        )
    long_pages = [
        (p.name, p.views["viewport_only"])
        for p in pages
        if "viewport_only" in p.views and (p.doc_height or 0) > VIEWPORT[1]
    ]
    rows.append(
        (
            f"`viewport_only` text view of long pages ≤ {VIEWPORT_ONLY_TOKENS:,} tokens",
            ", ".join(f"{n} {t:,}" for n, t in long_pages) or "not measured",
            verdict(None if not long_pages else all(t <= VIEWPORT_ONLY_TOKENS for _, t in long_pages)),
        )
    )
    budgeted = []  # (page, default view tokens, whole page tokens)
    for page in pages:
        default, whole = page.results.get("browserx"), page.results.get("browserx full")
        if default and whole and default.tokens and whole.tokens:
            budgeted.append((page.name, default.tokens, whole.tokens))
    rows.append(
        (
            f"default text view within its budget ({DEFAULT_MAX_TOKENS:,} tokens), the whole page when it fits "
            "(default view tokens of whole-page tokens)",
            ", ".join(f"{n} {d:,} of {f:,}" for n, d, f in budgeted) or "not measured",
            verdict(
                None
                if not budgeted
                else all(
                    d <= DEFAULT_MAX_TOKENS and (f > DEFAULT_MAX_TOKENS or d == f) for _, d, f in budgeted
                )
            ),
        )
    )
    queried = [(p.name, p.views["query"]) for p in pages if "query" in p.views]
    rows.append(
        (
            f"query-focused view of the largest page ≤ its max_tokens ({QUERY_MAX_TOKENS:,}) and holding "
            "the element the query names",
            "; ".join(
                f'{n}: "{q["text"]}" {q["tokens"]:,} tokens, {"found" if q["found"] else "NOT found"}'
                for n, q in queried
            )
            or "not measured",
            verdict(
                None
                if not queried
                else all(q["found"] and q["tokens"] <= QUERY_MAX_TOKENS for _, q in queried)
            ),
        )
    )
    bu_ratios = []
    for page in pages:
        default, use = page.results.get("browserx"), page.results.get("browser-use")
        if page.fits_browser_use_window and default and use and default.tokens and use.tokens:
            bu_ratios.append((page.name, default.tokens / use.tokens))
    rows.append(
        (
            f"tokens ≤ {TOKENS_VS_BROWSER_USE}× browser-use on pages that fit its window",
            ", ".join(f"{n} {x:.2f}×" for n, x in bu_ratios) or "no page measured",
            verdict(None if not bu_ratios else all(x <= TOKENS_VS_BROWSER_USE for _, x in bu_ratios)),
        )
    )
    counts, names = [], []
    for page in pages:
        whole = whole_view(page)
        others = [r.interactive for t in OTHERS if (r := page.results.get(t)) and r.runs_ms]
        if whole and whole.interactive is not None and others:
            counts.append(f"{page.name} {whole.interactive} vs {max(x or 0 for x in others)}")
        missed = [len(f[1]) for t in OTHERS if (f := missed_by_browserx(page, t)) is not None]
        if missed:
            names.append((page.name, sum(missed)))
    rows.append(
        (
            "browserx (whole page) lists every interactive element either tool lists: by count "
            "(browserx vs the larger)",
            "; ".join(counts) or "not measured",
            "see by name",
        )
    )
    rows.append(
        (
            "… by name: the other tools' named controls with no browserx control of that name",
            "; ".join(f"{n} {k}" for n, k in names) or "not measured",
            verdict(None if not names else all(k == 0 for _, k in names)),
        )
    )
    return rows
