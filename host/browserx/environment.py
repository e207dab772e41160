"""Every ``BROWSERX_*`` environment variable browserx reads, declared once: its name (``BROWSERX_``
and the field's name in capitals), what it does and its default, below. Modules read them through
``environment()``, never from ``os.environ`` (tests/test_environment.py fails on a ``BROWSERX_``
name in host/browserx that is not declared here, or read anywhere else).

``environment()`` reads the variables as they are when it is called: a host's environment does
not change while it runs, but a client's may (the test harness, the benchmarks and the demo set
``BROWSERX_RUNTIME_DIR`` in their own process before they look for the host they started; tests
set variables with monkeypatch). Reading them is cheap and no reader sits on a hot path.

An empty variable is an unset one. A flag is ``1`` (on) or ``0`` (off); any other value leaves it
at its default.

Imports nothing of browserx (browserx/_native.py reads ``pure`` before any other module loads).

Not read by browserx, so not here: the test suite's own
(``BROWSERX_FUZZ``, ``BROWSERX_FUZZ_SCALE``, ``BROWSERX_REQUIRE_NATIVE``,
``BROWSERX_E2E_NO_BFCACHE``, ``BROWSERX_SLOW_ROWS``: see the tests that read them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

PREFIX = "BROWSERX_"


class Environment(BaseModel):
    """The ``BROWSERX_*`` variables, by field name (``runtime_dir``: ``BROWSERX_RUNTIME_DIR``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # -- where things are (clients and the host alike) --
    runtime_dir: Path | None = Field(
        default=None,
        description="The runtime dir holding the hosts' sockets, discovery records and logs "
        "(browserx/runtime.py). Default: $XDG_RUNTIME_DIR/browserx, else ~/.browserx/run.",
    )
    socket: str | None = Field(
        default=None,
        description="The control socket a client talks to when none is given (--socket, "
        "socket_path). Default: the one live host in the runtime dir (several: ambiguous_host).",
    )
    config: Path | None = Field(
        default=None,
        description="The host's settings file (browserx/settings.py). Default: "
        "$XDG_CONFIG_HOME/browserx/config.json, else ~/.config/browserx/config.json.",
    )

    # -- how the host runs --
    log_level: str = Field(
        default="info",
        description="The level of the host's log (debug, info, warning, error), written to "
        "host-<pid>.log in the runtime dir.",
    )
    effects: bool = Field(
        default=True,
        description="Flag: show the person where browserx acts (its cursor, a ripple, an outline "
        "on the page; browserx/actions/effects.py). 0 turns them off.",
    )
    pure: bool = Field(
        default=False,
        description="Flag: import every compiled (mypyc) module from its Python source, even when "
        "the build is current (browserx/_native.py).",
    )
    record_dir: Path | None = Field(
        default=None,
        description="Save every page capture the host takes in this dir, for unit tests on real "
        "payloads (set by scripts/record_payloads.py). Default: none saved.",
    )
    test_cdp: bool = Field(
        default=False,
        description="Flag: the host relays the CDP methods only the test suite sends "
        "(browserx/relay/protocol.py TEST_ONLY_CDP), set by tests/e2e/harness.py; never outside the tests.",
    )

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Every variable's name, by field name."""
        return {name: PREFIX + name.upper() for name in cls.model_fields}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Environment:
        """The variables as ``env`` (default: ``os.environ``) has them now."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for name, variable in cls.variables().items():
            raw = env.get(variable)
            if not raw:
                continue
            if cls.model_fields[name].annotation is bool:
                if raw in ("0", "1"):
                    values[name] = raw == "1"
            else:
                values[name] = raw
        return cls.model_validate(values)


def environment() -> Environment:
    """The ``BROWSERX_*`` variables as they are now."""
    return Environment.from_env()


__all__ = ["PREFIX", "Environment", "environment"]
