"""Tests for geo.extract.figures: (value, what, killed, wounded) of each figure found."""

from __future__ import annotations

import pytest

from geo.extract.figures import find_figures, words_to_number


def found(text: str) -> list[tuple[float, str, bool, bool]]:
    return [(f.value, f.what, f.killed, f.wounded) for f in find_figures(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("included 308 militants with their small arms and 331 civilians",
         [(308, "militants", False, False), (331, "civilians", False, False)]),
        ("Eleven Hezbollah fighters and seven Syrian soldiers had been killed",
         [(11, "fighters", True, False), (7, "soldiers", True, False)]),
        ("the fate of nine Lebanese soldiers in captivity", [(9, "soldiers", False, False)]),
        ("ISIS will hand over one Hezbollah captive and the bodies of some Hezbollah forces and "
         "one Iranian fighter killed in battles",
         [(1, "captives", False, False), (1, "fighters", True, False)]),
        ("Floods killed at least 40 people and injured 120 in Sindh.",
         [(40, "people", True, False), (120, "wounded", False, True)]),
        ("12 killed and 30 wounded", [(12, "killed", True, False), (30, "wounded", False, True)]),
        ("killing twenty-five and wounding 30.",
         [(25, "killed", True, False), (30, "wounded", False, True)]),
        ("The death toll rose to 1,200 on Friday.", [(1200, "killed", True, False)]),
        ("bringing the toll since mid-June to more than 1,100.", [(1100, "killed", True, False)]),
        ("a convoy of 17 buses and 11 ambulances",
         [(17, "buses", False, False), (11, "ambulances", False, False)]),
        ("about 140 square kilometres, or 54 sq km", [(140, "km2", False, False),
                                                    (54, "km2", False, False)]),
        ("Two hundred and fifty families fled", [(250, "families", False, False)]),
        ("3 million people were displaced", [(3_000_000, "people", False, False)]),
        ("the 300 or so civilians on board", [(300, "civilians", False, False)]),
        ("cash grants to 50,000 households", [(50_000, "households", False, False)]),
        ("Hezbollah said 24 of its fighters were killed", [(24, "fighters", True, False)]),
        ("Russia fired twenty-five missiles", [(25, "rockets", False, False)]),
        # bare counts take ``what`` from their kind; new nouns of persons
        ("more than 2,000 were detained", [(2000, "arrested", False, False)]),
        ("five people were swept away", [(5, "people", False, False)]),
        ("50 villagers were found dead", [(50, "people", True, False)]),
        ("12 police officers were injured", [(12, "soldiers", False, True)]),
        ("Some 2,000 migrants waited", [(2000, "people", False, False)]),
        ("between thirty and forty fighters", [(30, "fighters", False, False)]),
        # rockets that kill are not killed
        ("Russia fired 25 missiles, killing 12", [(25, "rockets", False, False),
                                                  (12, "killed", True, False)]),
    ],
)  # fmt: skip
def test_find_figures(text: str, expected: list) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "one of the commanders",
        "the two sides would exchange",
        "dozens of buses",
        "hundreds of families",
        "two nationalities",
        "on August 28, 2017",
        "since 2014",
        "two soldier",  # a plural number with a singular noun counts nothing
    ],
)
def test_no_figures(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(
    ("words", "value"),
    [("eleven", 11), ("twenty-five", 25), ("two hundred and fifty", 250), ("one hundred", 100),
     ("three thousand", 3000), ("forty two", 42), ("banana", None)],
)  # fmt: skip
def test_words_to_number(words: str, value: int | None) -> None:
    assert words_to_number(words) == value


def test_dates_can_be_excluded() -> None:
    text = "On 28 August 300 militants left"
    assert found(text) == [(300, "militants", False, False)]
    assert [f.text for f in find_figures(text, exclude=[(3, 12)])] == ["300 militants"]
    assert find_figures(text, exclude=[(13, 16)]) == []


def test_span_qualifier_and_approximation() -> None:
    (fig,) = find_figures("some 308 ISIS militants left")
    assert (fig.text, fig.qualifier, fig.approximate) == ("308 ISIS militants", "ISIS", True)
    assert fig.to_dict()["span"] == [5, 23]
    assert fig.to_dict()["value"] == 308
