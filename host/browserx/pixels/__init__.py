"""Pixels: what the page looks like — screenshots of the viewport, the whole page or one element,
Set-of-Mark labels drawn on them, and their perceptual hash."""
