"""The user's settings for this host: the doors that are shut unless the user opens them.

Read once when the host starts, from ``$BROWSERX_CONFIG`` or else
``$XDG_CONFIG_HOME/browserx/config.json`` (``~/.config/browserx/config.json``)::

    {"allow_raw_cdp": true, "allow_file_urls": false, "idle_release_s": 300,
     "site_rules": {"mode": "all", "blocked": ["*.bank.example"], "allowed": []},
     "tab_sharing": false, "confirm_sensitive": false}

The person's controls (``site_rules``, ``tab_sharing``, ``confirm_sensitive``) are also set on the
extension's options page; the host enforces the stricter union of both (browserx/site_rules.py).

A file that cannot be read or parsed leaves every door shut (and says so in the log); ``browserx
status`` shows what is in force and where it was read from.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

import structlog
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from browserx.environment import environment
from browserx.site_rules import Controls, Mode, SiteRules, clean_patterns, dialog_answers

log = structlog.get_logger("browserx.settings")


class SiteRulesSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Mode = Field(
        default="all",
        description='"all" sites but the blocked ones, only the "listed" allowed ones, or "ask" the first time.',
    )
    blocked: list[str] = Field(
        default_factory=list, description="Host patterns browserx never uses (*.bank.example)."
    )
    allowed: list[str] = Field(default_factory=list, description='The sites of "listed" (and "ask") mode.')


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
    site_rules: SiteRulesSettings = Field(
        default_factory=SiteRulesSettings, description="Sites browserx may not use (with the options page's)."
    )
    tab_sharing: bool = Field(
        default=False, description="Only tabs browserx opened and tabs the person shared from the popup."
    )
    confirm_sensitive: bool = Field(
        default=False, description="Ask the person before payments, deletions and password forms are sent."
    )

    upload_folders: list[str] = Field(
        default_factory=list,
        description="Folders (absolute, or ~/...) whose files `upload` may put into pages without asking.",
    )

    auto_dialogs: dict[
        Literal["alert", "confirm", "prompt", "beforeunload"], Literal["accept", "dismiss"]
    ] = Field(
        default_factory=dict,
        description='JavaScript dialogs answered without the agent, by kind ({"alert": "accept", '
        '"beforeunload": "dismiss"}); the rest wait for the `dialog` tool.',
    )

    def controls(self) -> Controls:
        """The person's controls this file sets (merged with the options page's:
        control/person/controls.py)."""
        rules = self.site_rules
        return Controls(
            SiteRules(rules.mode, clean_patterns(rules.blocked), clean_patterns(rules.allowed)),
            self.tab_sharing,
            self.confirm_sensitive,
            tuple(self.upload_folders),
            dialog_answers(dict(self.auto_dialogs)),
        )


def settings_path() -> Path:
    explicit = environment().config
    if explicit is not None:
        return explicit
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
