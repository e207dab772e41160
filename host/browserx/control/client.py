"""``browserx.Client``: a small synchronous client for the control socket.

with Client() as bx:            # finds the running host (see browserx.runtime)
    tabs = bx.tabs()
    bx.cdp("Runtime.evaluate", {"expression": "1+1", "returnByValue": True})
"""

from __future__ import annotations

import itertools
import socket
from types import TracebackType
from typing import Any

import msgspec

from browserx.errors import BrowserxError, HostDisconnected, error_from_dict
from browserx.runtime import discover_socket


class Client:
    def __init__(self, socket_path: str | None = None, timeout: float = 120.0) -> None:
        self.socket_path = discover_socket(socket_path)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        try:
            self._sock.connect(self.socket_path)
        except OSError as exc:
            self._sock.close()
            raise HostDisconnected(
                f"Cannot connect to the browserx host at {self.socket_path}: {exc}. Is the browser "
                "with the extension still running?"
            ) from exc
        self._file = self._sock.makefile("rb")
        self._ids = itertools.count(1)

    def call(self, method: str, /, **params: Any) -> Any:
        """Send one request; return its result or raise the structured error it carried."""
        request_id = next(self._ids)
        payload = {
            "id": request_id,
            "method": method,
            "params": {k: v for k, v in params.items() if v is not None},
        }
        try:
            self._sock.sendall(msgspec.json.encode(payload) + b"\n")
            line = self._file.readline()
        except OSError as exc:
            raise HostDisconnected(f"The browserx host connection failed: {exc}") from exc
        if not line:
            raise HostDisconnected("The browserx host closed the connection; is it still running?")
        response = msgspec.json.decode(line)
        if response.get("ok"):
            return response.get("result")
        raise error_from_dict(response.get("error") or {})

    # -- typed shortcuts ----------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        result: dict[str, Any] = self.call("status")
        return result

    def tabs(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self.call("tabs")["tabs"]
        return result

    def cdp(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        tab: int | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> Any:
        return self.call(
            "cdp", method=method, params=params or {}, tab=tab, session_id=session_id, timeout=timeout
        )

    def snapshot(
        self,
        *,
        tab: int | None = None,
        format: str = "text",
        include_values: bool = False,
        stats: bool = False,
        viewport_only: bool = False,
        boxes: bool = False,
        max_depth: int | None = None,
        max_elements: int | None = None,
        filter: str | None = None,
        max_tokens: int | None = None,
        since_last: bool = False,
        query: str | None = None,
        wait_stable: bool = True,
        stability_ms: int | None = None,
        stability_timeout_ms: int | None = None,
        network_idle: bool = False,
    ) -> dict[str, Any]:
        """Observe a tab. ``result["text"]`` (or ``["json"]``, ``["semantic"]``) holds the view.
        ``max_tokens`` defaults to 6000 on the host (0 = unlimited)."""
        result: dict[str, Any] = self.call(
            "snapshot", tab=tab, format=format, include_values=include_values or None, stats=stats or None,
            viewport_only=viewport_only or None, boxes=boxes or None, max_depth=max_depth,
            max_elements=max_elements, filter=filter, max_tokens=max_tokens, since_last=since_last or None,
            query=query, wait_stable=None if wait_stable else False, stability_ms=stability_ms,
            stability_timeout_ms=stability_timeout_ms, network_idle=network_idle or None,
        )  # fmt: skip
        return result

    def targets(self, tab: int | None = None) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self.call("targets", tab=tab)["sessions"]
        return result

    # -- actions (each returns an ActionResult dict; a failed action raises its error) ------

    def click(
        self,
        id: int,
        *,
        tab: int | None = None,
        button: str = "left",
        count: int = 1,
        modifiers: list[str] | None = None,
        force: bool = False,
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call(
            "click", tab=tab, id=id, button=button, count=count, modifiers=modifiers, force=force or None
        )
        return result

    def type_text(
        self,
        id: int,
        text: str,
        *,
        tab: int | None = None,
        clear: bool = False,
        submit: bool = False,
        per_char: bool = False,
        include_values: bool = False,
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call(
            "type", tab=tab, id=id, text=text, clear=clear or None, submit=submit or None,
            per_char=per_char or None, include_values=include_values or None,
        )  # fmt: skip
        return result

    def key(
        self,
        key: str,
        *,
        tab: int | None = None,
        modifiers: list[str] | None = None,
        id: int | None = None,
        repeat: int = 1,
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call("key", tab=tab, key=key, modifiers=modifiers, id=id, repeat=repeat)
        return result

    def scroll(
        self,
        id: int | None = None,
        *,
        tab: int | None = None,
        direction: str = "down",
        amount: str | float = "page",
        to_id: int | None = None,
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call(
            "scroll", tab=tab, id=id, direction=direction, amount=amount, to_id=to_id
        )
        return result

    def select(
        self, id: int, value: str, *, tab: int | None = None, include_values: bool = False
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call(
            "select", tab=tab, id=id, value=value, include_values=include_values or None
        )
        return result

    def check(self, id: int, checked: bool = True, *, tab: int | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.call("check", tab=tab, id=id, checked=checked)
        return result

    def hover(self, id: int, *, tab: int | None = None, force: bool = False) -> dict[str, Any]:
        result: dict[str, Any] = self.call("hover", tab=tab, id=id, force=force or None)
        return result

    def navigate(self, url: str, *, tab: int | None = None, timeout: float | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.call("navigate", tab=tab, url=url, timeout=timeout)
        return result

    def back(self, *, tab: int | None = None, timeout: float | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.call("back", tab=tab, timeout=timeout)
        return result

    def forward(self, *, tab: int | None = None, timeout: float | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self.call("forward", tab=tab, timeout=timeout)
        return result

    def reload(self, *, tab: int | None = None, ignore_cache: bool = False) -> dict[str, Any]:
        result: dict[str, Any] = self.call("reload", tab=tab, ignore_cache=ignore_cache or None)
        return result

    def wait(
        self,
        *,
        text: str | None = None,
        gone: str | None = None,
        tab: int | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        result: dict[str, Any] = self.call("wait", tab=tab, text=text, gone=gone, timeout=timeout)
        return result

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        try:
            self._file.close()
        finally:
            self._sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


__all__ = ["BrowserxError", "Client"]
