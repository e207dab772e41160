"""The error tree: stable unique codes, documented in errors.py's docstring, and round-trippable
over the control socket."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import msgspec
import pytest

import browserx
from browserx import errors
from browserx.errors import (
    ERROR_BY_CODE,
    BrowserxError,
    CdpTimeout,
    TabNotFound,
    all_error_classes,
    error_from_dict,
)

_TREE_LINE = re.compile(r"^\s*(?:[│ ]*[├└]─\s*)?(?P<name>[A-Z]\w+)\s+(?P<code>[a-z_]+)\s*$")


def _doc_tree() -> dict[str, tuple[str, str | None]]:
    """Parse the docstring tree into {class name: (code, parent name)}; depth is the column."""
    doc = errors.__doc__
    assert doc is not None
    tree: dict[str, tuple[str, str | None]] = {}
    stack: list[tuple[int, str]] = []  # (column, name) of the current ancestors
    for line in doc.splitlines():
        match = _TREE_LINE.match(line)
        if match is None:
            continue
        name, column = match.group("name"), match.start("name")
        while stack and stack[-1][0] >= column:
            stack.pop()
        tree[name] = (match.group("code"), stack[-1][1] if stack else None)
        stack.append((column, name))
    return tree


def _module_error_classes() -> list[type[BrowserxError]]:
    return [
        obj
        for obj in vars(errors).values()
        if inspect.isclass(obj) and issubclass(obj, BrowserxError) and obj.__module__ == errors.__name__
    ]


def test_docstring_tree_parses() -> None:
    tree = _doc_tree()
    assert tree["BrowserxError"] == ("internal", None)
    assert tree["UnknownMethod"] == ("unknown_method", "BadRequest")
    assert tree["CdpTimeout"] == ("timeout", "RelayError")
    assert tree["NotInteractable"] == ("not_interactable", "ElementError")
    assert len(tree) >= 20


def test_every_code_is_unique() -> None:
    classes = all_error_classes()
    codes = [cls.code for cls in classes]
    assert len(codes) == len(set(codes)), sorted(codes)
    assert len(ERROR_BY_CODE) == len(classes)


def test_every_class_is_in_the_tree_and_reachable() -> None:
    in_module = set(_module_error_classes())
    reachable = set(all_error_classes())
    assert in_module == reachable
    assert all_error_classes()[0] is BrowserxError


def test_docstring_tree_matches_the_classes() -> None:
    tree = _doc_tree()
    classes = {cls.__name__: cls for cls in all_error_classes()}
    assert set(tree) == set(classes), set(tree) ^ set(classes)
    for name, (code, parent) in tree.items():
        cls = classes[name]
        assert cls.code == code, name
        if parent is None:
            assert cls is BrowserxError
        else:
            assert cls.__bases__ == (classes[parent],), name


def test_error_by_code_maps_back() -> None:
    for cls in all_error_classes():
        assert ERROR_BY_CODE[cls.code] is cls


@pytest.mark.parametrize("cls", all_error_classes(), ids=lambda c: c.__name__)
def test_error_from_dict_round_trips(cls: type[BrowserxError]) -> None:
    original = cls("something broke; do X next", tab=7, nested={"a": [1, "b"]})
    wire = msgspec.json.decode(msgspec.json.encode(original.to_dict()))
    assert wire["code"] == cls.code
    back = error_from_dict(wire)
    assert type(back) is cls
    assert back.message == original.message == str(back)
    assert back.details == {"tab": 7, "nested": {"a": [1, "b"]}}
    assert back.to_dict() == original.to_dict()


def test_to_dict_omits_empty_details() -> None:
    assert CdpTimeout("slow").to_dict() == {"code": "timeout", "message": "slow"}
    assert TabNotFound("gone", tab=3).to_dict() == {
        "code": "unknown_tab",
        "message": "gone",
        "details": {"tab": 3},
    }


def test_error_details_name_the_tab_tab_as_every_answer_does() -> None:
    """A tab is ``tab`` in error details too (it was ``tab_id`` in unknown_tab, tab_closed, ...):
    no error raised in the host's code passes ``tab_id=`` (Tab and TabSession name it so)."""
    names = {cls.__name__ for cls in all_error_classes()}
    found = []
    for path in sorted(Path(browserx.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
                found += [f"{path.name}:{node.lineno}" for k in node.keywords if k.arg == "tab_id"]
    assert found == []


def test_error_from_dict_unknown_code_keeps_the_code() -> None:
    err = error_from_dict({"code": "brand_new_code", "message": "from the future"})
    assert type(err) is BrowserxError
    assert err.message == "from the future"
    assert err.details == {"code": "brand_new_code"}


def test_error_from_dict_empty() -> None:
    err = error_from_dict({})
    assert type(err) is BrowserxError
    assert err.code == "internal"
    assert err.message == "unknown error"
    assert err.details == {}


def test_subclasses_are_catchable_as_their_parents() -> None:
    with pytest.raises(errors.RelayError):
        raise errors.TabClosed("closed")
    with pytest.raises(errors.BadRequest):
        raise errors.UnknownMethod("nope")
    with pytest.raises(BrowserxError):
        raise errors.StaleElement("stale")
