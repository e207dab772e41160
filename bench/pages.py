"""Generated benchmark pages of a given size: nested layout, tables, link lists, forms, shadow
hosts (open and closed) and, optionally, a cross-site iframe; and the page set the bench scripts
serve (harness.serve_pages). No I/O at import: the e2e tests import ``generate`` from here."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "pages"


def write_pages(directory: Path, sizes: tuple[int, ...]) -> list[str]:
    """Every fixture page copied (the generated pages' iframe loads oopif-child.html), then one
    generated page per size; returns the generated pages' file names, in the order of ``sizes``."""
    for page in FIXTURES.glob("*.html"):
        shutil.copy(page, directory / page.name)
    names = []
    for size in sizes:
        name = f"gen-{size // 1000}k.html"
        (directory / name).write_text(generate(size, seed=7, xorigin="__XORIGIN__"), encoding="utf-8")
        names.append(name)
    return names


def generate(elements: int, seed: int = 7, xorigin: str | None = None) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    count = 0
    section = 0
    while count < elements:
        section += 1
        kind = section % 5
        parts.append(f'<section class="s{section}"><h2>Section {section}</h2>')
        count += 2
        if kind == 0:
            rows = rng.randint(5, 15)
            parts.append("<table><thead><tr><th>Name</th><th>Qty</th><th>Action</th></tr></thead><tbody>")
            for r in range(rows):
                parts.append(
                    f"<tr><td>Item {section}-{r}</td><td>{rng.randint(1, 99)}</td>"
                    f'<td><button class="buy">Buy {section}-{r}</button></td></tr>'
                )
            parts.append("</tbody></table>")
            count += 3 + rows * 5
        elif kind == 1:
            n = rng.randint(5, 20)
            parts.append('<nav><ul class="links">')
            for j in range(n):
                parts.append(f'<li><a href="/p/{section}/{j}">Link {section}.{j}</a></li>')
            parts.append("</ul></nav>")
            count += 2 + n * 2
        elif kind == 2:
            parts.append(
                f"<form><fieldset><legend>Form {section}</legend>"
                f'<label>Name <input name="n{section}"></label>'
                f'<label><input type="checkbox" name="c{section}"> Agree</label>'
                f'<select name="s{section}"><option>One</option><option>Two</option></select>'
                f'<textarea name="t{section}" placeholder="Notes"></textarea>'
                f"<button type=submit>Send {section}</button></fieldset></form>"
            )
            count += 13
        elif kind == 3:
            depth = rng.randint(3, 8)
            parts.append("<div class='wrap'>" * depth)
            parts.append(
                f'<div class="card" onclick="void 0"><span>Card {section}</span><p>Text {section} '
                f"lorem ipsum dolor sit amet</p></div>"
            )
            parts.append("</div>" * depth)
            count += depth + 3
        else:
            mode = "closed" if section % 2 else "open"
            parts.append(f'<x-widget data-mode="{mode}" data-label="Widget {section}"></x-widget>')
            count += 3
        parts.append("</section>")
    iframe = f'<iframe src="{xorigin}/oopif-child.html" width="400" height="200"></iframe>' if xorigin else ""
    return f"""<!doctype html><html><head><title>Generated {elements}</title>
<script>
customElements.define('x-widget', class extends HTMLElement {{
  connectedCallback() {{
    const root = this.attachShadow({{mode: this.dataset.mode}});
    root.innerHTML = '<button>' + this.dataset.label + '</button>';
  }}
}});
</script></head><body><main>{iframe}{"".join(parts)}</main></body></html>"""
