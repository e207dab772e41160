"""The user's settings for this host: the doors that are shut unless the user opens them.

Read once when the host starts, from ``$BROWSERX_CONFIG`` or else
``$XDG_CONFIG_HOME/browserx/config.json`` (``~/.config/browserx/config.json``)::

    {"allow_raw_cdp": true, "allow_file_urls": false, "idle_release_s": 300}

A file that cannot be read or parsed leaves every door shut (and says so in the log); ``browserx
status`` shows what is in force and where it was read from.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import structlog
from pydantic import BaseModel, ConfigDict, Field, ValidationError

log = structlog.get_logger("browserx.settings")


class HostSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    allow_raw_cdp: bool = Field(
        default=False,
        description="Serve the `cdp` control method (raw, allowlisted CDP commands; never on data-no-ai pages).",
    )
    allow_file_urls: bool = Field(default=False, description="Let `navigate` open file:// URLs.")
    idle_release_s: float = Field(
        default=300.0,
        ge=0,
        description=(
            "Detach the debugger from a tab browserx has not used for this many seconds, and free "
            "its snapshot (its next use attaches again; IDs it showed before may then be stale). "
            "0 keeps used tabs attached until the host stops."
        ),
    )


def settings_path() -> Path:
    explicit = os.environ.get("BROWSERX_CONFIG")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "browserx" / "config.json"


def load_settings(path: Path | None = None) -> HostSettings:
    path = path or settings_path()
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return HostSettings()
    except OSError as exc:
        log.warning("settings_unreadable", path=str(path), error=str(exc))
        return HostSettings()
    try:
        return HostSettings.model_validate(json.loads(raw))
    except (ValueError, ValidationError) as exc:
        log.warning("settings_invalid", path=str(path), error=str(exc).splitlines()[0])
        return HostSettings()
