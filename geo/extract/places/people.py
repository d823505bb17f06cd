"""People's names: the tokens no place may be read in."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from geo.extract.places.match import BIG_CITY, _population
from geo.extract.places.tokens import _Token
from geo.extract.places.words import _LOCATIVE, WordLists
from geo.extract.regions import CountryTable
from geo.geocoders.gazetteer import Gazetteer
from geo.names import ARTICLES, normalize

# A person's name is at most this many words ("Mevlut Mert Altintas").
_NAME_MAX_WORDS = 3
# Speech verbs that take the speaker after them: "...," said Taylor.
_QUOTE_VERBS = frozenset({"said", "says", "added", "continued", "explained", "noted", "replied"})
# Words that name a person next: "his wife, Dora", "the son of Riley", "a man surnamed Jiang".
_KIN_WORDS = frozenset(
    ["wife", "husband", "son", "daughter", "brother", "sister", "mother", "father", "widow",
     "widower", "grandson", "granddaughter", "grandmother", "grandfather", "nephew", "niece",
     "cousin", "stepson", "stepdaughter", "fiance", "fiancee", "surnamed"]
)  # fmt: skip
# After a name: the clause ends ("said Taylor."), or an age follows ("Gomez, 27,", "Altintas, a
# 22-year-old").
_CLAUSE_END = re.compile(r"[.,;:!?\"”]")
_AGE_AFTER = re.compile(
    r",\s+(?:\d{1,3}(?=[,.;)]|\s*(?:years?\s+old|-year-old))|an?\s+\d{1,3}-year-old)"
)


def _person_tokens(
    tokens: list[_Token],
    words: WordLists,
    speaks_for_place: Callable[[str], bool],
    text: str = "",
    longest_place: int | None = None,
) -> set[int]:
    """Indexes of tokens that belong to people's names: after a title, a first name, or "said",
    before "said" ("said Taylor."), or beside an age ("82-year-old Geneva Morgan",
    "Rafael Gomez, 27,").

    ``speaks_for_place(key)`` tells names that speak as places ("Baghdad says") from people;
    ``longest_place``, when given, is the most words a key it says yes to has.
    """
    person = _aged_or_quoted(tokens, words, speaks_for_place, text) if text else set()
    return (
        person
        | _titled(tokens, words, speaks_for_place)
        | _speakers(tokens, words, speaks_for_place, longest_place)
    )


def _titled(
    tokens: list[_Token], words: WordLists, speaks_for_place: Callable[[str], bool]
) -> set[int]:
    """The capitalised words after a title or a first name ("President Bashar al-Assad")."""
    person: set[int] = set()
    n = len(tokens)
    for i, tok in enumerate(tokens):
        starts_name = tok.key in words.titles or (tok.cap and tok.key in words.given_names)
        if not starts_name or not tok.joins_next:
            continue
        # "Scott County", "Jackson River": a first name before a place word names a place.
        if i + 1 < n and tokens[i + 1].key in words.place_words and tok.key in words.given_names:
            continue
        # "Abu Dhabi", "King City": a title that opens a known place's name is that name.
        if i + 1 < n and speaks_for_place(normalize(f"{tok.text} {tokens[i + 1].text}")):
            continue
        j = i + 1
        while j < n and j - i <= 4 and (tokens[j].cap or tokens[j].key in ARTICLES):
            # "Syrian President Bashar": a second title is not part of the name.
            if tokens[j].key not in words.titles:
                person.add(j)
            if not tokens[j].joins_next or tokens[j].dash_next:
                break  # "Mr Trump - Wisconsin and Pennsylvania": a dash ends the name
            j += 1
        if tok.key in words.given_names and j > i + 1:
            person.add(i)
    return person


def _speakers(
    tokens: list[_Token],
    words: WordLists,
    speaks_for_place: Callable[[str], bool],
    longest_place: int | None,
) -> set[int]:
    """ "Nasrallah said": a capitalised run right before a speech verb, unless it follows "in".

    A long run is not walked or read again from each of its speech verbs ("Ali Said Ali Said
    ..." was quadratic): run starts are remembered, and a long run's authorities and name
    words come from running counts.
    """
    person: set[int] = set()
    starts: dict[int, int] = {}
    counts: dict[str, list[int]] = {}

    def count(name: str, test: Callable[[_Token], bool], first: int, last: int) -> int:
        if name not in counts:
            counts[name] = list(itertools.accumulate(map(test, tokens), initial=0))
        return counts[name][last + 1] - counts[name][first]

    added = (0, -1)  # the last range put in ``person`` here, first and last index
    for i, tok in enumerate(tokens[:-1]):
        if not (tok.cap and tok.joins_next and tokens[i + 1].key in words.speech_verbs):
            continue
        # "Springfield Mayor John Smith said": the name starts after the title, not before it.
        k = _run_start(tokens, i, words, starts)
        if k > 0 and tokens[k - 1].key in _LOCATIVE:
            continue
        if k < i and tok.key in words.titles:
            continue  # "the Arizona Republican asked", "the Kyiv Mayor said": a role speaks
        if tokens[k].key == "the" and k < i:
            k += 1  # "The Philippines reported": the article is no part of the name
        # A run with more name words than the longest place name is no place's name.
        if (
            longest_place is None
            or i - k < longest_place
            or count("name", _has_name_word, k, i) <= longest_place
        ) and speaks_for_place(normalize(" ".join(t.text for t in tokens[k : i + 1]))):
            continue
        if (
            any(t.key in words.authorities for t in tokens[k : i + 1])
            if i - k < _SHORT_RUN
            else count("authority", lambda t: t.key in words.authorities, k, i)
        ):
            continue  # "Kentucky State Police said": an authority speaks, not a person
        first, last = added
        if first <= k <= last + 1:
            person.update(range(last + 1, i + 1))
            added = (first, max(last, i))
        else:
            person.update(range(k, i + 1))
            added = (k, i)
    return person


# A capitalised run this long before a speech verb is read through; a longer one by counts.
_SHORT_RUN = 8


def _run_start(tokens: list[_Token], i: int, words: WordLists, starts: dict[int, int]) -> int:
    """The first of the capitalised words (or articles, no titles) joined to token ``i`` from
    the left; ``starts`` keeps the answers, so a run is walked once."""
    k = i
    while (
        k > 0
        and tokens[k - 1].joins_next
        and (tokens[k - 1].cap or tokens[k - 1].key in ARTICLES)
        and tokens[k - 1].key not in words.titles
    ):
        if k - 1 in starts:  # an earlier token of the same run
            k = starts[k - 1]
            break
        k -= 1
    starts[i] = k
    return k


def _has_name_word(tok: _Token) -> bool:
    """Whether the token's matching key has a word that is no article: a word every key of a
    run of tokens holding it keeps."""
    return any(w not in ARTICLES for w in tok.key.split())


def _name_run(tokens: list[_Token], i: int, words: WordLists) -> int | None:
    """Last token of a person-like name starting at ``i``: one to three capitalised words
    joined by spaces, none of them a title, stopword or speech verb."""
    last = i
    while True:
        t = tokens[last]
        if not t.cap or t.key in words.titles or t.key in words.stopwords:
            return None
        if t.key in words.speech_verbs or t.key in words.authorities:
            return None
        if last - i + 1 == _NAME_MAX_WORDS or not t.joins_next or t.hyphen_next:
            break
        if last + 1 >= len(tokens) or not tokens[last + 1].cap:
            break
        last += 1
    if last + 1 < len(tokens) and tokens[last].joins_next and tokens[last + 1].cap:
        return None  # a longer capitalised run: a title, not a name
    return last


def _aged_or_quoted(
    tokens: list[_Token], words: WordLists, speaks_for_place: Callable[[str], bool], text: str
) -> set[int]:
    """People's names told by an age or a quote rather than a first name or a title."""
    person: set[int] = set()
    n = len(tokens)
    for i in range(n):
        tok = tokens[i]
        if not tok.cap:
            continue
        prev = tokens[i - 1] if i > 0 else None
        aged_before = (
            i >= 3 and prev is not None and prev.key == "old" and prev.joins_next
            and not prev.hyphen_next and tokens[i - 2].key == "year"
            and tokens[i - 3].text.isdigit() and tokens[i - 3].hyphen_next
            and tokens[i - 2].hyphen_next
        )  # fmt: skip
        quoted = (
            prev is not None and prev.key in _QUOTE_VERBS and prev.joins_next
            and prev.sentence == tok.sentence
        )  # fmt: skip
        kin = prev is not None and prev.sentence == tok.sentence and (
            (prev.key in _KIN_WORDS and text[prev.end : tok.start] in (" ", ", "))
            or (prev.key == "of" and i >= 2 and tokens[i - 2].key in _KIN_WORDS
                and tokens[i - 2].joins_next and prev.joins_next)
        )  # fmt: skip
        if not (aged_before or quoted or (prev is None or not prev.cap or not prev.joins_next)):
            continue
        last = _name_run(tokens, i, words)
        if last is None or (not quoted and not kin and last == i):
            # An age names a person by two words at least: "a 67-year-old Hammond resident".
            continue
        after = text[tokens[last].end : tokens[last].end + 24]
        if kin:
            pass  # "his wife, Dora, 62", "the son of Riley and Eva", "surnamed Jiang"
        elif quoted and not aged_before:
            # "said Taylor." ends the clause; "said Baghdad was" does not name a speaker.
            if not _CLAUSE_END.match(after):
                continue
        elif not aged_before and not _AGE_AFTER.match(after):
            continue
        if speaks_for_place(normalize(" ".join(t.text for t in tokens[i : last + 1]))):
            continue
        person.update(range(i, last + 1))
    return person


def _big_place(gazetteer: Gazetteer | None, countries: CountryTable, key: str) -> bool:
    """A country or a city of a million: "Baghdad says" speaks for a government, not a person."""
    if key in countries.by_key:
        return True
    if gazetteer is None or not gazetteer.contains(key):
        return False
    return any(
        _population(p) >= BIG_CITY and normalize(p.name) == key for p in gazetteer.lookup(key)
    )
