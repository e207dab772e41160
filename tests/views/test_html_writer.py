"""The output of the ``html`` view (views/html_writer.py): a hard size limit that keeps room for
the end tag of every open element, so that a cut output still closes everything within it."""

from __future__ import annotations

from browserx.views.html_writer import HtmlWriter


def test_room_is_kept_for_the_end_tags_owed() -> None:
    out = HtmlWriter(20)
    assert out.open("<div>", "div")  # 5 written, 6 owed
    assert out.put("x" * 9)  # 5 + 9 + 6 = 20: fits exactly
    assert not out.full
    assert not out.put("y")  # one more would leave no room for </div>
    assert out.full
    assert not out.put("")  # once full, nothing more
    assert out.finish() == "<div>xxxxxxxxx</div>"


def test_an_element_opens_only_when_its_end_tag_fits_too() -> None:
    out = HtmlWriter(10)
    assert not out.open("<span>", "span")  # 6 + 7 > 10
    assert out.full and out.finish() == ""


def test_nested_elements_close_in_order() -> None:
    out = HtmlWriter(100)
    assert out.open("<ul>", "ul") and out.open("<li>", "li")
    out.text("one")
    out.close()
    assert out.open("<li>", "li")
    assert out.finish() == "<ul><li>one</li><li></li></ul>"
    assert out.size == len("<ul><li>one</li><li></li></ul>") and out.closing == 0


def test_long_text_is_cut_with_an_ellipsis_never_inside_an_entity() -> None:
    out = HtmlWriter(40)
    assert out.open("<p>", "p")  # room for text: 40 - 3 - 4 = 33
    out.text("a" * 29 + "&amp;" + "b" * 10)  # cut at 32 would split &amp;
    assert out.full
    assert out.finish() == "<p>" + "a" * 29 + "…</p>"
    out = HtmlWriter(40)
    assert out.open("<p>", "p")
    out.text("a" * 25 + "&amp;" + "b" * 10)  # a whole entity before the cut stays
    assert out.finish() == "<p>" + "a" * 25 + "&amp;bb…</p>"


def test_text_is_left_out_when_little_room_is_left() -> None:
    out = HtmlWriter(30)
    assert out.open("<p>", "p")  # room: 23
    out.text("x" * 10)  # fits whole
    out.text("y" * 20)  # 13 left: too little to cut to, nothing written
    assert out.full and out.finish() == "<p>xxxxxxxxxx</p>"


def test_soft_line_breaks_never_start_the_output_nor_fill_it() -> None:
    out = HtmlWriter(13)
    out.soft("\n")  # nothing written yet: no leading line break
    assert out.put("<br>")
    out.soft("\n")
    assert out.put("<hr>")
    out.soft("\n" * 10)  # does not fit: left out, the output is not full
    assert not out.full and out.put("<br>")
    assert out.finish() == "<br>\n<hr><br>"


def test_trailing_line_breaks_are_stripped() -> None:
    out = HtmlWriter(50)
    assert out.put("<hr>")
    out.soft("\n")
    assert out.finish() == "<hr>"
