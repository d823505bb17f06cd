"""Article text cleaning: HTML and light Markdown to plain text, paragraphs kept."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Literal

TextFormat = Literal["text", "markdown", "html"]

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
_MD_HINT = re.compile(
    r"^(?:#{1,6}\s|>\s|[-*+]\s|\d+\.\s)|\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\s]+\)|^\s*(?:---|\*\*\*)\s*$",
    re.MULTILINE,
)


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


def detect_format(text: str) -> TextFormat:
    """Guess whether ``text`` is HTML, Markdown or plain text."""
    if _HTML_HINT.search(text):
        return "html"
    if _MD_HINT.search(text):
        return "markdown"
    return "text"


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
    text = re.sub(r"^```.*?^```[ \t]*$", "", text, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"^\s*\[[^\]]+\]:\s+\S+.*$", "", text, flags=re.MULTILINE)
    # [ \t] not \s: a line pattern must never eat the blank line that ends a paragraph.
    text = re.sub(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$", r"\1", text, flags=re.MULTILINE)
    text = re.sub(r"^[ \t]{0,3}(?:[-*_][ \t]*){3,}$", "", text, flags=re.MULTILINE)
    text = re.sub(r"^[ \t]{0,3}>[ \t]?", "", text, flags=re.MULTILINE)
    text = re.sub(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+", "", text, flags=re.MULTILINE)
    text = re.sub(r"(\*\*|__)(\S(?:.*?\S)?)\1", r"\2", text)
    # Single _ only at word edges: snake_case and al_Qaa-like names stay whole.
    text = re.sub(r"(?<![\w*])\*(\S(?:[^*\n]*?\S)?)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<!\w)_(\S(?:[^_\n]*?\S)?)_(?!\w)", r"\1", text)
    text = re.sub(r"`([^`\n]+)`", r"\1", text)
    text = re.sub(r"<[^>\n]+>", "", text)
    return tidy_whitespace(text)


def to_plain_text(text: str, fmt: TextFormat | None = None) -> str:
    """Plain text of an article given as plain text, Markdown or HTML (guessed when not given)."""
    kind = fmt or detect_format(text)
    if kind == "html":
        return html_to_text(text)
    if kind == "markdown":
        return markdown_to_text(text)
    return tidy_whitespace(text)
