"""Actions: act on the element IDs of a snapshot, like a person would.

resolve (ID → live element, self-healing) → pointer / keyboard / scroll / forms / navigation,
each run inside ``runner.perform`` which observes changes and returns an ``ActionResult``.
"""

from browserx.actions.at_point import click_at, hover_at
from browserx.actions.dialogs import ANY_DIALOG, answer_dialog
from browserx.actions.drag import drag
from browserx.actions.forms import check, select
from browserx.actions.keyboard import key, type_text
from browserx.actions.navigation import back, forward, navigate, reload, wait_for
from browserx.actions.pointer import click, hover
from browserx.actions.result import ActionResult, Changes
from browserx.actions.scroll import scroll
from browserx.actions.upload import upload

__all__ = [
    "ANY_DIALOG",
    "ActionResult",
    "Changes",
    "answer_dialog",
    "back",
    "check",
    "click",
    "click_at",
    "drag",
    "forward",
    "hover",
    "hover_at",
    "key",
    "navigate",
    "reload",
    "scroll",
    "select",
    "type_text",
    "upload",
    "wait_for",
]
