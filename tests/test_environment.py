"""One declaration of every BROWSERX_* variable (browserx/environment.py): a name used in
host/browserx that is not declared, or a module reading one from os.environ itself, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browserx.environment import Environment, environment

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "browserx"
NAME = re.compile(r"\bBROWSERX_[A-Z0-9_]*[A-Z0-9]\b")
# os.environ["BROWSERX_…"], os.environ.get("BROWSERX_…"), os.getenv("BROWSERX_…"), environ.setdefault…
AD_HOC = re.compile(r"(environ\b[^\n]{0,20}[\[(]|getenv\()\s*f?[\"']BROWSERX_")


def _sources() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.name != "environment.py"]


def test_every_browserx_variable_named_in_the_package_is_declared() -> None:
    declared = set(Environment.variables().values())
    used = {name: path for path in _sources() for name in NAME.findall(path.read_text(encoding="utf-8"))}
    assert used, "the scan found no names at all: is PACKAGE right?"
    undeclared = {name: str(path.relative_to(PACKAGE)) for name, path in used.items() if name not in declared}
    assert not undeclared, f"declare these in browserx/environment.py: {undeclared}"


def test_no_module_reads_a_browserx_variable_itself() -> None:
    ad_hoc = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in _sources()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if AD_HOC.search(line)
    ]
    assert not ad_hoc, f"read these through browserx.environment.environment(): {ad_hoc}"
    assert AD_HOC.search('x = os.environ.get("BROWSERX_NEW", "1")')
    assert AD_HOC.search("os.getenv('BROWSERX_NEW')") and AD_HOC.search('os.environ["BROWSERX_NEW"]')


def test_every_variable_has_a_description_and_the_prefix_and_the_readme_names_it() -> None:
    readme = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    for name, field in Environment.model_fields.items():
        assert field.description and len(field.description) > 20, name
        assert Environment.variables()[name] == "BROWSERX_" + name.upper()
        assert f"`BROWSERX_{name.upper()}`" in readme, name


def test_unset_and_empty_are_the_defaults() -> None:
    everything_empty = {variable: "" for variable in Environment.variables().values()}
    assert Environment.from_env({}) == Environment.from_env(everything_empty) == Environment()
    defaults = Environment()
    assert defaults.effects and not defaults.pure and not defaults.test_cdp
    assert defaults.log_level == "info" and defaults.runtime_dir is None and defaults.socket is None


@pytest.mark.parametrize(
    ("raw", "effects", "pure"),
    [("1", True, True), ("0", False, False), ("yes", True, False), ("", True, False)],
)
def test_a_flag_is_1_or_0_and_anything_else_leaves_its_default(raw: str, effects: bool, pure: bool) -> None:
    env = Environment.from_env({"BROWSERX_EFFECTS": raw, "BROWSERX_PURE": raw, "BROWSERX_TEST_CDP": raw})
    assert (env.effects, env.pure, env.test_cdp) == (effects, pure, pure)


def test_values_are_typed() -> None:
    env = Environment.from_env(
        {"BROWSERX_RUNTIME_DIR": "/run/bx", "BROWSERX_RECORD_DIR": "/rec", "BROWSERX_LOG_LEVEL": "debug",
         "BROWSERX_SOCKET": "/s.sock", "BROWSERX_CONFIG": "/c.json", "OTHER": "x"}
    )  # fmt: skip
    assert env.runtime_dir == Path("/run/bx") and env.record_dir == Path("/rec")
    assert env.config == Path("/c.json")
    assert env.log_level == "debug" and env.socket == "/s.sock"


def test_the_readers_see_the_environment_as_it_is_when_they_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from browserx.actions.effects import effects_enabled
    from browserx.relay.protocol import allowed
    from browserx.runtime import discover_socket, runtime_dir
    from browserx.settings import settings_path

    monkeypatch.setenv("BROWSERX_RUNTIME_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("BROWSERX_SOCKET", "/env.sock")
    monkeypatch.setenv("BROWSERX_CONFIG", str(tmp_path / "c.json"))
    monkeypatch.setenv("BROWSERX_EFFECTS", "0")
    monkeypatch.setenv("BROWSERX_TEST_CDP", "1")
    assert runtime_dir() == tmp_path / "run" and discover_socket() == "/env.sock"
    assert settings_path() == tmp_path / "c.json"
    assert not effects_enabled() and allowed("Page.crash")
    assert environment() == Environment.from_env()
    monkeypatch.setenv("BROWSERX_EFFECTS", "1")
    monkeypatch.delenv("BROWSERX_TEST_CDP")
    assert effects_enabled() and not allowed("Page.crash")
