"""AppTest of the New story page under hostile input: markup-laden articles, full disks."""

from __future__ import annotations

import errno
import os
import re

import pytest

from geo.extract import draft
from geo.story import storage
from tests.app.test_new_story_page import ARTICLE, extract, run_page, stories  # noqa: F401
from tests.helpers import payload

MARKUP = re.compile(r"\*\*B|\]\(http|!\[I|<img|<b>T|<script|<svg|:red\[|^#+ H", re.M)


def shown(at) -> list[str]:
    out = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "subheader"):
        out += [e.value for e in getattr(at, kind)]
    return out


def test_a_pasted_article_full_of_markup_is_shown_as_text(stories):  # noqa: F811
    text = ARTICLE.replace("\n\n", "\n\n" + payload("art") + "\r\r", 2)
    at = extract(run_page(), text)
    article = [m for m in at.markdown if m.value.startswith('<div style="line-height')]
    assert len(article) == 1
    body = article[0].value
    # One HTML block: no blank line (nor lone CR) can end it and let markdown through.
    assert "\n" not in body and "\r" not in body
    assert not [t for t in shown(at) if MARKUP.search(t)]
    at.text_input(key="search_name").set_value("**x** [y](http://evil.example)")
    next(b for b in at.button if b.label == "Search").click().run()
    assert not at.exception
    assert not [t for t in shown(at) if MARKUP.search(t) or "](http" in t]
    # The name the search did not find is offered as a place to pin: as text again.
    next(b for b in at.button if b.label.startswith("Add ")).click().run()
    assert not at.exception
    assert not [t for t in shown(at) if MARKUP.search(t) or "](http" in t]


def _fail_with(code: int):
    def fail(*_a, **_k):
        raise OSError(code, os.strerror(code))

    return fail


def test_a_file_size_limit_in_the_preview_is_a_message(stories, monkeypatch):  # noqa: F811
    monkeypatch.setattr(draft.tempfile, "mkdtemp", _fail_with(errno.EFBIG))
    at = extract(run_page(), ARTICLE)
    assert not at.exception, at.exception
    assert any("larger than this system allows" in e.value for e in at.error)


@pytest.mark.parametrize(
    ("code", "reason"), [(errno.ENOSPC, "disk is full"), (errno.EROFS, "read&#45;only")]
)
def test_a_full_or_read_only_disk_on_save_is_a_message(stories, monkeypatch, code, reason):  # noqa: F811
    at = extract(run_page(), ARTICLE)
    at.text_input(key="story_title").set_value("Disk test").run()
    monkeypatch.setattr(storage, "_write", _fail_with(code))
    next(b for b in at.button if b.label == "Save story").click().run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert any(reason in e and "Nothing was written" in e for e in errors), errors
    assert not stories.exists() or not any(stories.iterdir())
