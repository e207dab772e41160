"""An answer's expected outcome (docs/DESIGN.md, "Verification") as the ``expect`` of the action
(interfaces/agent/expect.py): kinds, alternatives, timeouts in milliseconds."""

from __future__ import annotations

from browserx.interfaces.agent.expect import to_expect


def test_to_expect() -> None:
    assert to_expect({"type": "navigation", "or_element_appears": "Thank you"}) == {
        "or": [{"navigation": True}, {"element_appears": {"text": "Thank you"}}]
    }
    assert to_expect({"type": "element_appears", "text": "Saved", "timeout": 2000}) == {
        "element_appears": {"text": "Saved"},
        "timeout": 2.0,
    }
    # Milliseconds, always (backends write timeout: 2000): 5 is 5 ms, not 5 s; at most 60 s.
    assert to_expect({"type": "element_disappears", "role": "dialog", "name": "Cookies", "timeout": 5}) == {
        "element_disappears": {"role": "dialog", "name": "Cookies"},
        "timeout": 0.005,
    }
    assert to_expect({"type": "navigation", "timeoutMs": 1500}) == {"navigation": True, "timeout": 1.5}
    assert to_expect({"type": "navigation", "timeout": 120_000}) == {"navigation": True, "timeout": 60.0}
    assert to_expect({"type": "navigation", "timeout": 0}) == {"navigation": True}  # the default wait
    assert to_expect({"type": "url_contains", "value": "/done"}) == {"url_contains": "/done"}
    assert to_expect({"type": "value_changes"}) == {"value_changes": True}
    assert to_expect(
        {"type": "navigation", "orOutcome": {"type": "element_appears", "text": "Hi", "timeout": 9}}
    ) == {"or": [{"navigation": True}, {"element_appears": {"text": "Hi"}}]}
    assert to_expect({"type": "teleport"}) is None
    assert to_expect("navigation") is None
    assert to_expect(None) is None
