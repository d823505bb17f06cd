"""Figures in news text: numbers tied to what they count, and the kind of count they are.

A figure's ``kind`` says what happened to what it counts: "killed", "injured", "missing",
"displaced", "arrested", "evacuated", "homes" (homes destroyed or damaged), "people" (other
counts of persons) or "" (buses, km, airstrikes...). It comes, first found first, from the
counted noun ("118 dead"), a verb just before the number ("killing 12", "the death toll rose
to 118") or a verb in the clause after it ("50 villagers were found dead"). ``disputed``
holds the other values the text gives for the same count: the top of a range ("between 30
and 40 killed") or a rival figure in the same or the next sentence ("118 were killed, while
another count put the toll at 120"). ``part`` marks a part of the figure before it ("12
people, including four children"): of its kind, but not to be added to it
(``primary_figures`` leaves parts and rival values out, for sums).

A line's label names what its number counts ("Killed: 501", "Homes damaged or destroyed:
99,317"). No figure is a year, an age, a magnitude or other label ("Category 5", "Flight
370"), a time, a percentage, money, a span ("10 years"), a ratio ("one in five"), a model
number ("Mi-35", "G7") or an ordinal.

Every look is anchored at a number or bounded to a short window around it: the text is read
once by the number pattern, never once per number.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

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


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Counted nouns, singular and plural, to the normalised ``what``.
_NOUNS: dict[str, str] = {}
for _what, _forms in {
    "people": "people person persons resident residents inhabitants men women man woman "
    "villager villagers worshipper worshippers worshiper worshipers student students pupil "
    "pupils migrant migrants worker workers miner miners passenger passengers protester "
    "protesters protestor protestors demonstrator demonstrators journalist journalists suspect "
    "suspects "
    "reporter reporters tourist tourists pilgrim pilgrims patient patients survivor survivors "
    "victim victims individual individuals adult adults citizen citizens national nationals "
    "employee employees teenager teenagers doctor doctors nurse nurses medic medics "
    "fisherman fishermen farmer farmers sailor sailors firefighter firefighters rescuer rescuers "
    "volunteer volunteers foreigner foreigners others crew staff",
    "civilians": "civilian civilians",
    "militants": "militant militants jihadist jihadists jihadis insurgent insurgents extremist "
    "extremists terrorist terrorists gunman gunmen",
    "rebels": "rebel rebels",
    "fighters": "fighter fighters combatant combatants",
    "soldiers": "soldier soldiers troops servicemen serviceman officer officers policemen "
    "policeman personnel police marine marines peacekeeper peacekeepers guard guards "
    "conscript conscripts",
    "children": "child children boy boys girl girls baby babies infant infants minor minors "
    "schoolchild schoolchildren schoolboys schoolgirls",
    "families": "family families",
    "households": "household households",
    "buses": "bus buses",
    "vehicles": "vehicle vehicles car cars truck trucks lorry lorries",
    "ambulances": "ambulance ambulances",
    "captives": "captive captives hostage hostages prisoner prisoners detainee detainees "
    "abductee abductees",
    "bodies": "body bodies corpse corpses remains",
    "killed": "dead killed fatalities deaths lives",
    "wounded": "wounded injured hurt injuries",
    "missing": "missing",
    "arrested": "arrested detained arrests",
    "evacuated": "evacuated rescued",
    "casualties": "casualties",
    "displaced": "refugees refugee displaced evacuees homeless",
    "buildings": "homes houses buildings dwellings apartments structures",
    "villages": "villages towns",
    "airstrikes": "airstrikes air-strikes raids",
    "rockets": "rockets missiles shells mortars",
    "km": "km kilometres kilometers kilometre kilometer miles mile",
}.items():
    for _form in _forms.split():
        _NOUNS[_form] = _what

# Nouns that name the count's kind themselves, whatever the verbs around them say.
_NOUN_KIND: dict[str, str] = {}
for _kind, _forms in {
    "killed": "dead killed fatalities deaths body bodies corpse corpses remains lives",
    "injured": "wounded injured hurt injuries",
    "missing": "missing",
    "displaced": "refugees refugee displaced homeless",
    "evacuated": "evacuees evacuated rescued",
    "arrested": "arrested detained arrests detainee detainees",
    "homes": "homes houses dwellings apartments",
}.items():
    for _form in _forms.split():
        _NOUN_KIND[_form] = _kind

# What counts persons (or groups of them), and so can be killed, displaced, arrested...
_PERSONS = _set(
    "people civilians militants rebels fighters soldiers children captives bodies killed "
    "wounded missing arrested evacuated casualties displaced families households"
)
_COMBATANTS = _set("militants rebels fighters soldiers")
# Groups of persons: a kind from a verb, but not a count of "people" without one.
_GROUPS = _set("families households")
_BUILDINGS = frozenset(["buildings"])
# ``what`` of a bare count ("2,000 were detained") by its kind.
_LABEL_WHAT = {"homes": "buildings", "people": "people"}
_BARE_WHAT = {
    "killed": "killed", "injured": "wounded", "missing": "missing", "displaced": "displaced",
    "arrested": "arrested", "evacuated": "evacuated",
}  # fmt: skip
# Singular nouns that also count many ("12 crew", "30 police"); a following noun wins
# ("12 police officers").
_SINGULAR_MANY = _set("personnel remains troops crew staff police")
_COLLECTIVE = _set("crew staff police")
# Participles that stand for what they count ("12 killed") right after the number only.
_PARTICIPLES = _set(
    "dead killed wounded injured hurt missing arrested detained evacuated rescued displaced "
    "homeless"
)
# A lowercase plural between a number and a noun is the head of a phrase we do not count.
_PLURAL = re.compile(r"[a-z][a-z-]*[^su's]s")
_NOT_PLURAL = frozenset(["news"])

_AREA = r"(?:square\s+(?:kilometres|kilometers|km|miles)|sq\.?\s*km|km2|km²)"
_WORD_NUMBER = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
# "and" joins number words only after a scale word ("two hundred and fifty"), so "between
# thirty and forty" is two numbers.
_AFTER_SCALE = "(?:" + "|".join(f"(?<={s})" for s in _SCALES) + ")"
_NUMBER_BODY = (
    r"(?:(?P<digits>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s+(?P<scale>thousand|million|"
    r"billion))?|(?P<words>(?:" + _WORD_NUMBER + r")(?:(?:" + _AFTER_SCALE
    + r"\s+and\s+|[\s-]+)(?:" + _WORD_NUMBER + r"))*))"
    # A hyphen may follow only when a digit does ("30-40"): not "25-year-old".
    + r"(?!\w|-(?!\d)|[.,]\d)"
)  # fmt: skip
_NUMBER = re.compile(r"(?<![\w.,\-])" + _NUMBER_BODY, re.IGNORECASE)
# The top of a range right after a number: "30-40", "30 to 40", "two or three", "and 40"
# (after "between" only).
_RANGE_HIGH = re.compile(r"(?:\s*[-–—]\s*|\s+(?P<conj>to|or|and)\s+)" + _NUMBER_BODY, re.IGNORECASE)
_BETWEEN_BEFORE = re.compile(r"\bbetween\s+$", re.IGNORECASE)
_FROM_BEFORE = re.compile(r"\bfrom\s+$", re.IGNORECASE)
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
# A capitalised plural or "-ese" word that counts persons only when a verb says what
# happened to them: "15 Palestinians were killed", "five Britons were arrested".
_DEMONYM = re.compile(r"[A-Z][a-z]+(?:s|ese)")
_DEMONYM_ALONE = 1_000

_APPROX = (
    r"at least|some|about|around|nearly|almost|more than|over|up to|an estimated|roughly|"
    r"approximately|another|a further|an additional|as many as|close to|no fewer than|"
    r"not less than|upwards of|in excess of"
)
_APPROX_BEFORE = re.compile(
    r"\b(?:at least|more than|about|around|nearly|almost|some|up to|an estimated|roughly|"
    r"approximately|as many as|close to)\s+$",
    re.IGNORECASE,
)
_TOLL_TO = (
    r"\b[^.;:\n]{0,50}?\b(?:to|at|of|reached|reaches|reach|hit|hits|stood at|stands at|is|was|"
    r"past|passed|exceeded|topped|surpassed|above|nears|neared)"
)
# A verb or toll just before a number gives its kind: "killing 12", "the death toll rose to".
_BEFORE = re.compile(
    r"\b(?:(?P<killed>kill(?:ed|ing|s)?|shot\s+dead|shooting\s+dead|gunn(?:ed|ing)\s+down"
    r"|(?:the\s+)?bodies\s+of|claim(?:ed|ing)\s+the\s+lives\s+of"
    r"|(?:(?:(?:death|casualty)\s+)?toll|(?:death|casualty)\s+count)\b"
    + _TOLL_TO
    + r"|deaths\s+(?:from|in)\b"
    + _TOLL_TO
    + r")"
    r"|(?P<injured>wound(?:ed|ing|s)?|injur(?:ed|ing|es)|hurt(?:ing)?)"
    r"|(?P<arrested>arrest(?:ed|ing|s)?|detain(?:ed|ing|s)?|round(?:ed|ing)\s+up|jail(?:ed|ing)"
    r"|captur(?:ed|ing)"
    r"|imprison(?:ed|ing))"
    r"|(?P<evacuated>evacuat(?:ed|ing|es?)|rescu(?:ed|ing|es?)|relocat(?:ed|ing)|pull(?:ed|ing)"
    r"|(?:pulled|brought|dug|pulling|bringing|digging)\s+out)"
    r"|(?P<displaced>displac(?:ed|ing|es?)|uproot(?:ed|ing|s)?"
    r"|(?:refugee|displacement|displaced|idp)\s+camps?\b[^.;:\n]{0,40}?\b(?:home\s+to|hosts?|"
    r"hosting|hous(?:es|ing)|shelter(?:s|ing)))"
    r"|(?P<homes>destroy(?:ed|ing|s)?|damag(?:ed|ing|es?)|flatten(?:ed|ing|s)?|raz(?:ed|ing))"
    r"|(?:number|tally|count)\s+of\s+(?:the\s+)?(?:people\s+)?"
    r"(?:(?P<killed_>dead|deaths|killed|fatalities|victims)|(?P<injured_>injured|wounded|injuries)"
    r"|(?P<missing_>missing)|(?P<displaced_>displaced|homeless|refugees)"
    r"|(?P<arrested_>arrested|detained|detainees|arrests))" + _TOLL_TO + r")"
    r"\s+(?:(?:" + _APPROX + r")\s+)?$",
    re.IGNORECASE,
)
_BEFORE_WINDOW = 80
_BEFORE_STEMS = (
    "kill", "wound", "injur", "hurt", "arrest", "detain", "round", "jail", "impris", "evacu",
    "rescu", "reloc", "displac", "uproot", "destr", "damag", "flatten", "raz", "toll", "bodies",
    "lives", "captur", "out", "dead", "down", "pull",
)  # fmt: skip
_BEFORE_ENDS = _set(
    "to at of reached reaches reach hit hits stood stands is was up past passed exceeded topped "
    "surpassed above nears neared"
)
_APPROX_WORDS = _set(
    "at least some about around nearly almost more than over up to an estimated roughly "
    "approximately another a further additional as many close no fewer not less upwards in "
    "excess"
)
# What happened to what a figure counts, said in the clause after it; the nearest wins.
_PASSIVE = "(?:" + "|".join(f"(?<={a}\\s)" for a in ("were", "was", "been", "being", "are")) + ")"
_AFTER = re.compile(
    r"\b(?:(?P<killed>kill(?:ed|ing)|dead|died|die|dying|deaths?|slain|executed|massacred"
    r"|martyred|perished|drowned|lost\s+their\s+lives|beheaded)"
    r"|(?P<injured>wound(?:ed|ing)|injur(?:ed|ies|ing|y)|hurt|hospitali[sz]ed"
    r"|(?:being\s+)?treated\b(?!\s+(?:as|like))|in\s+hospital"
    r"|(?:taken|rushed|admitted|brought)\s+to\s+(?:a\s+|the\s+)?hospitals?"
    r"|(?:given|received|needed)\s+first\s+aid)"
    r"|(?P<missing>missing|swept\s+away|unaccounted\s+for|disappeared)"
    r"|(?P<displaced>displaced|homeless|fled|flee(?:ing)?|(?:forced|made)\s+to\s+flee|uprooted"
    r"|refugees"
    r"|(?:(?:forced|driven)\s+)?(?:out\s+)?(?:from|out\s+of)\s+their\s+homes|lost\s+their\s+homes"
    r"|sheltering|(?:living|staying|sleeping)\s+in\s+(?:\w+\s+)?(?:shelters|camps|tents))"
    r"|(?P<arrested>arrested|detained|taken\s+into\s+custody|rounded\s+up|jailed|imprisoned"
    r"|" + _PASSIVE + r"(?:held|captured)|held\s+(?:in\s+custody|hostage|captive|prisoner))"
    r"|(?P<evacuated>evacuated|rescued|relocated|airlifted"
    # People moved away from the danger: "taken off the island", "got out of the flooded
    # areas", "moved out of hospital", "brought to safety".
    r"|(?:taken|brought|moved|got|gotten|ferried)\s+(?:off|out\s+of|to\s+safety)"
    r"|(?:moved|taken|brought)\s+to\s+(?:\w+\s+)?shelters|brought\s+out\s+alive"
    r"|(?:pulled|dug)\s+(?:out\s+)?alive|out\s+of\s+the\s+(?:wreckage|rubble|debris|ruins))"
    r"|(?P<homes>destroyed|damaged|flattened|razed|collapsed|demolished|burned|burnt|torched"
    r"|levell?ed|washed\s+away|submerged|flooded))\b",
    re.IGNORECASE,
)
# A line's label before a colon: "Killed: 501", "Homes damaged or destroyed: 99,317".
_LABEL_MAX = 45
_HOME_WORDS = re.compile(r"\b(?:homes|houses|dwellings|buildings)\b", re.IGNORECASE)
_PERSON_LABEL = re.compile(r"\b(?:people|persons|population|residents|affected)\b", re.IGNORECASE)
# The clause after a figure stops at another group: "800,000 people and forced thousands of
# them from their homes".
_OTHER_GROUP = re.compile(r"\b(?:thousands|hundreds|dozens|millions|scores|others)\b", re.I)
# A count with its noun left out after another: "9,057 dead and Syria 2,530".
_GAP = re.compile(r"(?:\s*,\s*|,?\s+and\s+)(?:[A-Z][\w’'-]+\s+){1,3}")
_GAP_MAX = 40
_AMONG_THEM = re.compile(r",?\s+among\s+them\b", re.IGNORECASE)
# A verb with a number for its object is active: "12 soldiers killed 30 rebels".
_OBJECT_AFTER = re.compile(
    r"\s+(?:(?:" + _APPROX + r")\s+)?(?:\d|(?:" + _WORD_NUMBER + r")\b)", re.IGNORECASE
)
_AFTER_WINDOW = 80
# "A man was killed", "a woman died": one person a toll names without a number.
_SINGLE_PERSON = re.compile(
    r"\b(?:a|an)(?=\s+(?:man|woman|person|child|boy|girl|resident|villager|soldier|policeman"
    r"|protester|civilian)\s+(?:was\s+(?:killed|shot\s+dead|injured|wounded|hurt)|died)\b)",
    re.IGNORECASE,
)
# A bare number right before what happened to it: "more than 2,000 were detained".
_BARE_AUX = (
    r"were|was|have|has|had|are|is|been|being|reportedly|also|all|later|still|now|feared|"
    r"believed|confirmed|known|thought|reported|remain|remained|to|be|found|left|so|far|as|"
    r"of\s+whom|of\s+them|listed"
)
_BARE_AFTER = re.compile(r"(?:,?\s+(?:" + _BARE_AUX + r")){0,4}\s+", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[;:.!?]|\bsaid\b|\bsays\b|\baccording to\b|,\s*(?:but|while|as)\b")
_COORDINATION = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|,?\s*as well as)\s*")
# Right after a number: an area unit, a hedge ("or so", "-odd"), a partitive ("of its").
_AREA_AFTER = re.compile(r"\s+" + _AREA + r"\b|\s*(?:km2|km²)", re.IGNORECASE)
_HEDGE = re.compile(r"(?:\s+or\s+so|-odd|\s+odd)\b")
_PARTITIVE = re.compile(r"\s+of\s+(?:its|their|the|his|her|our|those|these)(?=\s)")
_MORE = re.compile(r"\s+more(?!\s+than)\b", re.IGNORECASE)

# Numbers that are not counts. The word just before: a label ("magnitude 6.2", "Flight 370",
# "Category 5"), an age ("aged 25"), money ("Rs 10"); a year after "in", "since"... Looked up
# in sets from the few words before the number: a pattern searched before every number was
# most of the time spent on number-heavy text.
_LABELS = _set(
    "magnitude richter level grade category number no version model flight route highway "
    "resolution article section chapter page room gate platform row unit block sector zone "
    "phase stage episode season series class type age aged ages usd us$ eur gbp rs inr"
)
_LABEL_PAIRS = frozenset(["scale of", "age of", "ages of", "aged between", "ages between"])
_CURRENCY = "$£€¥₹"
_NOT_ONE = _set("every each no any not")
_YEAR_WORDS = _set(
    "in since until till by before after during from year early late mid spring summer "
    "autumn fall winter january february march april may june july august september october "
    "november december jan feb mar apr jun jul aug sep sept oct nov dec"
)
_NOT_COUNT_AFTER = re.compile(
    r"\s*(?:%|percent\b|per\s+cent\b|pc\b|:\d|[ap]\.?m\b\.?|gmt\b|hrs\b|o'clock\b)"
    r"|\s+(?:dollars|euros|pounds|rupees|yuan|yen|francs|riyals|dinars|lira|shekels|naira|"
    r"rand|pesos|rubles|roubles|taka|kyat)\b",
    re.IGNORECASE,
)
# After a bare number (no counted noun): a unit of time or measure ("killed 10 years ago").
_UNIT_AFTER = re.compile(
    r"\s+(?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|decades?|centuries|ago|"
    r"times|metres|meters|feet|miles|km|kilometres|kilometers|tonnes|tons|kg)\b",
    re.IGNORECASE,
)

# Rival figures: a contrast with another source's count between them.
_RIVAL = re.compile(
    r"\b(?:(?:another|other|different|separate|independent|rival|conflicting|higher|lower|"
    r"own|revised|earlier|later|new)\s+(?:\w+\s+)?(?:count|tally|estimate|figure|toll|number|"
    r"report|source|assessment)s?"
    r"|put(?:s|ting)?\s+(?:the|its|their)\s+(?:death\s+|casualty\s+)?(?:toll|number|figure|"
    r"count|tally)\s+(?:at|higher|lower)"
    r"|(?:while|whereas|but|however|although|though)\b[^.;]{0,60}?\b(?:said|says|put|puts|"
    r"gave|gives|estimated?|reported|claimed|counted|according)"
    r"|disputed|contradicted)\b",
    re.IGNORECASE,
)
_DISPUTE_GAP = 300
# A place or day named after a rival figure that its first figure's sentence does not name:
# "12 were killed in Homs, but activists said 30 died in Hama" counts two things.
_SCENE_AFTER = re.compile(r"\b(?:in|near|at|on)\s+([A-Z][\w’'-]+)")


@dataclass(frozen=True)
class Figure:
    """A number and what it counts, with its span, kind and killed/wounded flags.

    ``killed`` is ``kind == "killed"`` and ``wounded`` is ``kind == "injured"``; a figure
    made with only the flags gets the kind they name. ``disputed``: other values the text
    gives for the same count. ``part``: a part of the figure before it, of its kind ("12
    people, including four children"; "59 civilians, three UN workers among them"), not to be
    added to it.
    """

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
    kind: str = ""
    disputed: tuple[float, ...] = field(default=())
    part: bool = False

    def __post_init__(self) -> None:
        if self.kind:
            object.__setattr__(self, "killed", self.kind == "killed")
            object.__setattr__(self, "wounded", self.kind == "injured")
        elif self.killed:
            object.__setattr__(self, "kind", "killed")
            object.__setattr__(self, "wounded", False)
        elif self.wounded:
            object.__setattr__(self, "kind", "injured")

    @property
    def span(self) -> tuple[int, int]:
        """[start, end) character offsets in the article text."""
        return (self.start, self.end)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {
            "value": _json_number(self.value),
            "text": self.text,
            "span": [self.start, self.end],
            "sentence": self.sentence,
            "what": self.what,
            "noun": self.noun,
            "qualifier": self.qualifier,
            "killed": self.killed,
            "wounded": self.wounded,
            "approximate": self.approximate,
            "kind": self.kind,
            "disputed": [_json_number(v) for v in self.disputed],
            "part": self.part,
        }


def _json_number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


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
    number = words_to_number(words)
    return None if number is None else float(number)


def _is_year(m: re.Match[str], value: float) -> bool:
    digits = m.group("digits")
    return bool(digits) and len(digits) == 4 and 1800 <= value <= 2100 and not m.group("scale")


def _words_before(text: str, start: int) -> list[str]:
    """The last few words before ``start``, lowercased, without trailing punctuation."""
    return [w.rstrip(".,;:!?\"'”’)").lower() for w in text[max(0, start - 40) : start].split()[-4:]]


def _not_a_count(text: str, m: re.Match[str], value: float) -> bool:
    """A label, age, money, time, percentage or year rather than a count."""
    start = m.start()
    if start and (text[start - 1] in _CURRENCY or (text[start - 1] == ":" and start > 1
                                                   and text[start - 2].isdigit())):  # fmt: skip
        return True  # "$5", "10:30"
    if _NOT_COUNT_AFTER.match(text, m.end()):
        return True
    words = _words_before(text, start)
    if not words:
        return False
    last = words[-1]
    if m.group("words") and m.group("words").lower() == "one" and last in _NOT_ONE:
        return True  # "every one of", "no one"
    # "one in five": a ratio
    if last == "in" and len(words) > 1 and (words[-2].isdigit() or words[-2] in _UNITS):
        return True
    if last in _LABELS or last.endswith(tuple(_CURRENCY)) or " ".join(words[-2:]) in _LABEL_PAIRS:
        return True
    if text[max(0, start - 4) : start].split()[-1:] in (["M"], ["Mw"]):
        return True
    # "aged 25 and 30", "aged between 18 and 30"
    if len(words) >= 3 and words[-2].isdigit() and {"aged", "ages"} & set(words[-4:-2]):
        return True
    return _is_year(m, value) and last in _YEAR_WORDS


def _counted_noun(text: str, pos: int, value: float) -> tuple[str, str, str, int, bool] | None:
    """(what, noun, qualifier, end, weak) of the noun a number at ``pos`` counts, if any.

    ``weak``: a demonym ("15 Palestinians"), a count of persons only if a verb says what
    happened to them.
    """
    # Matched in place: a copy of the rest of the text for every number was quadratic.
    area = _AREA_AFTER.match(text, pos)
    if area:
        return "km2", area.group().strip(), "", area.end(), False
    modifiers: list[str] = []
    # "300 or so civilians", "40-odd fighters": the hedge is not a modifier.
    hedge = _HEDGE.match(text, pos)
    if hedge:
        pos = hedge.end()
    # "24 of its fighters": a partitive "of" with a determiner still counts the noun.
    partitive = _PARTITIVE.match(text, pos)
    if partitive:
        pos = partitive.end()
    # "five more people": additional, not "more than".
    more = _MORE.match(text, pos)
    if more:
        pos = more.end()
    cursor = pos
    pending: tuple[str, str, str, int, bool] | None = None
    for m in re.finditer(r"\s+([\w’'-]+)", text[pos : pos + 120]):
        if m.start() != cursor - pos:
            break
        word = m.group(1)
        lower = word.lower()
        if "\n" in m.group() and (word[0].isupper() or "\n\n" in m.group()):
            break  # the next line or paragraph: "259\nInjured: 200"
        if lower in _NOUNS:
            # Only "one" counts a singular noun: "two soldier" is not English, "one soldier" is.
            singular = _NOUNS.get(lower + "s") == _NOUNS[lower] or lower.endswith("man")
            if singular and value != 1 and lower not in _SINGULAR_MANY:
                return pending
            if lower in _PARTICIPLES and modifiers:
                # "15 Palestinians killed" counts Palestinians; "the 2015 earthquake killed"
                # counts nothing.
                return pending if pending is not None and pending[4] else None
            found = (_NOUNS[lower], word, " ".join(modifiers), pos + m.end(), False)
            if lower not in _COLLECTIVE:
                return found
            pending = pending or found
        elif pending is not None:
            # After "12 police" or "15 Palestinians": the end of the phrase or a verb ("12 police
            # died"), not another word of it ("30 police posts", "Three Powers Square").
            if lower in _STOP or (pending[4] and not word[0].isupper()) or lower.endswith("ed"):
                return pending
            return None
        elif _DEMONYM.fullmatch(word) and lower not in _STOP:
            pending = ("people", word, " ".join(modifiers), pos + m.end(), True)
        elif lower in _STOP or len(modifiers) >= _MAX_MODIFIERS or not re.match(r"[A-Za-z]", word):
            return None
        elif _PLURAL.fullmatch(word) and lower not in _NOT_PLURAL:
            return None  # "three fellow commissioners told reporters": a head noun not counted
        modifiers.append(word)
        cursor = pos + m.end()
    return pending


def _before_kind(text: str, start: int) -> str | None:
    """The kind a verb or toll just before a number gives it: "killing 12" -> "killed"."""
    # Only when one of the last words could end such a phrase: the pattern is searched
    # behind few numbers.
    for word in reversed(_words_before(text, start)):
        if word.startswith(_BEFORE_STEMS) or word in _BEFORE_ENDS:
            break
        if word not in _APPROX_WORDS:
            return None
    else:
        return None
    m = _BEFORE.search(text[max(0, start - _BEFORE_WINDOW) : start])
    return m.lastgroup.rstrip("_") if m and m.lastgroup else None


def _label_kind(text: str, start: int) -> str | None:
    """The kind a line's label gives a number right after its colon: "Killed: 501"."""
    j = start - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j < 1 or text[j] != ":":
        return None
    line_start = text.rfind("\n", 0, j) + 1
    label = text[line_start:j].strip()
    if not label or len(label) > _LABEL_MAX or not label[0].isupper() or "." in label:
        return None
    if _HOME_WORDS.search(label):
        return "homes"
    cue = _AFTER.search(label)
    if cue and cue.lastgroup != "homes":
        return cue.lastgroup
    return "people" if _PERSON_LABEL.search(label) else None


def _bare_count(text: str, m: re.Match[str], value: float) -> bool:
    """A number with no noun that a verb says what happened to: "killing 12", "2,000 were
    detained"; not a year, a time span ("killed 10 years ago") or a pronoun ("no one")."""
    if (m.group("words") or "").lower() == "one" or _is_year(m, value):
        return False
    if _UNIT_AFTER.match(text, m.end()):
        return False
    if _label_kind(text, m.start()):
        return True
    if _before_kind(text, m.start()) not in (None, "homes"):
        return True
    aux = _BARE_AFTER.match(text, m.end())
    if aux is None:
        return False
    cue = _AFTER.match(text, aux.end())
    return cue is not None and cue.lastgroup != "homes"


def _clause_after(text: str, start: int, limit: int) -> str:
    """Text from ``start`` up to the end of its clause, at most ``limit`` offset."""
    window = text[start:limit]
    m = _CLAUSE_END.search(window)
    return window[: m.start()] if m else window


def _after_kind(text: str, noun_end: int, limit: int, what: str) -> str | None:
    """The kind the nearest fitting verb in the clause after a figure gives it."""
    end = min(limit, noun_end + _AFTER_WINDOW)
    clause_end = noun_end + len(_clause_after(text, noun_end, end))
    other = _OTHER_GROUP.search(text, noun_end, clause_end)
    if other:
        clause_end = other.start()
    for m in _AFTER.finditer(text, noun_end, clause_end):
        kind = m.lastgroup
        if kind is None or not _fits(kind, what):
            continue
        # "12 soldiers killed 30 rebels": the verb is theirs, not done to them.
        if _OBJECT_AFTER.match(text, m.end()) and not re.search(
            r"\b(?:were|was|been|being|are|is)\s+$", text[max(0, m.start() - 8) : m.start()]
        ):
            continue
        return kind
    return None


def _fits(kind: str, what: str) -> bool:
    """Whether a count of ``what`` can be of this kind."""
    if what in _BUILDINGS:
        return kind == "homes"
    if what not in _PERSONS or kind == "homes":
        return False
    # Fighters who flee are not displaced persons.
    return not (kind == "displaced" and what in _COMBATANTS)


class _Raw:
    """A figure being worked out: where it is, what it counts, and where its kind came from."""

    __slots__ = (
        "approximate",
        "end",
        "gapped",
        "high",
        "kind",
        "noun",
        "part",
        "qualifier",
        "sentence",
        "source",
        "start",
        "value",
        "weak",
        "what",
    )  # fmt: skip

    def __init__(self, value: float, high: float | None, start: int, end: int,
                 counted: tuple[str, str, str, int, bool]) -> None:  # fmt: skip
        self.value, self.high, self.start, self.end = value, high, start, end
        self.what, self.noun, self.qualifier, _, self.weak = counted
        self.kind = ""
        self.source = ""  # "noun", "before", "after", "shared" or "" (the default)
        self.approximate = False
        self.sentence = 0
        self.gapped = False
        self.part = False


def find_figures(
    text: str,
    sentences: list[Sentence] | None = None,
    exclude: list[tuple[int, int]] | None = None,
) -> list[Figure]:
    """Numbers that count something, in text order; spans in ``exclude`` (dates) are skipped."""
    raw = _counts(text, Spans(exclude or []))
    _read_kinds(text, raw, sentences)
    _share_coordinated_kinds(raw, text)
    # A capitalised plural with no verb saying what happened to it is not a count of
    # persons ("Two Americans", "3 Grammys") unless a large one ("7.1 million Somalis").
    kept = [r for r in raw if r.what and not (r.weak and r.kind in ("", "people") and
                                               r.value < _DEMONYM_ALONE)]  # fmt: skip
    disputes = _disputes(kept, text, sentences)
    return [
        Figure(
            r.value, text[r.start : r.end], r.start, r.end, r.sentence, r.what, r.noun,
            r.qualifier, r.kind == "killed", r.kind == "injured", r.approximate, r.kind,
            tuple(disputes[i]), r.part,
        )
        for i, r in enumerate(kept)
    ]  # fmt: skip


def _counts(text: str, blocked: Spans) -> list[_Raw]:
    """The numbers that count something (or repeat the count before them), in text order,
    none inside ``blocked``."""
    raw: list[_Raw] = []
    skip_to = 0
    for m in _NUMBER.finditer(text):
        if m.start() < skip_to or blocked.overlaps(m.start(), m.end()):
            continue
        value = _number_value(m)
        if value is None or _not_a_count(text, m, value):
            continue
        high, end = _range_high(text, m, value, blocked)
        if high is not None:
            skip_to = end
        counted = _counted_noun(text, end, value if high is None else high)
        if counted is not None and counted[0] not in ("km", "km2") and not value.is_integer():
            continue  # "2.5 people": a decimal counts only a measure
        if counted is not None and counted[2] and _is_year(m, value):
            continue  # "the 2015 earthquake victims"
        gapped = False
        if counted is None:
            gapped = bool(raw) and _gapped(text, raw[-1], m.start()) and value.is_integer()
            if not gapped and (not value.is_integer() or not _bare_count(text, m, value)):
                continue
            counted = ("", "", "", end, False)
        raw.append(_Raw(value, high, m.start(), counted[3], counted))
        raw[-1].gapped = gapped
    return _with_single_persons(text, raw, blocked)


def _with_single_persons(text: str, raw: list[_Raw], blocked: Spans) -> list[_Raw]:
    """``raw`` with the single persons a toll names with "a" ("a man was killed when a panel hit
    him"): a count of one, in text order."""
    ones = []
    for m in _SINGLE_PERSON.finditer(text):
        if blocked.overlaps(m.start(), m.end()):
            continue
        counted = _counted_noun(text, m.end(), 1)
        if counted is not None and counted[0] in _PERSONS | {"people"}:
            ones.append(_Raw(1.0, None, m.start(), counted[3], counted))
    if not ones:
        return raw
    return sorted([*raw, *ones], key=lambda r: r.start)


def _read_kinds(text: str, raw: list[_Raw], sentences: list[Sentence] | None) -> None:
    """Each count's sentence, kind (its own, or the one before's when it shares it) and
    whether it is approximate."""
    for i, r in enumerate(raw):
        limit = raw[i + 1].start if i + 1 < len(raw) else len(text)
        if sentences:
            r.sentence = sentence_index(sentences, r.start)
            limit = min(limit, sentences[r.sentence].end)
        prev = raw[i - 1] if i else None
        if prev and r.gapped:
            # "9,057 dead and Syria 2,530": the noun left out is the one before.
            r.kind, r.source, r.what = prev.kind, "shared", prev.what
        elif (
            prev
            and prev.sentence == r.sentence
            and _fits(prev.kind, r.what)
            and (
                _words_before(text, r.start)[-1:] == ["including"] or _AMONG_THEM.match(text, r.end)
            )
        ):
            # "12 people, including four children": the part is counted as the whole is.
            r.kind, r.source, r.part = prev.kind, "shared", True
        else:
            _set_kind(text, r, limit)
        r.approximate = r.high is not None or bool(
            _APPROX_BEFORE.search(text[max(0, r.start - 20) : r.start])
        )


def _gapped(text: str, prev: _Raw, start: int) -> bool:
    """Whether a bare number at ``start`` repeats the count before it for another subject."""
    if not prev.what or start - prev.end > _GAP_MAX:
        return False
    return _GAP.fullmatch(text, prev.end, start) is not None


def _range_high(
    text: str, m: re.Match[str], low: float, blocked: Spans
) -> tuple[float | None, int]:
    """(top of a range starting at ``m``, end of it) or (None, end of ``m``)."""
    r = _RANGE_HIGH.match(text, m.end())
    if r is None or blocked.overlaps(r.start(), r.end()):
        return None, m.end()
    before = text[max(0, m.start() - 10) : m.start()]
    conj = (r.group("conj") or "").lower()
    # "between 30 and 40"; "rose from 30 to 40" is a change, not a range.
    if (conj == "and") != bool(_BETWEEN_BEFORE.search(before)) or _FROM_BEFORE.search(before):
        return None, m.end()
    high = _number_value(r)
    if high is None or high <= low or (r.group("words") or "").lower() in _SCALES:
        return None, m.end()
    return high, r.end()


def _set_kind(text: str, r: _Raw, limit: int) -> None:
    """Kind of a figure: from its noun, else a verb before it, else one in the clause after."""
    noun_kind = _NOUN_KIND.get(r.noun.lower())
    if noun_kind:
        r.kind, r.source = noun_kind, "noun"
        return
    label = _label_kind(text, r.start)
    if label and (not r.what or _fits(label, r.what) or (label == "people" and r.what in _PERSONS)):
        r.kind, r.source = label, "before"
        r.what = r.what or _LABEL_WHAT.get(label, _BARE_WHAT.get(label, ""))
        return
    before = _before_kind(text, r.start)
    if before and (not r.what or _fits(before, r.what)):
        r.kind, r.source = before, "before"
    else:
        after = _after_kind(text, r.end, limit, r.what or "people")
        if after:
            r.kind, r.source = after, "after"
    if not r.what:
        r.what = _BARE_WHAT.get(r.kind, "")
    if not r.kind and r.what in _PERSONS and r.what not in _GROUPS:
        r.kind = "people"


def _share_coordinated_kinds(raw: list[_Raw], text: str) -> None:
    """ "11 fighters and 7 soldiers were killed": a verb after a list applies to all of it;
    "killing 12 civilians and 3 soldiers": a verb before a list, likewise."""
    for i in range(len(raw) - 2, -1, -1):
        this, nxt = raw[i], raw[i + 1]
        if this.source or not nxt.source or not _fits(nxt.kind, this.what):
            continue
        if _COORDINATION.fullmatch(text, this.end, nxt.start):
            this.kind, this.source = nxt.kind, "shared"
    for i in range(1, len(raw)):
        prev, this = raw[i - 1], raw[i]
        if this.source or prev.source != "before" or not _fits(prev.kind, this.what):
            continue
        if _COORDINATION.fullmatch(text, prev.end, this.start):
            this.kind, this.source = prev.kind, "shared"


_GENERIC = _set("people killed wounded missing displaced arrested evacuated casualties bodies")


def _disputes(raw: list[_Raw], text: str, sentences: list[Sentence] | None) -> list[list[float]]:
    """Other values given for each figure's count: its range top and rival figures."""
    out: list[list[float]] = [[r.high] if r.high is not None else [] for r in raw]
    cues: list[tuple[int, int]] | None = None  # rival cues, found in one pass when first needed
    for i, a in enumerate(raw):
        if a.kind in ("", "people") or a.part:
            continue
        for j in range(i + 1, len(raw)):
            b = raw[j]
            if b.sentence - a.sentence > 1 or b.start - a.end > _DISPUTE_GAP:
                break
            if b.kind != a.kind or b.value == a.value or b.part:
                continue
            if a.what != b.what and not (a.what in _GENERIC and b.what in _GENERIC):
                continue
            if cues is None:
                cues = [m.span() for m in _RIVAL.finditer(text, a.end, raw[-1].start)]
            k = bisect_left(cues, (a.end, 0))
            if k == len(cues) or cues[k][1] > b.start:
                continue
            if _other_scene(text, a, b, sentences):
                continue
            for k, other in ((i, b), (j, a)):
                if other.value not in out[k]:
                    out[k].append(other.value)
    return out


def _other_scene(text: str, a: _Raw, b: _Raw, sentences: list[Sentence] | None) -> bool:
    """Whether the clause after ``b`` names a place or day that ``a``'s sentence did not."""
    clause = _clause_after(text, b.end, min(len(text), b.end + _AFTER_WINDOW))
    names = _SCENE_AFTER.findall(clause)
    if not names:
        return False
    # What ``a``'s sentence says up to ``b``: the place after ``b`` is ``b``'s own.
    start = sentences[a.sentence].start if sentences else max(0, a.start - 200)
    context = text[start : b.start]
    return any(name not in context for name in names)


def primary_figures(figures: list[Figure]) -> list[Figure]:
    """The figures to add up: without parts of the one before ("including four children")
    and without those that only restate an earlier one's count with another value ("118
    killed ... another count put the toll at 120" keeps 118)."""
    out: list[Figure] = []
    for f in figures:
        if f.part or any(
            g.kind == f.kind and f.value in g.disputed and g.value in f.disputed for g in out
        ):
            continue
        out.append(f)
    return out
