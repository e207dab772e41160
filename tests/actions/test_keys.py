from __future__ import annotations

import pytest

from browserx.actions.keys import (
    ALT,
    CTRL,
    META,
    SHIFT,
    char_press,
    key_press,
    modifier_presses,
    modifiers_mask,
    parse_combo,
)
from browserx.errors import BadRequest


def test_modifier_bitmask_matches_cdp() -> None:
    assert (ALT, CTRL, META, SHIFT) == (1, 2, 4, 8)
    assert modifiers_mask(["Ctrl", "shift"]) == 10
    assert modifiers_mask(["Control", "Alt", "Cmd"]) == 7
    assert modifiers_mask([]) == 0
    with pytest.raises(BadRequest):
        modifiers_mask(["Hyper"])


@pytest.mark.parametrize(
    ("name", "key", "code", "vk", "text"),
    [
        ("Enter", "Enter", "Enter", 13, "\r"),
        ("tab", "Tab", "Tab", 9, ""),
        ("Escape", "Escape", "Escape", 27, ""),
        ("esc", "Escape", "Escape", 27, ""),
        ("Backspace", "Backspace", "Backspace", 8, ""),
        ("Delete", "Delete", "Delete", 46, ""),
        ("ArrowDown", "ArrowDown", "ArrowDown", 40, ""),
        ("Home", "Home", "Home", 36, ""),
        ("PageDown", "PageDown", "PageDown", 34, ""),
        ("Space", " ", "Space", 32, " "),
        ("a", "a", "KeyA", 65, "a"),
        ("7", "7", "Digit7", 55, "7"),
        ("F5", "F5", "F5", 116, ""),
        ("F12", "F12", "F12", 123, ""),
    ],
)
def test_key_table(name: str, key: str, code: str, vk: int, text: str) -> None:
    p = key_press(name)
    assert (p.key, p.code, p.vk, p.text) == (key, code, vk, text)


def test_shift_and_shortcuts() -> None:
    upper = key_press("A")
    assert (upper.key, upper.code, upper.text, upper.modifiers) == ("A", "KeyA", "A", SHIFT)
    bang = key_press("!")
    assert (bang.code, bang.text, bang.modifiers) == ("Digit1", "!", SHIFT)
    shortcut = key_press("a", CTRL)
    assert shortcut.text == "" and shortcut.modifiers == CTRL  # a shortcut types nothing
    assert key_press("k", CTRL | SHIFT).key == "K"


def test_unknown_keys() -> None:
    assert key_press("é").text == "é"  # any single character can be typed as text
    with pytest.raises(BadRequest):
        key_press("Hyperdrive")


def test_parse_combo() -> None:
    assert parse_combo("Ctrl+Shift+K") == ("K", ["Ctrl", "Shift"])
    assert parse_combo("Enter") == ("Enter", [])
    assert parse_combo("+") == ("+", [])
    assert parse_combo("Ctrl++") == ("+", ["Ctrl"])


def test_modifier_presses_accumulate() -> None:
    presses = modifier_presses(CTRL | SHIFT)
    assert [p.key for p in presses] == ["Control", "Shift"]
    assert [p.modifiers for p in presses] == [CTRL, CTRL | SHIFT]


def test_char_press() -> None:
    assert char_press("\n").key == "Enter"
    assert char_press("x").text == "x"
