"""Control-socket messages: newline-delimited JSON, one request → one response with the same id.

Request:  ``{"id": 1, "method": "tabs", "params": {...}}``
Response: ``{"id": 1, "ok": true, "result": {...}}`` or
          ``{"id": 1, "ok": false, "error": {"code": "unknown_tab", "message": "..."}}``
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_REQUEST_BYTES = 4 * 1024 * 1024


class Params(BaseModel):
    """Base of every method's params: unknown fields are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class TabParams(Params):
    tab: int | None = Field(default=None, description="Tab id; default: the active tab.")


class ControlRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int | str = Field(description="Echoed back in the response.")
    method: str = Field(description="Method name, e.g. 'tabs'.")
    params: dict[str, Any] = Field(default_factory=dict, description="Method parameters.")


class StatusParams(Params):
    pass


class TabsParams(Params):
    pass


class CdpParams(TabParams):
    method: str = Field(description="CDP method, e.g. 'Runtime.evaluate' (must be allowlisted).")
    params: dict[str, Any] = Field(default_factory=dict, description="CDP params.")
    session_id: str | None = Field(
        default=None, description="Child session (out-of-process iframe) to run it in."
    )
    timeout: float | None = Field(default=None, gt=0, le=300, description="Seconds to wait.")


class TargetsParams(TabParams):
    pass


class SnapshotParams(TabParams):
    format: Literal["text", "json"] = Field(default="text", description="View to render.")
    include_values: bool = Field(
        default=False, description="Include form values (never passwords; card numbers and SSNs masked)."
    )
    stats: bool = Field(default=False, description="Include snapshot stats and token count.")
