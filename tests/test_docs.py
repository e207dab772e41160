"""docs/SECURITY.md says which test proves each promise: every test it names must exist, so a
renamed or deleted test cannot leave a promise proved by nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# `tests/a/b.py::name`, `tests/a/b.py`, and `::name` (a test of the file named last).
_REF = re.compile(r"(tests/[\w/]+\.py)(?:::(\w+))?|`::(\w+)")


def named_tests(text: str) -> list[tuple[str, str | None]]:
    refs: list[tuple[str, str | None]] = []
    last: str | None = None
    for match in _REF.finditer(text):
        if match.group(1):
            last = match.group(1)
            refs.append((last, match.group(2)))
        elif last is not None:
            refs.append((last, match.group(3)))
    return refs


def test_every_test_security_md_names_exists() -> None:
    refs = named_tests((ROOT / "docs" / "SECURITY.md").read_text(encoding="utf-8"))
    assert len(refs) > 40
    missing = []
    for path, name in refs:
        source = ROOT / path
        if not source.is_file():
            missing.append(path)
        elif name is not None and not re.search(rf"^(?:async )?def {name}\(", source.read_text(), re.M):
            missing.append(f"{path}::{name}")
    assert missing == []


def test_a_missing_test_is_found() -> None:
    refs = named_tests("`tests/test_docs.py::no_such_test`, `::test_a_missing_test_is_found`")
    assert refs == [
        ("tests/test_docs.py", "no_such_test"),
        ("tests/test_docs.py", "test_a_missing_test_is_found"),
    ]


# docs/LAYOUT.md's table of the host's rooms names every module, and names only modules that exist:
# a module as `cli.py` when no other module has its file name, else with its room
# (`control/person/controls.py`, `views/events.py`); a room (subpackage) as `page/`. Paths outside the
# package (`tests/fakes.py`, `bench/corpus*.py`) must exist too.
PACKAGE = ROOT / "host" / "browserx"
_CODE = re.compile(r"`([^`\s]+)`")


def host_modules(package: Path = PACKAGE) -> list[str]:
    """Every module and subpackage of the host, as `room/name.py`, `name.py` or `room/`."""
    modules = [
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if path.name != "__init__.py" and "__pycache__" not in path.parts
    ]
    rooms = [f"{path.parent.relative_to(package).as_posix()}/" for path in package.rglob("*/__init__.py")]
    return sorted(modules + rooms)


def layout_problems(text: str, package: Path = PACKAGE, root: Path = ROOT) -> dict[str, list[str]]:
    """What the text leaves unnamed, names that do not exist, and bare names two modules share."""
    modules = host_modules(package)
    by_name: dict[str, list[str]] = {}
    for module in modules:
        if not module.endswith("/"):
            by_name.setdefault(module.rsplit("/", 1)[-1], []).append(module)
    prefix = package.relative_to(root).as_posix() + "/"
    named: set[str] = set()
    missing: list[str] = []
    ambiguous: list[str] = []
    for token in _CODE.findall(text):
        if not (token.endswith(".py") or token.endswith("/")):
            continue
        inner = token.removeprefix(prefix)
        if inner in modules:
            named.add(inner)
        elif "/" not in inner.rstrip("/") and len(by_name.get(inner, [])) > 1:
            ambiguous.append(f"{token} (say which: {', '.join(by_name[inner])})")
        elif "/" not in inner.rstrip("/") and token.endswith(".py") and by_name.get(inner):
            named.update(by_name[inner])
        elif not any(True for _ in root.glob(token)) and not any(True for _ in package.glob(inner)):
            missing.append(token)
    return {
        "unnamed": [module for module in modules if module not in named],
        "missing": sorted(set(missing)),
        "ambiguous": sorted(set(ambiguous)),
    }


def test_the_layout_names_every_host_module_and_only_modules_that_exist() -> None:
    problems = layout_problems((ROOT / "docs" / "LAYOUT.md").read_text(encoding="utf-8"))
    assert problems == {"unnamed": [], "missing": [], "ambiguous": []}
    assert len(host_modules()) > 100


def test_a_module_the_layout_omits_misnames_or_names_ambiguously_is_found() -> None:
    problems = layout_problems(
        "`interfaces/` `cli.py` `control/person/controls.py` `control/nowhere.py` `nowhere.py` `events.py`"
        " `views/scroll.py` `tests/fakes.py` `bench/corpus*.py` `host/browserx/page/` `nowhere/`"
    )
    named = {"interfaces/", "interfaces/cli.py", "control/person/controls.py", "views/scroll.py", "page/"}
    assert set(problems["unnamed"]) == set(host_modules()) - named
    assert problems["missing"] == ["control/nowhere.py", "nowhere.py", "nowhere/"]
    assert problems["ambiguous"] == ["events.py (say which: page/events.py, views/events.py)"]


# Every relative link in the README and docs/ reaches a file, and its #anchor a heading there.
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")


def broken_links(doc: Path) -> list[str]:
    text = _FENCE.sub("", doc.read_text(encoding="utf-8"))
    broken = []
    for target in _LINK.findall(re.sub(r"`[^`\n]*`", "", text)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md":
            body = _FENCE.sub("", file.read_text(encoding="utf-8"))
            if anchor not in {_slug(h) for h in re.findall(r"^#+ (.+)$", body, re.M)}:
                broken.append(target)
    return broken


def test_every_relative_link_in_the_readme_and_docs_resolves() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert {doc.name: broken_links(doc) for doc in docs} == {doc.name: [] for doc in docs}


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n## The `text` view\n", encoding="utf-8")
    doc = tmp_path / "b.md"
    doc.write_text(
        "[ok](a.md#the-text-view) [no file](c.md) [no heading](a.md#nowhere) [self](#b) `[code](x.md)`\n"
        "# B\n```\n[fenced](y.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(doc) == ["c.md", "a.md#nowhere"]
    assert _slug("Backend loop (`browserx agent`)") == "backend-loop-browserx-agent"
