"""The key table: what ``Input.dispatchKeyEvent`` needs to make a page see a real key press —
``key``, ``code``, ``windowsVirtualKeyCode`` and, for printable keys, ``text``. Pure data and
parsing, no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from browserx.errors import BadRequest

# CDP's modifier bitmask (Input.dispatchKeyEvent / dispatchMouseEvent "modifiers").
ALT, CTRL, META, SHIFT = 1, 2, 4, 8
MODIFIER_BITS: dict[str, int] = {
    "alt": ALT, "option": ALT,
    "ctrl": CTRL, "control": CTRL,
    "meta": META, "cmd": META, "command": META, "super": META, "win": META,
    "shift": SHIFT,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class KeyDef:
    key: str  # KeyboardEvent.key (unshifted)
    code: str  # KeyboardEvent.code
    vk: int  # windowsVirtualKeyCode
    text: str = ""  # what the key types, if anything
    shifted: str = ""  # key/text with Shift held (printable keys)


def _table() -> dict[str, KeyDef]:
    t: dict[str, KeyDef] = {
        "enter": KeyDef("Enter", "Enter", 13, "\r"),
        "tab": KeyDef("Tab", "Tab", 9),
        "escape": KeyDef("Escape", "Escape", 27),
        "backspace": KeyDef("Backspace", "Backspace", 8),
        "delete": KeyDef("Delete", "Delete", 46),
        "insert": KeyDef("Insert", "Insert", 45),
        "arrowleft": KeyDef("ArrowLeft", "ArrowLeft", 37),
        "arrowup": KeyDef("ArrowUp", "ArrowUp", 38),
        "arrowright": KeyDef("ArrowRight", "ArrowRight", 39),
        "arrowdown": KeyDef("ArrowDown", "ArrowDown", 40),
        "home": KeyDef("Home", "Home", 36),
        "end": KeyDef("End", "End", 35),
        "pageup": KeyDef("PageUp", "PageUp", 33),
        "pagedown": KeyDef("PageDown", "PageDown", 34),
        "space": KeyDef(" ", "Space", 32, " ", " "),
        # Modifiers themselves, so "Shift" or "Control" alone can be pressed.
        "shift": KeyDef("Shift", "ShiftLeft", 16),
        "control": KeyDef("Control", "ControlLeft", 17),
        "alt": KeyDef("Alt", "AltLeft", 18),
        "meta": KeyDef("Meta", "MetaLeft", 91),
    }
    for i in range(26):
        ch = chr(ord("a") + i)
        t[ch] = KeyDef(ch, f"Key{ch.upper()}", 65 + i, ch, ch.upper())
    for d, shifted in zip("0123456789", ")!@#$%^&*(", strict=True):
        t[d] = KeyDef(d, f"Digit{d}", 48 + int(d), d, shifted)
    for n in range(1, 13):
        t[f"f{n}"] = KeyDef(f"F{n}", f"F{n}", 111 + n)
    punct = [
        ("-", "Minus", 189, "_"), ("=", "Equal", 187, "+"), ("[", "BracketLeft", 219, "{"),
        ("]", "BracketRight", 221, "}"), ("\\", "Backslash", 220, "|"), (";", "Semicolon", 186, ":"),
        ("'", "Quote", 222, '"'), (",", "Comma", 188, "<"), (".", "Period", 190, ">"),
        ("/", "Slash", 191, "?"), ("`", "Backquote", 192, "~"),
    ]  # fmt: skip
    for ch, code, vk, shifted in punct:
        t[ch] = KeyDef(ch, code, vk, ch, shifted)
    return t


KEYS: dict[str, KeyDef] = _table()
ALIASES = {
    "return": "enter", "esc": "escape", "del": "delete", "left": "arrowleft", "right": "arrowright",
    "up": "arrowup", "down": "arrowdown", "pgup": "pageup", "pgdn": "pagedown", " ": "space",
    "ctrl": "control", "cmd": "meta", "option": "alt", "numpadenter": "enter",
    # The characters that are these keys (a key named "\r" is Enter: it sends a form).
    "\r": "enter", "\n": "enter", "\t": "tab",
}  # fmt: skip
# Shifted printable characters → the base key (so "A" or "!" can be asked for directly).
_SHIFTED: dict[str, str] = {d.shifted: name for name, d in KEYS.items() if d.shifted and d.shifted != d.key}


@dataclass(frozen=True, slots=True)
class KeyPress:
    """One fully described key press, ready for the dispatcher."""

    key: str
    code: str
    vk: int
    text: str
    modifiers: int


def modifiers_mask(names: list[str] | tuple[str, ...]) -> int:
    mask = 0
    for name in names:
        bit = MODIFIER_BITS.get(name.strip().lower())
        if bit is None:
            raise BadRequest(f"unknown modifier {name!r}; use Alt, Ctrl, Meta or Shift")
        mask |= bit
    return mask


def parse_combo(combo: str) -> tuple[str, list[str]]:
    """ "Ctrl+Shift+K" → ("K", ["Ctrl", "Shift"]). A lone "+" is the plus key."""
    if combo == "+" or "+" not in combo:
        return combo, []
    if combo.endswith("++"):  # "Ctrl++": the plus key with Ctrl
        return "+", [m for m in combo[:-2].split("+") if m]
    *mods, key = combo.split("+")
    return key, mods


def key_press(name: str, modifiers: int = 0) -> KeyPress:
    """Describe a key by its name ("Enter", "ArrowDown", "a", "A", "F5", "!")."""
    lookup = name if len(name) == 1 else name.lower()
    lookup = ALIASES.get(lookup, lookup)
    if len(lookup) == 1 and lookup in _SHIFTED:
        lookup, modifiers = _SHIFTED[lookup], modifiers | SHIFT
    elif len(lookup) == 1 and lookup.isalpha() and lookup.isupper():
        lookup, modifiers = lookup.lower(), modifiers | SHIFT
    d = KEYS.get(lookup)
    if d is None:
        if len(name) == 1:  # any other character: typed as text, no physical key
            return KeyPress(name, "", 0, "" if modifiers & (CTRL | ALT | META) else name, modifiers)
        raise BadRequest(
            f"unknown key {name!r}; use a key name like Enter, Tab, Escape, ArrowDown, PageDown, F5, "
            "a letter or a digit (modifiers separately or as 'Ctrl+A')"
        )
    shifted = bool(modifiers & SHIFT) and bool(d.shifted)
    key = d.shifted if shifted else d.key
    text = d.shifted if shifted else d.text
    # With Ctrl/Alt/Meta held a key is a shortcut, not typing: no text (so "Ctrl+A" types nothing).
    if modifiers & (CTRL | ALT | META):
        text = ""
    return KeyPress(key, d.code, d.vk, text, modifiers)


def modifier_presses(modifiers: int) -> list[KeyPress]:
    """The modifier keys themselves, pressed before the key (in a stable order)."""
    out: list[KeyPress] = []
    held = 0
    for bit, name in ((CTRL, "control"), (ALT, "alt"), (META, "meta"), (SHIFT, "shift")):
        if modifiers & bit:
            held |= bit
            d = KEYS[name]
            out.append(KeyPress(d.key, d.code, d.vk, "", held))
    return out


def char_press(ch: str) -> KeyPress:
    """A key press that types one character (per-character typing)."""
    if ch in ("\n", "\r"):  # either is Enter, one key at a time (it sends a form)
        return key_press("Enter")
    if ch == "\t":
        return key_press("Tab")
    return key_press(ch)
