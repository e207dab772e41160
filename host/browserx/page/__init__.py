"""Everything that talks to the page: isolated worlds, capture (the collector and its extras:
click listeners, closed shadow roots, ElementInternals roles, framework handlers), hit tests of
what covers what, the CSS filter, the page watcher, recordings of captures. What it gathers is
plain data (snapshot/frames.py) the pure passes of snapshot/ turn into a snapshot."""
