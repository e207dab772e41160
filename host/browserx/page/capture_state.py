"""CaptureState: what capture keeps about a tab's page between snapshots — browserx's isolated
world per session, the node-key bookkeeping of each document, the keys of listening nodes and
frame owners, documents watched from their first moment, and the listener listings and document
handles reused while a document lives. It clears itself when its session says a child session
or the whole page went away, or that the debugger attached afresh.
"""

from __future__ import annotations

import secrets

from browserx.relay.session import TabSession


class CaptureState:
    def __init__(self, session: TabSession) -> None:
        self.session = session
        # browserx's isolated world per session: (frame id, execution context id).
        self.worlds: dict[str | None, tuple[str, int]] = {}
        self.frame_ids: dict[str | None, str] = {}  # top frame id per session
        self.worlds_checked: dict[str | None, float] = {}  # monotonic time each world was last confirmed
        # Node keys of each document start at a base no other document of the tab had (see
        # page/capture.py): the collector takes the session's reserved base when it meets a
        # new document and reports the base it used, so the host learns of a new document from
        # the page itself (execution context ids are reused by a new renderer process).
        # Random start: a restarted host must not hand out a base the previous host already used.
        self.key_epoch = secrets.randbelow(1 << 27)
        self.key_bases: dict[str | None, int] = {}  # base of each session's current document
        self._fresh_bases: dict[str | None, int] = {}  # reserved for its next new document
        self.live_key_epochs: frozenset[int] = frozenset()  # as of the last ID clean-up
        # Per (session, isolated world): listening node's backendNodeId → collector key.
        self.listener_keys: dict[tuple[str | None, int], dict[int, int]] = {}
        # Per (parent session, its isolated world, child frame id): the key of the <iframe>
        # element that holds the out-of-process child frame.
        self.owner_keys: dict[tuple[str | None, int, str], int] = {}
        # Sessions whose new documents get the page watcher from their first moment (capture.py).
        self.watched_sessions: set[str | None] = set()
        # Sessions whose documents hold so many click listeners that listing them is slow (capture.py).
        self.listener_heavy: set[str | None] = set()
        # Per session: a main-world handle on its document, with the isolated world it was taken
        # beside (capture.py lists click listeners through it), and the document's element count.
        self.doc_handles: dict[str | None, tuple[tuple[str, int], str]] = {}
        self.element_counts: dict[str | None, int] = {}
        # Per session: the last listing of a listener-heavy document, with its world and the page
        # watcher's mutation count when it was taken (capture.py reuses it while that stands).
        self.heavy_listings: dict[str | None, tuple[tuple[str, int], int, dict[int, set[str]]]] = {}
        # Per session: what Chrome's accessibility tree said of each custom element with an
        # ElementInternals role (page/internals.py), by key, with the element's attributes then.
        self.internal_facts: dict[str | None, dict[int, tuple[str, dict[str, object]]]] = {}
        session.on_attached.append(self.watched_sessions.clear)  # scripts of a former attachment are gone
        session.on_session_gone.append(self.forget_session)
        session.on_page_gone.append(self._page_gone)

    def fresh_base(self, session_id: str | None, key_bits: int) -> int:
        """The key base the session's next new document will take (reserved until one does)."""
        base = self._fresh_bases.get(session_id)
        if base is None:
            self.key_epoch += 1
            base = self._fresh_bases[session_id] = self.key_epoch << key_bits
        return base

    def document_seen(self, session_id: str | None, base: int) -> bool:
        """Record the key base the collector found in the session's document; True when that is
        a document not seen before (what was cached for the old one is dropped)."""
        if self._fresh_bases.get(session_id) == base:
            del self._fresh_bases[session_id]  # taken: the next new document gets another
        if self.key_bases.get(session_id) == base:
            return False
        self.key_bases[session_id] = base
        self.forget_document_keys(session_id)
        self.listener_heavy.discard(session_id)
        return True

    def forget_session(self, session_id: str) -> None:
        """A child session went away: what was kept for its documents goes with it."""
        self.worlds.pop(session_id, None)
        self.frame_ids.pop(session_id, None)
        self.key_bases.pop(session_id, None)
        self._fresh_bases.pop(session_id, None)
        self.forget_document_keys(session_id)

    def forget_document_keys(self, session_id: str | None) -> None:
        """Drop what the session's keys were cached for (listening nodes, frame owners): its
        document changed or it went away."""
        for stale in [k for k in self.listener_keys if k[0] == session_id]:
            del self.listener_keys[stale]
        for owner in [k for k in self.owner_keys if k[0] == session_id]:
            del self.owner_keys[owner]
        self.doc_handles.pop(session_id, None)
        self.heavy_listings.pop(session_id, None)
        self.internal_facts.pop(session_id, None)

    def _page_gone(self, reason: str) -> None:
        """Detached or crashed: the page's worlds, watchers and handles are gone. The main
        document's key base stays (a document that comes back keeps its keys); the child sessions
        are gone for good (a new attachment gives their frames new sessions), and with their key
        bases the IDs of their documents are let go at the next snapshot."""
        for session_id in [s for s in self.key_bases if s is not None]:
            del self.key_bases[session_id]
        for session_id in [s for s in self._fresh_bases if s is not None]:
            del self._fresh_bases[session_id]
        self.worlds.clear()
        self.worlds_checked.clear()
        self.frame_ids.clear()
        self.listener_keys.clear()
        self.owner_keys.clear()
        self.doc_handles.clear()
        self.heavy_listings.clear()
        self.internal_facts.clear()
        if reason == "renderer crashed":
            self.watched_sessions.clear()
