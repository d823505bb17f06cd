"""How the map draws a story: category families, their colours and symbols, sides of a front.

Fifteen categories in fifteen colours cannot be told apart; six families in the Okabe–Ito
palette (safe for colour-blind readers) can, and a symbol inside each marker says the family
without colour at all.
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
    Family("fighting", "#D55E00", _svg('<path d="M2 2l6 6M8 2l-6 6"/>'), ("offensive", "battle")),
    Family(
        "strikes",
        "#E69F00",
        _svg('<path d="M5 1v8M1 5h8M2.2 2.2l5.6 5.6M7.8 2.2l-5.6 5.6"/>'),
        ("airstrike",),
    ),
    Family(
        "deals and handovers",
        "#009E73",
        _svg('<path d="M1.5 3.5h7M1.5 6.5h7"/>'),
        ("ceasefire", "handover", "prisoner-swap"),
    ),
    Family(
        "movement",
        "#0072B2",
        _svg('<path d="M2 5h6M5.5 2.5L8 5 5.5 7.5"/>'),
        ("convoy", "evacuation"),
    ),
    Family(
        "casualties and captives",
        "#CC79A7",
        _svg('<path d="M5 1.5v7M2 4h6"/>'),
        ("casualties", "captives", "remains-found", "funeral"),
    ),
    Family(
        "speeches and statements",
        "#56636f",
        _svg('<path d="M2 3.5h6M2 6.5h4"/>'),
        ("speech", "statement", "celebration"),
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
