"""Tests for geo.map.style: every vocabulary category has a family, and the families' colours
stay apart for colour-blind readers and carry a white symbol."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

from geo import vocabulary
from geo.map.style import CATEGORIES, CATEGORY_COLOURS, FAMILIES, OTHER, families_of, family


def test_every_vocabulary_category_is_in_exactly_one_family():
    listed = [c for f in FAMILIES for c in f.categories]
    assert len(listed) == len(set(listed)), "a category in two families"
    assert set(listed) == set(vocabulary.CATEGORIES)
    assert set(CATEGORY_COLOURS) == set(CATEGORIES) == set(vocabulary.CATEGORIES)


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.label)
def test_a_family_refines_one_vocabulary_family(fam):
    assert len({vocabulary.CATEGORY[c].family for c in fam.categories}) == 1


# The first map's six families: their names, colours and order are what readers know.
FIRST_SIX = [
    ("fighting", "#D55E00"),
    ("strikes", "#E69F00"),
    ("deals and handovers", "#009E73"),
    ("movement", "#0072B2"),
    ("casualties and captives", "#CC79A7"),
    ("speeches and statements", "#56636f"),
]


def test_the_first_six_families_keep_their_names_colours_and_order():
    assert [(f.label, f.colour) for f in FAMILIES[:6]] == FIRST_SIX


@pytest.mark.parametrize(
    ("category", "label"),
    [
        # The old categories stay where they were, except celebration (now with politics).
        pytest.param("offensive", "fighting", id="offensive"),
        pytest.param("airstrike", "strikes", id="airstrike"),
        pytest.param("handover", "deals and handovers", id="handover"),
        pytest.param("convoy", "movement", id="convoy"),
        pytest.param("funeral", "casualties and captives", id="funeral"),
        pytest.param("statement", "speeches and statements", id="statement"),
        pytest.param("celebration", "protest and politics", id="celebration"),
        # The new ones.
        pytest.param("capture", "fighting", id="capture"),
        pytest.param("shelling", "strikes", id="shelling"),
        pytest.param("bombing", "strikes", id="bombing"),
        pytest.param("suicide-bombing", "strikes", id="suicide-bombing"),
        pytest.param("agreement", "deals and handovers", id="agreement"),
        pytest.param("displacement", "movement", id="displacement"),
        pytest.param("attack", "casualties and captives", id="attack"),
        pytest.param("abduction", "casualties and captives", id="abduction"),
        pytest.param("arrest", "casualties and captives", id="arrest"),
        pytest.param("protest", "protest and politics", id="protest"),
        pytest.param("riot", "protest and politics", id="riot"),
        pytest.param("coup", "protest and politics", id="coup"),
        pytest.param("earthquake", "disasters", id="earthquake"),
        pytest.param("epidemic", "disasters", id="epidemic"),
        pytest.param("accident", "disasters", id="accident"),
        pytest.param("alien-landing", "other", id="unknown"),
    ],
)
def test_family_of_a_category(category, label):
    assert family(category).label == label


def test_families_of_lists_each_family_once_in_legend_order():
    fams = families_of(["flood", "battle", "storm", "protest", "nonsense", "speech"])
    assert [f.label for f in fams] == [
        "fighting",
        "speeches and statements",
        "protest and politics",
        "disasters",
        "other",
    ]


_PATH_D = re.compile(r' d="([^"]*)"')


@pytest.mark.parametrize("fam", [*FAMILIES, OTHER], ids=lambda f: f.label)
def test_symbols_are_white_strokes_in_a_ten_unit_box(fam):
    assert fam.symbol.startswith('<svg viewBox="0 0 10 10" width="10" height="10"')
    assert 'stroke="#fff"' in fam.symbol and 'aria-hidden="true"' in fam.symbol
    for d in _PATH_D.findall(fam.symbol):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
        # Absolute and relative steps alike stay small: nothing is drawn far outside the box.
        assert all(-10 < n <= 10 for n in numbers), d


def test_symbols_differ():
    symbols = [f.symbol for f in (*FAMILIES, OTHER)]
    assert len(set(symbols)) == len(symbols)


# --- colours: apart for every kind of colour vision, and dark enough for a white symbol ---------

# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
_VISION = {
    "normal": np.eye(3),
    "protan": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deutan": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritan": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def _linear(colour: str) -> np.ndarray:
    c = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(colour: str, vision: str) -> tuple[float, float, float]:
    t = _XYZ @ np.clip(_VISION[vision] @ _linear(colour), 0, 1) / _WHITE
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _de2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    lbar, cbar = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        hbar = h1 + h2
    elif abs(h1 - h2) <= 180:
        hbar = (h1 + h2) / 2
    else:
        hbar = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbar, 1 + 0.015 * cbar * t
    rotation = math.sin(math.radians(60 * math.exp(-(((hbar - 275) / 25) ** 2))))
    rt = -rotation * 2 * math.sqrt(cbar**7 / (cbar**7 + 25**7))
    dl, dc, dhh = (l2 - l1) / sl, (c2 - c1) / sc, big_dh / sh
    return math.sqrt(dl**2 + dc**2 + dhh**2 + rt * dc * dhh)


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [
        # Sharma, Wu and Dalal's test data, pairs 1, 7 and 17.
        pytest.param((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425, id="pair-1"),
        pytest.param((50, 0, 0), (50, -1, 2), 2.3669, id="pair-7"),
        pytest.param((50, 2.5, 0), (73, 25, -18), 27.1492, id="pair-17"),
    ],
)
def test_colour_difference_matches_the_published_values(lab1, lab2, expected):
    assert _de2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


# The Okabe–Ito six are at least 10.8 apart (orange and reddish purple, for a tritan reader).
MIN_DIFFERENCE = 10.0


@pytest.mark.parametrize("vision", list(_VISION))
def test_family_colours_stay_apart(vision):
    close = [
        (a.label, b.label, round(d, 1))
        for a, b in itertools.combinations(FAMILIES, 2)
        if (d := _de2000(_lab(a.colour, vision), _lab(b.colour, vision))) < MIN_DIFFERENCE
    ]
    assert not close


@pytest.mark.parametrize("fam", FAMILIES, ids=lambda f: f.label)
def test_a_white_symbol_shows_on_the_family_colour(fam):
    r, g, b = _linear(fam.colour)
    contrast = 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)
    assert contrast >= 2.2  # the Okabe–Ito orange's 2.25 is the lowest
