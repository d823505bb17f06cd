"""Figures in news text: numbers tied to what they count, with killed/wounded flags."""

from __future__ import annotations

import re
from dataclasses import dataclass

from geo.extract.sentences import Sentence, Spans, sentence_index

_UNITS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}

# Counted nouns, singular and plural, to the normalised ``what``.
_NOUNS: dict[str, str] = {}
for _what, _forms in {
    "people": "people person persons resident residents inhabitants men women man woman",
    "civilians": "civilian civilians",
    "militants": "militant militants jihadist jihadists jihadis insurgent insurgents extremist "
    "extremists terrorist terrorists gunman gunmen",
    "rebels": "rebel rebels",
    "fighters": "fighter fighters combatant combatants",
    "soldiers": "soldier soldiers troops servicemen serviceman officer officers policemen "
    "policeman personnel",
    "children": "child children",
    "families": "family families",
    "households": "household households",
    "buses": "bus buses",
    "vehicles": "vehicle vehicles car cars truck trucks lorry lorries",
    "ambulances": "ambulance ambulances",
    "captives": "captive captives hostage hostages prisoner prisoners detainee detainees "
    "abductee abductees",
    "bodies": "body bodies corpse corpses remains",
    "killed": "dead killed fatalities deaths",
    "wounded": "wounded injured",
    "casualties": "casualties",
    "displaced": "refugees refugee displaced evacuees",
    "buildings": "homes houses buildings",
    "villages": "villages towns",
    "airstrikes": "airstrikes air-strikes raids",
    "rockets": "rockets missiles shells mortars",
    "km": "km kilometres kilometers kilometre kilometer miles mile",
}.items():
    for _form in _forms.split():
        _NOUNS[_form] = _what

_AREA = r"(?:square\s+(?:kilometres|kilometers|km|miles)|sq\.?\s*km|km2|km²)"
_WORD_NUMBER = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
_NUMBER = re.compile(
    r"(?<![\w.,\-])(?:(?P<digits>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s+(?P<scale>thousand|million|"
    r"billion))?|(?P<words>(?:"
    + _WORD_NUMBER
    + r")(?:(?:\s+and\s+|[\s-]+)(?:"
    + _WORD_NUMBER
    + r"))*))(?![\w\-]|[.,]\d)",
    re.IGNORECASE,
)
# Words allowed between a number and its noun ("Eleven Hezbollah fighters", "17 green buses").
_STOP = frozenset(
    [
        "and", "or", "of", "the", "a", "an", "in", "on", "at", "with", "to", "from", "by",
        "for", "were", "was", "had", "have", "has", "is", "are", "who", "which", "that",
        "said", "says", "more", "than", "as", "their", "its", "his", "her", "they", "it",
        "this", "these", "those",
    ]
)  # fmt: skip
_MAX_MODIFIERS = 3
_KILL = re.compile(r"\b(?:kill(?:ed|ing|s)?|dead|died|die|deaths?|slain|executed|massacred|"
                   r"martyred|perished|lost their lives)\b", re.IGNORECASE)  # fmt: skip
_WOUND = re.compile(r"\b(?:wound(?:ed|ing|s)?|injur(?:ed|ies|ing|y)|hurt)\b", re.IGNORECASE)
_VERB_BEFORE = re.compile(
    r"\b(?P<verb>kill(?:ed|ing|s)?|wound(?:ed|ing|s)?|injur(?:ed|ing|es)|"
    # "the death toll rose to", "the toll since mid-June to": a toll names the dead.
    r"(?:death\s+)?toll\b[^.;:]{0,30}?\b(?:to|at|of|reached|stood at))\s+"
    r"(?:(?:at least|some|about|around|nearly|almost|more than|over|up to|an estimated)\s+)?$",
    re.IGNORECASE,
)
_APPROX_BEFORE = re.compile(
    r"\b(?:at least|more than|about|around|nearly|almost|some|up to|an estimated|roughly|"
    r"approximately)\s+$",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[;:.!?]|\bsaid\b|\bsays\b|\baccording to\b|,\s*(?:but|while|as)\b")
_COORDINATION = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|,?\s*as well as)\s*")
_AFTER_WINDOW = 80
# Right after a number: an area unit, a hedge ("or so", "-odd"), a partitive ("of its").
_AREA_AFTER = re.compile(r"\s+" + _AREA + r"\b|\s*(?:km2|km²)", re.IGNORECASE)
_HEDGE = re.compile(r"(?:\s+or\s+so|-odd|\s+odd)\b")
_PARTITIVE = re.compile(r"\s+of\s+(?:its|their|the|his|her|our|those|these)(?=\s)")


@dataclass(frozen=True)
class Figure:
    """A number and what it counts, with its span and killed/wounded flags."""

    value: float
    text: str
    start: int
    end: int
    sentence: int
    what: str
    noun: str
    qualifier: str
    killed: bool
    wounded: bool
    approximate: bool

    @property
    def span(self) -> tuple[int, int]:
        """[start, end) character offsets in the article text."""
        return (self.start, self.end)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        value: float | int = int(self.value) if float(self.value).is_integer() else self.value
        return {
            "value": value,
            "text": self.text,
            "span": [self.start, self.end],
            "sentence": self.sentence,
            "what": self.what,
            "noun": self.noun,
            "qualifier": self.qualifier,
            "killed": self.killed,
            "wounded": self.wounded,
            "approximate": self.approximate,
        }


def words_to_number(words: str) -> int | None:
    """Integer of English number words: "eleven", "twenty-five", "two hundred and fifty"."""
    total = current = 0
    seen = False
    for word in re.split(r"[\s-]+", words.lower()):
        if word == "and":
            continue
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def _number_value(m: re.Match[str]) -> float | None:
    """Value of a number match: digits with optional scale word, or number words."""
    if m.group("digits"):
        value = float(m.group("digits").replace(",", ""))
        if m.group("scale"):
            value *= _SCALES[m.group("scale").lower()]
        return value
    words = m.group("words")
    # A bare scale word ("hundreds", "thousand") without a count is not a figure.
    if words.lower() in _SCALES:
        return None
    return words_to_number(words)


def _counted_noun(text: str, pos: int, value: float) -> tuple[str, str, str, int] | None:
    """(what, noun, qualifier, end) of the noun a number at ``pos`` counts, if any."""
    # Matched in place: a copy of the rest of the text for every number was quadratic.
    area = _AREA_AFTER.match(text, pos)
    if area:
        return "km2", area.group().strip(), "", area.end()
    modifiers: list[str] = []
    # "300 or so civilians", "40-odd fighters": the hedge is not a modifier.
    hedge = _HEDGE.match(text, pos)
    if hedge:
        pos = hedge.end()
    # "24 of its fighters": a partitive "of" with a determiner still counts the noun.
    partitive = _PARTITIVE.match(text, pos)
    if partitive:
        pos = partitive.end()
    cursor = pos
    for m in re.finditer(r"\s+([\w’'-]+)", text[pos : pos + 120]):
        if m.start() != cursor - pos:
            break
        word = m.group(1)
        lower = word.lower()
        if lower in _NOUNS:
            # Only "one" counts a singular noun: "two soldier" is not English, "one soldier" is.
            singular = _NOUNS.get(lower + "s") == _NOUNS[lower] or lower.endswith("man")
            if singular and value != 1 and lower not in ("personnel", "remains", "troops"):
                return None
            return _NOUNS[lower], word, " ".join(modifiers), pos + m.end()
        if lower in _STOP or len(modifiers) >= _MAX_MODIFIERS or not re.match(r"[A-Za-z]", word):
            return None
        modifiers.append(word)
        cursor = pos + m.end()
    return None


def _verb_count(text: str, start: int, end: int) -> tuple[str, str, str, int] | None:
    """ "injured 120", "the death toll rose to 40": a bare number after a casualty verb."""
    before = _VERB_BEFORE.search(text[max(0, start - 40) : start])
    if before is None:
        return None
    verb = before.group("verb").lower()
    what = "wounded" if verb.startswith(("wound", "injur")) else "killed"
    return what, "", "", end


def _clause_after(text: str, start: int, limit: int) -> str:
    """Text from ``start`` up to the end of its clause, at most ``limit`` offset."""
    window = text[start:limit]
    m = _CLAUSE_END.search(window)
    return window[: m.start()] if m else window


def _flags(text: str, fig_start: int, noun_end: int, limit: int, what: str) -> tuple[bool, bool]:
    """(killed, wounded) from the counted noun or a verb just before or after the figure."""
    killed = what == "killed"
    wounded = what == "wounded"
    before = _VERB_BEFORE.search(text[max(0, fig_start - 40) : fig_start])
    if before:
        verb = before.group("verb").lower()
        killed = killed or verb.startswith(("kill", "death", "toll"))
        wounded = wounded or verb.startswith(("wound", "injur"))
    after = _clause_after(text, noun_end, min(limit, noun_end + _AFTER_WINDOW))
    if what not in ("killed", "wounded") and not before:
        kill, wound = _KILL.search(after), _WOUND.search(after)
        # "12 killed and 30 wounded": the nearer verb belongs to this figure.
        if kill and (not wound or kill.start() < wound.start()):
            killed = True
        elif wound:
            wounded = True
    return killed, wounded


def find_figures(
    text: str,
    sentences: list[Sentence] | None = None,
    exclude: list[tuple[int, int]] | None = None,
) -> list[Figure]:
    """Numbers that count something, in text order; spans in ``exclude`` (dates) are skipped."""
    blocked = Spans(exclude or [])
    raw: list[tuple[float, int, int, str, str, str]] = []
    for m in _NUMBER.finditer(text):
        if blocked.overlaps(m.start(), m.end()):
            continue
        value = _number_value(m)
        if value is None:
            continue
        counted = _counted_noun(text, m.end(), value) or _verb_count(text, m.start(), m.end())
        if counted is None:
            continue
        what, noun, qualifier, end = counted
        raw.append((value, m.start(), end, what, noun, qualifier))
    figures: list[Figure] = []
    for i, (value, start, end, what, noun, qualifier) in enumerate(raw):
        limit = raw[i + 1][1] if i + 1 < len(raw) else len(text)
        if sentences:
            limit = min(limit, sentences[sentence_index(sentences, start)].end)
        killed, wounded = _flags(text, start, end, limit, what)
        approx = bool(_APPROX_BEFORE.search(text[max(0, start - 20) : start]))
        idx = sentence_index(sentences, start) if sentences else 0
        figures.append(
            Figure(
                value, text[start:end], start, end, idx, what, noun, qualifier,
                killed, wounded, approx,
            )
        )  # fmt: skip
    return _share_coordinated_flags(figures, text)


def _share_coordinated_flags(figures: list[Figure], text: str) -> list[Figure]:
    """ "11 fighters and 7 soldiers were killed": a verb after a list applies to all of it."""
    out = list(figures)
    for i in range(len(out) - 2, -1, -1):
        this, nxt = out[i], out[i + 1]
        if this.killed or this.wounded or this.what in ("killed", "wounded"):
            continue
        if _COORDINATION.fullmatch(text[this.end : nxt.start]):
            out[i] = Figure(
                this.value, this.text, this.start, this.end, this.sentence, this.what,
                this.noun, this.qualifier, nxt.killed, nxt.wounded, this.approximate,
            )  # fmt: skip
    return out
