// @ts-check
// actions/scroll.py: the top-level page's scroll position.
[scrollX, scrollY]
