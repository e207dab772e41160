"""The pure parts of screenshots (pixels/screenshot.py): the perceptual hash and Set-of-Mark labels
(Pillow, no browser)."""

from __future__ import annotations

from types import SimpleNamespace

from PIL import Image, ImageDraw

from browserx.pixels.screenshot import JPEG_MAX_SIDE, MAX_PIXELS, draw_marks, image_scale, perceptual_hash
from browserx.snapshot.model import Box, Node, NodeRef


def picture(shift: int = 0, light: int = 0) -> Image.Image:
    image = Image.new("RGB", (320, 200), (240 + light // 2, 240 + light // 2, 240 + light // 2))
    draw = ImageDraw.Draw(image)
    draw.rectangle((20 + shift, 30, 140 + shift, 90), fill=(30 + light, 60 + light, 200))
    draw.ellipse((180, 100, 300, 190), fill=(200, 40 + light, 40))
    return image


def hamming(a: str, b: str) -> int:
    return bin(int(a, 16) ^ int(b, 16)).count("1")


def test_the_hash_is_the_same_for_the_same_picture_near_for_a_similar_one_far_for_another() -> None:
    assert perceptual_hash(picture()) == perceptual_hash(picture())
    assert len(perceptual_hash(picture())) == 16
    assert hamming(perceptual_hash(picture()), perceptual_hash(picture(light=10))) <= 6
    other = Image.new("RGB", (320, 200), (255, 255, 255))
    ImageDraw.Draw(other).rectangle((200, 10, 310, 60), fill=(0, 0, 0))
    assert hamming(perceptual_hash(picture()), perceptual_hash(other)) >= 12


def _node(index: int, box: Box) -> Node:
    return Node(NodeRef("m", index + 1), "button", box=box, index=index, role="button", tier=2)


def test_marks_label_every_element_in_view_and_skip_the_rest() -> None:
    # A dense grid of small controls: each gets a box and a label.
    by_id = {i + 1: _node(i, Box(10 + (i % 12) * 24, 40 + (i // 12) * 16, 20, 12)) for i in range(96)}
    by_id[500] = _node(500, Box(2000, 40, 20, 12))  # out of the image: not drawn
    snap = SimpleNamespace(by_id=by_id, placements={})
    image = Image.new("RGB", (320, 240), (255, 255, 255))
    drawn = draw_marks(image, snap, origin=(0.0, 0.0), scale=1.0)  # type: ignore[arg-type]
    assert drawn == 96
    assert image.getcolors(1_000_000) is not None and len(image.getcolors(1_000_000) or []) > 2


def test_the_scale_keeps_one_pixel_per_css_pixel_unless_the_picture_would_be_too_big() -> None:
    assert image_scale(1280, 900, "png") == 1.0
    assert image_scale(1280, 900, "jpeg", max_width=1024) == 1024 / 1280
    assert image_scale(800, 600, "jpeg", max_width=1024) == 1.0  # never scaled up
    tall = image_scale(1265, 170_886, "png")  # the full 20k generated page
    assert 1265 * 170_886 * tall * tall <= MAX_PIXELS * 1.0001
    # JPEG cannot hold 73,000 px: Chrome would answer with no image at all.
    assert 170_886 * image_scale(1265, 170_886, "jpeg") <= JPEG_MAX_SIDE < 65_536
