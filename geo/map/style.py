"""How the map draws a story: category families, their colours and symbols, sides of a front.

The vocabulary's forty-odd categories in as many colours could not be told apart; eight families
can, and a symbol inside each marker says the family without colour at all. The first six
families are the Okabe–Ito palette (safe for colour-blind readers; its black softened to
slate). "Disasters" takes the palette's sky blue and "protest and politics" a dark maroon, not
the palette's yellow, which would hide a white symbol or count; the maroon stays apart from the
other seven for normal, protan, deutan and tritan vision (tests/geo/map/test_style.py measures
every pair).

Every category of the event vocabulary (geo/vocabulary.py) is in exactly one family, and a
family's categories share one vocabulary family: the map's families split "conflict" four ways
(fighting, strikes, deals and handovers, casualties and captives). Attacks on civilians,
abductions and arrests are drawn with casualties and captives, what is done to people rather
than between armed forces: a ninth colour would be one too many to tell apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """A group of event categories drawn alike."""

    label: str
    colour: str
    symbol: str  # inline SVG, white on the family's colour
    categories: tuple[str, ...]


def _svg(path: str) -> str:
    return (
        '<svg viewBox="0 0 10 10" width="10" height="10" fill="none" stroke="#fff" '
        f'stroke-width="1.8" stroke-linecap="round" aria-hidden="true">{path}</svg>'
    )


FAMILIES = (
    Family(
        "fighting",
        "#D55E00",
        _svg('<path d="M2 2l6 6M8 2l-6 6"/>'),
        ("offensive", "battle", "capture"),
    ),
    Family(
        "strikes",
        "#E69F00",
        _svg('<path d="M5 1v8M1 5h8M2.2 2.2l5.6 5.6M7.8 2.2l-5.6 5.6"/>'),
        ("airstrike", "shelling", "bombing", "suicide-bombing"),
    ),
    Family(
        "deals and handovers",
        "#009E73",
        _svg('<path d="M1.5 3.5h7M1.5 6.5h7"/>'),
        ("ceasefire", "handover", "prisoner-swap", "agreement"),
    ),
    Family(
        "movement",
        "#0072B2",
        _svg('<path d="M2 5h6M5.5 2.5L8 5 5.5 7.5"/>'),
        ("convoy", "evacuation", "displacement", "return"),
    ),
    Family(
        "casualties and captives",
        "#CC79A7",
        _svg('<path d="M5 1.5v7M2 4h6"/>'),
        (
            "casualties",
            "captives",
            "remains-found",
            "funeral",
            "attack",
            "abduction",
            "arrest",
        ),
    ),
    Family(
        "speeches and statements",
        "#56636f",
        _svg('<path d="M2 3.5h6M2 6.5h4"/>'),
        ("speech", "statement"),
    ),
    Family(
        "protest and politics",
        "#660000",
        # A pennant on its pole.
        _svg('<path stroke-linejoin="round" d="M2.5 9V1.5M2.5 1.8l5.5 2.1-5.5 2.1"/>'),
        ("protest", "riot", "election", "coup", "decision", "celebration"),
    ),
    Family(
        "disasters",
        "#56B4E9",
        # A seismograph's trace.
        _svg('<path stroke-linejoin="round" d="M1 5.5h1.6l1.4-3 1.8 5 1.4-3.5H9"/>'),
        (
            "earthquake",
            "flood",
            "storm",
            "wildfire",
            "landslide",
            "drought",
            "epidemic",
            "volcano",
            "accident",
        ),
    ),
)
OTHER = Family("other", "#999999", _svg('<circle cx="5" cy="5" r="1.5"/>'), ())
FAMILY_OF = {c: f for f in FAMILIES for c in f.categories}
CATEGORY_COLOURS = {c: f.colour for f in FAMILIES for c in f.categories}
CATEGORIES = tuple(CATEGORY_COLOURS)


def family(category: str) -> Family:
    """The family a category belongs to (``OTHER`` for one this version does not know)."""
    return FAMILY_OF.get(category, OTHER)


def families_of(categories) -> list[Family]:
    """The families of ``categories``, in legend order, each once."""
    wanted = {family(c) for c in categories}
    return [f for f in (*FAMILIES, OTHER) if f in wanted]


SIDE_STYLE = {
    "LB": {"color": "#b3261e", "fillColor": "#e0675f", "label": "Lebanese side"},
    "SY": {"color": "#6b2c91", "fillColor": "#a36cc4", "label": "Syrian side"},
}
CONVOY_COLOUR = "#0b4f8a"
HALTED_COLOUR = "#c62828"
