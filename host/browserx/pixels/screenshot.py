"""Screenshots: the viewport, the whole page or one element, as PNG or JPEG, one image pixel per
CSS pixel (fewer with ``max_width``), with an 8×8 perceptual hash so a caller can skip an image
that did not change; with ``marks``, every element of the snapshot that has an ID and is in view
is boxed and labelled with that ID (Set-of-Mark), drawn here with Pillow, never in the page.

Through ``Page.captureScreenshot`` with a clip in page coordinates (``captureBeyondViewport`` for
the whole page: the viewport is left as it was). An element inside iframes (same-origin or
out-of-process, nested) is located in the top-level page through its frames' owners, as clicks are
(actions/frames.py), and cut to what those iframes show of it: the part scrolled out of an iframe
is not in the picture (nothing is scrolled for a screenshot).
"""

from __future__ import annotations

import base64
import io
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from browserx import page_js

if TYPE_CHECKING:  # Pillow is imported on first use: a host that takes no picture does without its ~4 MB
    from PIL import Image

from browserx.actions.effects import effects_enabled
from browserx.actions.frames import frame_hops
from browserx.actions.resolve import call_on, resolve
from browserx.errors import BadRequest, CdpError, CdpTimeout, NotInteractable
from browserx.page.page_call import page_call, page_eval
from browserx.relay.cdp_types import CaptureScreenshotResult
from browserx.snapshot.classify import is_interactive
from browserx.snapshot.snapshot import DomSnapshot
from browserx.tabs.snapshots import take_snapshot
from browserx.tabs.tab import Tab

Mode = Literal["viewport", "full_page", "element"]
BLANK = (128, 128, 128)  # the fill of an opted-out box: plain grey, nothing of what was there
FRESH_SNAPSHOT_S = 1.0  # a caller's snapshot younger than this names the opted-out boxes
MAX_PIXELS = 40_000_000  # a full-page shot larger than this is scaled down (Chrome's own limits are near)
JPEG_MAX_SIDE = 65_000  # JPEG holds at most 65,535 px a side: Chrome answers a longer one with no image
PAGE_METRICS_JS = page_js.page_world("browserx.pixels", "screenshot_page_metrics.js")
CONTENT_BOX_JS = page_js.load("browserx.pixels", "screenshot_content_box.js")
# The metrics, read in browserx's world after taking away what it drew there.
HIDE_EFFECTS_AND_METRICS_JS = page_js.load("browserx.pixels", "screenshot_hide_effects.js")


@dataclass(frozen=True)
class Shot:
    data: bytes
    format: str
    width: int
    height: int
    phash: str
    marks: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "width": self.width,
            "height": self.height,
            "phash": self.phash,
            "marks": self.marks,
            "data": base64.b64encode(self.data).decode("ascii"),
        }


async def screenshot(
    tab: Tab,
    mode: Mode = "viewport",
    element_id: int | None = None,
    fmt: Literal["png", "jpeg"] = "png",
    quality: int = 70,
    max_width: int | None = None,
    marks: bool = False,
    snap: DomSnapshot | None = None,
    show_effects: bool = False,
) -> Shot:
    """``snap``: a snapshot the caller took just now (its opted-out boxes are blanked; without
    one, a fresh snapshot is taken for them). browserx's own cursor and outlines are not in the
    picture unless ``show_effects``."""
    if (mode == "element") != (element_id is not None):
        raise BadRequest("mode element needs an id, and an id needs mode element")
    if snap is None or time.time() - snap.created_at > FRESH_SNAPSHOT_S:
        # What opted out (data-no-ai) is known from a snapshot: taken before the picture, so
        # every box it names is filled in it.
        snap = await take_snapshot(tab)
    vw, vh, sx, sy, dw, dh = await _page_metrics(tab, hide_effects=not show_effects)
    if mode == "viewport":
        clip = (sx, sy, vw, vh)
    elif mode == "full_page":
        clip = (0.0, 0.0, max(dw, vw), max(dh, vh))
    else:
        assert element_id is not None
        x, y, w, h = await element_box(tab, element_id)
        clip = (x + sx, y + sy, w, h)
    scale = image_scale(clip[2], clip[3], fmt, max_width)
    params: dict[str, Any] = {
        "format": fmt,
        "clip": {"x": clip[0], "y": clip[1], "width": clip[2], "height": clip[3], "scale": scale},
        "captureBeyondViewport": mode != "viewport",
    }
    if fmt == "jpeg":
        params["quality"] = quality
    reply = await tab.session.cdp(
        "Page.captureScreenshot", params, timeout=60, result_type=CaptureScreenshotResult
    )
    data = base64.b64decode(reply.data)
    try:
        from PIL import Image

        image = Image.open(io.BytesIO(data))
        image.load()
    except (OSError, ValueError) as exc:  # UnidentifiedImageError is an OSError
        raise CdpError(
            f"CDP error (Page.captureScreenshot): no readable {fmt} image came back ({exc})"
        ) from exc
    count = 0
    origin = (clip[0] - sx, clip[1] - sy)
    blanked = blank_opted_out(image, snap, origin, scale)
    if marks:
        count = draw_marks(image, snap, origin=origin, scale=scale)
    if marks or blanked:
        out = io.BytesIO()
        if fmt == "jpeg":
            image.convert("RGB").save(out, "JPEG", quality=quality)
        else:
            image.save(out, "PNG")
        data = out.getvalue()
    return Shot(data, fmt, image.width, image.height, perceptual_hash(image), count)


async def _page_metrics(tab: Tab, hide_effects: bool) -> tuple[float, ...]:
    """Viewport size, scroll position and document size; with ``hide_effects``, read in the same
    call that takes browserx's drawings away (in its world of the top document, where they live)."""
    world = tab.capture.worlds.get(None)
    if hide_effects and effects_enabled() and world is not None:
        try:
            value = await page_call(tab.session, HIDE_EFFECTS_AND_METRICS_JS, world=world[1])
            if isinstance(value, list):
                return tuple(float(v) for v in value)
        except (CdpError, CdpTimeout):
            pass  # that world is gone (a new document): nothing of browserx is drawn in this one
    # In the page's own world; a page error is PageScriptError, not a picture of unknown size.
    metrics = await page_eval(tab.session, PAGE_METRICS_JS)
    return tuple(float(v) for v in metrics)


def image_scale(width: float, height: float, fmt: str, max_width: int | None = None) -> float:
    """Image pixels per CSS pixel: 1, or less for ``max_width``, for a picture over MAX_PIXELS,
    and for a JPEG side over JPEG_MAX_SIDE (a full page of a long page)."""
    scale = 1.0
    if max_width is not None and width > max_width:
        scale = max_width / width
    if width * height * scale * scale > MAX_PIXELS:
        scale = math.sqrt(MAX_PIXELS / (width * height))
    if fmt == "jpeg" and max(width, height) * scale > JPEG_MAX_SIDE:
        scale = JPEG_MAX_SIDE / max(width, height)
    return scale


async def element_box(tab: Tab, element_id: int) -> tuple[float, float, float, float]:
    """The element's content box in the top-level viewport (x, y, width, height), cut to what its
    iframes show of it when it is inside any (same-process or out-of-process, nested)."""
    target = await resolve(tab, element_id)
    (left, top, right, bottom), at_top, framed = await call_on(tab, target, CONTENT_BOX_JS)
    if not at_top:  # up through the <iframe>s owning out-of-process frames, innermost first
        for hop in await frame_hops(tab, target.session_id):
            (ox, oy), (ow, oh) = hop.origin, hop.size
            left, top = max(left, 0.0) + ox, max(top, 0.0) + oy
            right, bottom = min(right, ow) + ox, min(bottom, oh) + oy
    if right - left < 1 or bottom - top < 1:
        where = "" if not framed else " (or none of it shows through its iframe: scroll it into view first)"
        raise NotInteractable(f"{target.sentence()} has no visible area to capture{where}.", id=element_id)
    return left, top, right - left, bottom - top


# -- Set-of-Mark ----------------------------------------------------------------------------------

PALETTE = ((230, 25, 75), (0, 130, 200), (60, 160, 60), (145, 30, 180), (245, 130, 48), (0, 128, 128))


def blank_opted_out(image: Image.Image, snap: DomSnapshot, origin: tuple[float, float], scale: float) -> int:
    """Fill the boxes of what opted out of AI agents (data-no-ai) in the picture (origin: the
    picture's top-left in the snapshot's viewport coordinates). Answers how many were filled."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    filled = 0
    for x, y, w, h in snap.caches.opted_out_boxes:
        left, top = (x - origin[0]) * scale, (y - origin[1]) * scale
        right, bottom = left + w * scale, top + h * scale
        if right <= 0 or bottom <= 0 or left >= image.width or top >= image.height:
            continue
        draw.rectangle((math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)), fill=BLANK)
        filled += 1
    return filled


def draw_marks(image: Image.Image, snap: DomSnapshot, origin: tuple[float, float], scale: float) -> int:
    """Box and label every element with an ID that is in view. ``origin``: where the image's
    top-left corner is in viewport coordinates. Labels go where they overlap no label placed
    before (above the top-left corner, inside it, below, at the right); white on a saturated colour
    reads on any background."""
    from PIL import ImageDraw, ImageFont

    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=max(10, round(12 * max(scale, 0.75))))
    placed: list[tuple[float, float, float, float]] = []
    count = 0
    for element_id, node in sorted(snap.by_id.items()):
        box = node.box
        if box is None or not node.visible or node.index in snap.placements or not is_interactive(node):
            continue
        x0, y0 = (box.x - origin[0]) * scale, (box.y - origin[1]) * scale
        x1, y1 = x0 + box.w * scale, y0 + box.h * scale
        if x1 <= 0 or y1 <= 0 or x0 >= image.width or y0 >= image.height or x1 - x0 < 2 or y1 - y0 < 2:
            continue
        colour = PALETTE[element_id % len(PALETTE)]
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=colour, width=2)
        label = str(element_id)
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        lw, lh = right - left + 4, bottom - top + 2
        spot = _free_spot(((x0, y0 - lh), (x0, y0), (x0, y1), (x1 - lw, y0)), lw, lh, placed, image.size)
        draw.rectangle((spot[0], spot[1], spot[0] + lw, spot[1] + lh), fill=colour)
        draw.text((spot[0] + 2 - left, spot[1] + 1 - top), label, fill=(255, 255, 255), font=font)
        placed.append((spot[0], spot[1], spot[0] + lw, spot[1] + lh))
        count += 1
    return count


def _free_spot(
    candidates: tuple[tuple[float, float], ...],
    w: float,
    h: float,
    placed: list[tuple[float, float, float, float]],
    size: tuple[int, int],
) -> tuple[float, float]:
    def fits(x: float, y: float) -> bool:
        inside = x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]
        return inside and not any(x < p[2] and p[0] < x + w and y < p[3] and p[1] < y + h for p in placed)

    for x, y in candidates:
        if fits(x, y):
            return x, y
    x, y = candidates[0]
    return min(max(x, 0), size[0] - w), min(max(y, 0), size[1] - h)


# -- perceptual hash ------------------------------------------------------------------------------

_N = 32
_COS = [[math.cos((2 * x + 1) * u * math.pi / (2 * _N)) for x in range(_N)] for u in range(8)]


def perceptual_hash(image: Image.Image) -> str:
    """The 64-bit pHash as 16 hex digits: the low 8×8 frequencies of a 32×32 grey thumbnail's DCT,
    each set when above their median. Equal for the same picture, near (Hamming) for a similar one."""
    from PIL import Image

    grey = image.convert("L").resize((_N, _N), Image.Resampling.LANCZOS)
    pixels = list(grey.tobytes())  # one byte per pixel ("L")
    rows = [pixels[i * _N : (i + 1) * _N] for i in range(_N)]
    # Separable DCT-II: along rows, then along columns, keeping the 8 lowest frequencies of each.
    along_rows = [[sum(c * p for c, p in zip(_COS[u], row, strict=True)) for u in range(8)] for row in rows]
    low = [[sum(_COS[v][y] * along_rows[y][u] for y in range(_N)) for u in range(8)] for v in range(8)]
    values = [low[v][u] for v in range(8) for u in range(8)][1:]  # without the DC term (brightness)
    median = sorted(values)[len(values) // 2]
    bits = "".join("1" if v > median else "0" for v in values) + "0"
    return f"{int(bits, 2):016x}"
