"""Article text cleaning: HTML and light Markdown to plain text, paragraphs kept."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from typing import Literal

TextFormat = Literal["text", "markdown", "html"]

# Characters of HTML the parser cannot finish (an unterminated tag or comment and the rest of
# the document) that are still read as HTML at the end; past this they are text (see
# _TextCollector.close).
HTML_TAIL = 4096

# Elements whose text is never article prose: code, page head, and site furniture around it.
_SKIP_TAGS = frozenset(
    {"script", "style", "noscript", "template", "svg", "head", "iframe", "nav", "footer", "form",
     "button", "select"}
)  # fmt: skip
# Elements that start a new line; a paragraph boundary is a blank line.
_PARA_TAGS = frozenset(
    {
        "p", "div", "article", "section", "header", "main", "aside", "blockquote",
        "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "tr", "figure",
        "figcaption", "pre", "dl", "dt", "dd", "address", "hr",
    }
)  # fmt: skip
_LINE_TAGS = frozenset({"br", "td", "th"})

_HTML_HINT = re.compile(
    r"<(?:!doctype|html|body|head|p|div|article|section|br|h[1-6]|span|a|ul|li|script|style)\b",
    re.IGNORECASE,
)
# Markdown's marks: a heading, quote or list line, bold text, a rule line; links are looked for
# apart (see _has_link). A rule's leading spaces stop at the line: "^\s*" ran on over the blank
# lines below, from each of them (quadratic in a run of blank lines), and a rule found past a
# line break starts a line of its own anyway.
_MD_HINT = re.compile(
    r"^(?:#{1,6}\s|>\s|[-*+]\s|\d+\.\s)|\*\*[^*\n]+\*\*|^[^\S\n]*(?:---|\*\*\*)\s*$",
    re.MULTILINE,
)
_NOT_SPACE = re.compile(r"\S")
_LABEL_END = re.compile(r"[\]\n]")
_URL_END = re.compile(r"[)\s]")


class _TextCollector(HTMLParser):
    """Collect visible text from HTML with block elements turned into line breaks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self._skip_depth += 1
        elif tag in _PARA_TAGS:
            self.parts.append("\n\n")
        elif tag in _LINE_TAGS:
            self.parts.append("\n" if tag == "br" else " ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # A self-closing <script/> opens nothing, so it must not raise the skip depth.
        if tag in _PARA_TAGS:
            self.parts.append("\n\n")
        elif tag in _LINE_TAGS:
            self.parts.append("\n" if tag == "br" else " ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in _PARA_TAGS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            # Source line breaks inside HTML are layout, not text.
            self.parts.append(re.sub(r"\s+", " ", data))

    def parse_html_declaration(self, i: int) -> int:
        try:
            return super().parse_html_declaration(i)
        except AssertionError:
            # "<![x" that opens no CDATA section: this Python's parser raises (newer ones
            # read it as a comment up to the next ">", as here).
            end = self.rawdata.find(">", i + 2)
            return -1 if end < 0 else end + 1

    def close(self) -> None:
        # What is left is an unterminated tag, comment or declaration and the rest of the
        # document. Python's parser reads it again to the end from every "<" of it
        # ("<a<a<a...", "<!--<!--...": quadratic); past HTML_TAIL characters it is kept as
        # text, tags and all, as the parser keeps it too when no ">" follows.
        if len(self.rawdata) > HTML_TAIL and not self.cdata_elem:
            rest, self.rawdata = self.rawdata, ""
            self.handle_data(unescape(rest))
        super().close()


def detect_format(text: str) -> TextFormat:
    """Guess whether ``text`` is HTML, Markdown or plain text."""
    if _HTML_HINT.search(text):
        return "html"
    if _MD_HINT.search(text) or _has_link(text):
        return "markdown"
    return "text"


def _has_link(text: str) -> bool:
    r"""Whether ``\[[^\]\n]+\]\([^)\s]+\)`` (a link, "[label](url)") is found in ``text``.

    The regex read the rest of a line again from every "[" of it ("[[[[...": quadratic). A
    label ends at the first "]" or line break after its "[", so every "[" before that end fails
    with the first one; and a url scanned once is not scanned again from inside it.
    """
    i = 0
    url_from = url_end = -1  # the last url scanned: where it started and stopped
    while True:
        p = text.find("[", i)
        if p < 0:
            return False
        found = _LABEL_END.search(text, p + 1)
        if found is None:
            return False
        q = found.start()
        if q == p + 1 and text[q] == "]":  # "[]": an empty label fails this "[" only
            i = p + 1
            continue
        if text[q] == "\n" or not text.startswith("(", q + 1):
            i = q + 1
            continue
        if not url_from <= q + 2 < url_end:
            url_from = q + 2
            stop = _URL_END.search(text, url_from)
            url_end = stop.start() if stop else len(text)
        if url_end > q + 2 and text.startswith(")", url_end):
            return True
        i = q + 1


def tidy_whitespace(text: str) -> str:
    """Normalise line ends and spaces: one blank line between paragraphs, no trailing spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u00a0", " ").replace("\u200b", "").replace("\ufeff", "")
    text = re.sub(r"[ \t\f\v]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


def html_to_text(html: str) -> str:
    """Visible text of an HTML document, without script or style, paragraphs kept."""
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    return tidy_whitespace("".join(collector.parts))


def markdown_to_text(md: str) -> str:
    """Plain text of Markdown: headings, emphasis, links, lists and quotes unmarked."""
    text = md.replace("\r\n", "\n")
    # Fences, links, references, bold text and tags are removed by functions that do what
    # their docstring's re.sub does in one pass: the regex alone, tried again from every "[",
    # "**" or "<" that opens nothing, re-read the rest of the line or text each time.
    text = _drop_fences(text)
    text = _links(text, "![", "(", ")")  # ![alt](src)
    text = _links(text, "[", "(", ")")  # [label](url)
    text = _links(text, "[", "[", "]")  # [label][ref]
    text = _drop_references(text)
    # [ \t] not \s: a line pattern must never eat the blank line that ends a paragraph.
    text = _HEADING.sub(_heading_text, text)
    text = re.sub(r"^[ \t]{0,3}(?:[-*_][ \t]*){3,}$", "", text, flags=re.MULTILINE)
    text = re.sub(r"^[ \t]{0,3}>[ \t]?", "", text, flags=re.MULTILINE)
    text = re.sub(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+", "", text, flags=re.MULTILINE)
    text = _strong(text)
    # Single _ only at word edges: snake_case and al_Qaa-like names stay whole.
    text = re.sub(r"(?<![\w*])\*(\S(?:[^*\n]*?\S)?)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<!\w)_(\S(?:[^_\n]*?\S)?)_(?!\w)", r"\1", text)
    text = re.sub(r"`([^`\n]+)`", r"\1", text)
    text = _drop_tags(text)
    return tidy_whitespace(text)


_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
_FENCE_OPEN = re.compile(r"^```", re.MULTILINE)


def _drop_fences(text: str) -> str:
    """``_FENCE.sub("", text)``: fenced code blocks removed. A fence that finds no closing one
    ends the search: no later fence can find one either."""
    out, pos = [], 0
    for opening in _FENCE_OPEN.finditer(text):
        if opening.start() < pos:
            continue
        m = _FENCE.match(text, opening.start())
        if m is None:
            break
        out.append(text[pos : m.start()])
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _links(text: str, opener: str, bracket: str, closer: str) -> str:
    r"""The label of every link, as ``re.sub(pattern, r"\1", text)`` with the pattern
    ``!\[([^\]]*)\]\([^)]*\)`` for ``("![", "(", ")")``, ``\[([^\]]+)\]\([^)]*\)`` for
    ``("[", "(", ")")`` and ``\[([^\]]+)\]\[[^\]]*\]`` for ``("[", "[", "]")``.

    A label runs to the first "]" after its opener, so every opener before that "]" fails
    with the first one; an opener with no "]" or no closer after it leaves none for a later
    one either.
    """
    empty_ok = opener == "!["  # an image's alt text may be empty, a link's label not
    out, pos, i = [], 0, 0
    while True:
        p = text.find(opener, i)
        if p < 0:
            break
        label = p + len(opener)
        if not empty_ok and text.startswith("]", label):
            i = p + 1
            continue
        q = text.find("]", label)
        if q < 0:
            break
        if not text.startswith(bracket, q + 1):
            i = q + 1
            continue
        r = text.find(closer, q + 2)
        if r < 0:
            break
        out.append(text[pos:p])
        out.append(text[label:q])
        pos = i = r + 1
    out.append(text[pos:])
    return "".join(out)


_REFERENCE_START = re.compile(r"^[^\S\n]*\[", re.MULTILINE)


def _drop_references(text: str) -> str:
    r"""``re.sub(r"^\s*\[[^\]]+\]:\s+\S+.*$", "", text, flags=re.MULTILINE)``: reference
    lines ("[1]: https://..."), with the blank lines before them.

    The regex's leading spaces run over line breaks, so it was tried from every line of a run
    of blank lines, each time to the same "[" (quadratic). Here each "[" that only spaces
    separate from its line's start is tried once, from the first line start of the blank
    lines above it.
    """
    out, pos, skip_to = [], 0, 0
    for opening in _REFERENCE_START.finditer(text):
        p = opening.end() - 1
        if p < pos or p < skip_to:
            continue
        if text.startswith("]", p + 1):  # "[]": an empty label fails this "[" only
            continue
        q = text.find("]", p + 1)  # the label may hold line breaks
        if q < 0:
            break
        if not (text.startswith(":", q + 1) and text[q + 2 : q + 3].isspace()):
            skip_to = q + 1  # every "[" before q ends its label at q too
            continue
        word = _NOT_SPACE.search(text, q + 2)
        if word is None:
            break
        start = text.rfind("\n", 0, p) + 1
        while start > pos:  # up over blank lines, not above pos
            above = text.rfind("\n", 0, start - 1) + 1
            if above < pos or not (above == start - 1 or text[above : start - 1].isspace()):
                break
            start = above
        end = text.find("\n", word.start())
        out.append(text[pos:start])
        pos = len(text) if end < 0 else end
    out.append(text[pos:])
    return "".join(out)


# A heading line. Its text loses the closing hashes and spaces in _heading_text: a lazy
# "(.*?)[ \t]*#*[ \t]*$" tried every split of a run of spaces at every step (cubic).
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*)$", re.MULTILINE)


def _heading_text(m: re.Match[str]) -> str:
    return m.group(1).rstrip(" \t").rstrip("#").rstrip(" \t")


_STRONG = re.compile(r"(\*\*|__)(\S(?:.*?\S)?)\1")
_STRONG_OPEN = re.compile(r"(?=\*\*|__)")


def _strong(text: str) -> str:
    r"""``_STRONG.sub(r"\2", text)``: bold text unmarked.

    A "**" followed by a letter that finds no closing "**" on its line leaves none for a later
    "**" of that line: the line is not searched again for one.
    """
    out, pos = [], 0
    dead: dict[str, int] = {}  # "**" or "__" -> the end of the line where it has no closer
    for opening in _STRONG_OPEN.finditer(text):
        p = opening.start()
        mark = text[p : p + 2]
        if p < pos or p < dead.get(mark, -1):
            continue
        m = _STRONG.match(text, p)
        if m is not None:
            out.append(text[pos:p])
            out.append(m.group(2))
            pos = m.end()
        elif _NOT_SPACE.match(text, p + 2):
            end = text.find("\n", p)
            dead[mark] = len(text) if end < 0 else end
    out.append(text[pos:])
    return "".join(out)


_TAG_END = re.compile(r"[>\n]")


def _drop_tags(text: str) -> str:
    r"""``re.sub(r"<[^>\n]+>", "", text)``: every "<" before a line's end with no ">" before
    it fails with the first one."""
    out, pos, i = [], 0, 0
    while True:
        p = text.find("<", i)
        if p < 0:
            break
        end = _TAG_END.search(text, p + 1)
        if end is None:
            break
        q = end.start()
        if text[q] == "\n":
            i = q + 1
        elif q == p + 1:  # "<>" fails this "<" only
            i = p + 1
        else:
            out.append(text[pos:p])
            pos = i = q + 1
    out.append(text[pos:])
    return "".join(out)


def to_plain_text(text: str, fmt: TextFormat | None = None) -> str:
    """Plain text of an article given as plain text, Markdown or HTML (guessed when not given)."""
    kind = fmt or detect_format(text)
    if kind == "html":
        return html_to_text(text)
    if kind == "markdown":
        return markdown_to_text(text)
    return tidy_whitespace(text)
