"""Tabs: what browserx holds per browser tab (``Tab``: its debugger session, capture state,
snapshots, IDs, action memory, view state and page events), the registry of tabs, and taking a
snapshot of one."""
