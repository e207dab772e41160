"""The output of the ``html`` view (views/html.py): HTML with a hard size limit that still ends
cleanly. Room is kept for the end tag of every open element, so that when a piece no longer fits
the output stops (``full``) and closing everything still open stays within the limit."""

from __future__ import annotations


class HtmlWriter:
    """Collects the HTML; keeps room for the end tags of every open element, so that when a piece
    no longer fits (``full`` then), closing them all still stays within ``limit``."""

    __slots__ = ("closers", "closing", "full", "ids", "limit", "parts", "size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0
        self.closers: list[str] = []
        self.closing = 0  # characters of the end tags owed
        self.full = False
        self.ids = 0  # elements written with a data-id (the renderers count them)

    def fits(self, n: int) -> bool:
        if self.full:
            return False
        if self.size + n + self.closing > self.limit:
            self.full = True
            return False
        return True

    def put(self, piece: str) -> bool:
        if not self.fits(len(piece)):
            return False
        self.parts.append(piece)
        self.size += len(piece)
        return True

    def soft(self, piece: str) -> None:
        """Layout (a line break): left out when it does not fit, without ending the output."""
        if self.size and not self.full and self.size + len(piece) + self.closing <= self.limit:
            self.parts.append(piece)
            self.size += len(piece)

    def text(self, text: str) -> None:
        """Text, cut to what still fits when it is long (then the output is full)."""
        if self.full:
            return
        room = self.limit - self.size - self.closing
        if len(text) <= room:
            self.parts.append(text)
            self.size += len(text)
            return
        if room > 20:
            cut = text[: room - 1]
            amp = cut.rfind("&")  # not inside an entity
            if amp >= 0 and ";" not in cut[amp:]:
                cut = cut[:amp]
            self.parts.append(cut + "…")
            self.size += len(cut) + 1
        self.full = True

    def open(self, start: str, tag: str) -> bool:
        """A start tag whose end tag is owed (``close``)."""
        end = "</" + tag + ">"
        if not self.fits(len(start) + len(end)):
            return False
        self.parts.append(start)
        self.size += len(start)
        self.closers.append(end)
        self.closing += len(end)
        return True

    def close(self) -> None:
        end = self.closers.pop()
        self.closing -= len(end)
        self.parts.append(end)
        self.size += len(end)

    def finish(self) -> str:
        while self.closers:
            self.close()
        return "".join(self.parts).rstrip("\n")


__all__ = ["HtmlWriter"]
