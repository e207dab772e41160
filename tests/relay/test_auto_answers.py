"""relay/dialogs.py AutoAnswers: the dialogs the person has answered at once, and what a result
may say of them."""

from __future__ import annotations

from browserx.relay.cdp_types import JavaScriptDialogOpening
from browserx.relay.dialogs import MAX_ANSWERED, AutoAnswers


def test_only_the_chosen_kinds_are_answered_and_reported_once() -> None:
    answers = AutoAnswers()
    assert (
        answers.answer_for(JavaScriptDialogOpening(type="alert", message="hi"), True) is None
    )  # default: none
    answers.policy = {"alert": True, "prompt": True, "beforeunload": False}.get
    assert answers.answer_for(JavaScriptDialogOpening(type="confirm", message="Delete?"), True) is None
    prompt = JavaScriptDialogOpening(type="prompt", message="Name?", defaultPrompt="Ann")
    assert answers.answer_for(prompt, True) == {"accept": True, "promptText": "Ann"}
    # An opted-out page's message is not reported (nor a verdict not yet known).
    assert answers.answer_for(JavaScriptDialogOpening(type="alert", message="secret"), None) == {
        "accept": True
    }
    assert answers.answer_for(JavaScriptDialogOpening(type="beforeunload"), True) == {"accept": False}
    taken = answers.take()
    assert taken[0] == {"type": "prompt", "message": "Name?", "default_prompt": "Ann", "accepted": True}
    assert taken[1] == {"type": "alert", "accepted": True}
    assert taken[2]["accepted"] is False and len(taken) == 3
    assert answers.take() == []


def test_a_page_that_opens_dialogs_in_a_loop_is_remembered_in_bounds() -> None:
    answers = AutoAnswers()
    answers.policy = lambda kind: True
    for n in range(MAX_ANSWERED * 5):
        answers.answer_for(JavaScriptDialogOpening(type="alert", message=str(n)), True)
    taken = answers.take()
    assert len(taken) == MAX_ANSWERED and taken[-1]["message"] == str(MAX_ANSWERED * 5 - 1)
