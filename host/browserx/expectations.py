"""What an action should bring about (``expect``), checked after it (docs/DESIGN.md,
"Verification"). Pure data (pydantic), beneath both the tool params (control/schemas.py) and the
check itself (actions/verify.py)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

KINDS = ("navigation", "url_contains", "element_appears", "element_disappears", "value_changes", "state_changes",
         "any_change", "no_change")  # fmt: skip


class ElementMatch(BaseModel):
    """An element by the text a person reads on it, or by its role and name (as snapshots show them)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str | None = Field(
        default=None, min_length=1, description="Visible text on the page (case and spacing ignored)."
    )
    role: str | None = Field(
        default=None, min_length=1, description="Role as snapshots show it: dialog, alert, button, ..."
    )
    name: str | None = Field(default=None, description="With role: part of its name (case ignored).")

    @model_validator(mode="after")
    def _one_way(self) -> ElementMatch:
        if self.text is None and self.role is None:
            raise ValueError("give text, or role (and optionally name)")
        if self.text is not None and (self.role is not None or self.name is not None):
            raise ValueError("give text, or role and name, not both")
        if self.name is not None and self.role is None:
            raise ValueError("name needs a role")
        return self


class Expect(BaseModel):
    """What the action should bring about, checked after it. Every condition given must hold;
    ``or`` lists alternatives of which one must hold."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    navigation: bool | None = Field(
        default=None, description="true: the page navigates (new document or URL); false: it does not."
    )
    url_contains: str | None = Field(
        default=None, min_length=1, description="The URL afterwards contains this."
    )
    element_appears: ElementMatch | None = Field(
        default=None,
        description="An element that was not on the page shows up (a toast, a dialog, a result).",
    )
    element_disappears: ElementMatch | None = Field(
        default=None,
        description="An element that was on the page goes away (a dialog closes, a spinner ends).",
    )
    value_changes: bool | None = Field(
        default=None, description="true: the acted-on element's value changes."
    )
    state_changes: bool | None = Field(
        default=None,
        description="true: the acted-on element's state changes (checked, selected, pressed, expanded, open, disabled).",
    )
    any_change: bool | None = Field(
        default=None, description="true: anything changes (DOM, URL, scroll, value)."
    )
    no_change: bool | None = Field(
        default=None, description="true: nothing changes and no error shows (a check that merely looks)."
    )
    any_of: list[Expect] | None = Field(
        default=None, alias="or", min_length=1, description="Alternatives: one of them must hold."
    )
    timeout: float = Field(
        default=3.0, gt=0, le=60, description="Seconds to wait for it to hold (the outermost one counts)."
    )

    @model_validator(mode="after")
    def _not_empty(self) -> Expect:
        if not self.conditions() and not self.any_of:
            raise ValueError("expect needs at least one condition")
        return self

    def conditions(self) -> dict[str, Any]:
        """The conditions given (not ``or``, not timeout), by name."""
        return {k: getattr(self, k) for k in KINDS if getattr(self, k) is not None}


# What an action of each kind should bring about when its caller named nothing (the backend
# loop's default check, docs/DESIGN.md "Verification"): a click, a key or a scroll changes
# something (DOM, URL, scroll, value); typing changes the field's value; a select its value or
# state; a check its state; going somewhere navigates. Hover and wait have none: often nothing
# visible is their whole effect. The action has settled before this is checked, so the wait is
# short.
DEFAULT_TIMEOUT_S = 1.0
DEFAULT_EXPECT: dict[str, dict[str, Any]] = {
    "click": {"any_change": True}, "click_at": {"any_change": True}, "key": {"any_change": True},
    "scroll": {"any_change": True}, "type": {"value_changes": True},
    "select": {"or": [{"value_changes": True}, {"state_changes": True}]}, "check": {"state_changes": True},
    "navigate": {"navigation": True}, "back": {"navigation": True}, "forward": {"navigation": True},
    "reload": {"navigation": True},
}  # fmt: skip


def default_expect(action: str) -> Expect | None:
    """The default expectation of an action kind (a tool name), or None when it has none."""
    spec = DEFAULT_EXPECT.get(action)
    return Expect.model_validate({**spec, "timeout": DEFAULT_TIMEOUT_S}) if spec is not None else None


__all__ = ["DEFAULT_EXPECT", "DEFAULT_TIMEOUT_S", "KINDS", "ElementMatch", "Expect", "default_expect"]
