"""Pass one's verdicts: why a known name is no place here."""

from __future__ import annotations

from geo.extract.places.match import MAX_CANDIDATES, _Match, _population
from geo.extract.places.recognise import _Finder, _qualifier_boost
from geo.extract.places.roles import _MODIFIER_AFTER, _PRODUCT_AFTER
from geo.extract.places.tokens import _Token
from geo.extract.places.words import _ENGLISH_ARTICLES, _LOCATIVE, WordLists
from geo.extract.regions import QUALIFIERS
from geo.names import ARTICLES, normalize

# A single word opening a sentence is a GeoNames place only if it is a city this large.
MIN_POP_SENTENCE_START = 100_000
# Capitalised words that never carry a title on past a name: "DETROIT The U.S. Transportation",
# "AUSTIN, Texas A white nationalist", "in Toronto Saturday night".
_TITLE_BREAKERS = frozenset(
    ["a", "an", "the", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
     "sunday", "january", "february", "march", "april", "june", "july", "august", "september",
     "october", "november", "december"]
)  # fmt: skip
# How far a capitalised run may go past a name to reach an authority ("Kentucky State Police").
_AUTHORITY_REACH = 3


def _in_capitalised_run(
    tokens: list[_Token], m: _Match, words: WordLists, qualified: bool = False
) -> bool:
    """Whether the name is part of a longer capitalised title ("Second Liberation Day")."""
    left = tokens[m.first - 1] if m.first > 0 and not qualified else None
    right = tokens[m.last + 1] if m.last + 1 < len(tokens) else None
    # "Sindh Province", "Kyiv Mayor Vitali Klitschko": the name qualifies the next word.
    # A spaced dash is punctuation, not part of a title: "Mr Trump - Wisconsin and ...".
    if (
        right is not None
        and tokens[m.last].joins_next
        and not tokens[m.last].dash_next
        and right.cap
        and right.key not in words.place_words
        and right.key not in words.titles
        and not _title_stops_before(tokens, m, words)
    ):
        return True
    # "Bab el-Oued", "Ain al-Hilweh": an article and a name after it make a longer name.
    if (
        right is not None
        and tokens[m.last].joins_next
        and not right.cap
        and right.key in ARTICLES
        and right.joins_next
        and m.last + 2 < len(tokens)
        and tokens[m.last + 2].cap
        and not (right.key in _ENGLISH_ARTICLES and not right.hyphen_next)
    ):
        return True
    # A capitalised function word opening the sentence ("The", "In") is not a title word; a
    # broadcaster's call letters before a city are not either ("CBC Toronto", "CTV Winnipeg"),
    # nor an article ("A Danbury stonework mason") or a compass word ("Far North Queensland").
    return (
        left is not None
        and left.joins_next
        and not left.dash_next
        and left.cap
        and not (left.first_in_sentence and left.key in words.stopwords)
        and left.key not in _TITLE_BREAKERS
        and left.key not in QUALIFIERS
        and not (left.text.isupper() and 2 <= len(left.text) <= 4
                 and (m.first < 2 or not tokens[m.first - 2].joins_next
                      or not tokens[m.first - 2].cap))
    )  # fmt: skip


def _title_stops_before(tokens: list[_Token], m: _Match, words: WordLists) -> bool:
    """Whether the capitalised words after a name leave it a place: a weekday, month or
    article ("Toronto Saturday night", "DETROIT The U.S."), a change from a dateline's capitals
    ("WASHINGTON Barack Obama"), or an authority of the place ("Kentucky State Police",
    "Metcalfe County Sheriff's Office", "the Queensland Government")."""
    right = tokens[m.last + 1]
    if right.key in _TITLE_BREAKERS:
        return True
    name = tokens[m.first : m.last + 1]
    if all(t.text.isupper() and len(t.text) > 1 for t in name) and not right.text.isupper():
        return True
    k = m.last + 1
    while k < len(tokens) and k - m.last <= _AUTHORITY_REACH and tokens[k].cap:
        if tokens[k].key in words.authorities:
            return True
        if not tokens[k].joins_next:
            break
        k += 1
    return False


def _disqualify(
    m: _Match,
    tokens: list[_Token],
    words: WordLists,
    person_keys: set[str],
    mid_keys: set[str],
    person: frozenset[int] | set[int] = frozenset(),
    qualified: bool = False,
) -> list[str]:
    """Reasons a GeoNames-only name is not a place here (empty: keep it for the vote)."""
    reasons = []
    single = m.first == m.last
    key = m.key
    rest = key.removeprefix("the ")
    if key in words.stopwords or (rest != key and rest in words.stopwords):
        reasons.append("stopword")  # "Central", "The village"
    nxt = tokens[m.last + 1] if m.last + 1 < len(tokens) else None
    if (
        nxt is not None
        and tokens[m.last].joins_next
        and (nxt.key in words.not_before or nxt.key.endswith("virus"))
    ):
        reasons.append("not-a-place-after")  # "West Nile virus", "Reston ebolavirus"
    if (
        single
        and len(key) <= 3
        and m.kind == "geonames"
        and not any(normalize(p.name) == key for p in m.candidates[:MAX_CANDIDATES])
    ):
        reasons.append("short-alternate")  # "Lu", "Jin": surnames, alternate names of cities
    if single and tokens[m.first].text.isupper() and len(tokens[m.first].text) <= 4:
        reasons.append("acronym")
    before = tokens[m.first - 1] if m.first > 0 else None
    after_locative = before is not None and before.key in _LOCATIVE
    # Per mention: this very name is inside a person's name, or it is a surname met in one
    # elsewhere ("Murphy said" after "Sen. Chris Murphy") and nothing here says place.
    if all(k in person for k in range(m.first, m.last + 1)) or (
        single and key in person_keys and not after_locative
    ):
        reasons.append("person")
    elif single and key in words.given_names:
        # A first name alone ("Hassan did not say") is a person unless "in"/"to" comes first.
        before = tokens[m.first - 1] if m.first > 0 else None
        if before is None or before.key not in _LOCATIVE:
            reasons.append("person")
    if _in_capitalised_run(tokens, m, words, qualified):
        reasons.append("title")
    if (
        single
        and m.kind == "geonames"
        and not qualified
        and tokens[m.first].first_in_sentence
        and key not in mid_keys
    ):
        top = m.candidates[0]
        if _population(top) < MIN_POP_SENTENCE_START or normalize(top.name) != key:
            reasons.append("sentence-start")
    return reasons


def _judge_matches(
    finder: _Finder, matches: list[_Match], person_keys: set[str], demonyms: bool
) -> None:
    """Each match's verdict: the country written after it ("Paris, Texas"), and why it is no
    place here (``reasons``) or names who, not where (``modifier``). ``person_keys`` are the
    article's surnames; ``demonyms`` keeps "Turkish" as a mention of the country."""
    text, tokens, words = finder.text, finder.tokens, finder.words
    mid_keys = {
        m.key for m in matches if m.first != m.last or not tokens[m.first].first_in_sentence
    }
    for m in matches:
        m.boost, m.boost_division = _qualifier_boost(text, m, finder.countries, finder.gaz, finder)
        target = m.base if m.base is not None else m
        after = text[m.end : m.end + 16]
        if m.kind == "demonym" and not demonyms:
            m.reasons = ["demonym"]
        elif _PRODUCT_AFTER.match(after) and not text[m.end - 1 : m.end].isdigit():
            m.reasons = ["product"]  # "Mi-35", "F-16": a model, and no vote for its country
        elif _MODIFIER_AFTER.match(after):
            m.modifier = True  # "US-led": who leads, not where; no vote, and off the map
        elif (
            target.kind == "country"
            and m.kind != "qualifier"
            and _in_capitalised_run(tokens, target, words, qualified=True)
        ):
            # The name opens a longer title: "Georgia Stevens", "United States Geological
            # Survey" (a word before it, as in "Air France", is not checked: lists and
            # headlines put capitalised words before countries too).
            m.reasons = ["title"]
        elif target.kind in ("geonames", "area") and not target.written:
            m.reasons = _disqualify(
                target, tokens, words, person_keys, mid_keys, finder.person,
                qualified=m.kind == "qualifier",
            )  # fmt: skip
