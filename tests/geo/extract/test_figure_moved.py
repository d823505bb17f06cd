"""Figures of people moved out of danger, of schoolchildren and of one person named with "a",
with their kind."""

from __future__ import annotations

from datetime import date

import pytest

from geo.extract.dates import find_dates
from geo.extract.figures import find_figures
from geo.extract.sentences import split_sentences


def kinds(text: str) -> set[tuple[str, float]]:
    sentences = split_sentences(text)
    dates = find_dates(text, date(2022, 5, 2), sentences)
    found = find_figures(text, sentences, exclude=[d.span for d in dates])
    return {(str(f.kind), f.value) for f in found}


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Twelve tourists were taken off the island by the navy.", "evacuated", 12),
        ("Almost 3,000 people had got out of the flooded districts by noon.", "evacuated", 3000),
        ("About 40 patients were moved out of the hospital overnight.", "evacuated", 40),
        ("Some 600 residents were brought to safety.", "evacuated", 600),
        ("Nine foreigners were arrested at the border.", "arrested", 9),
        ("More than 150 schoolchildren were kidnapped from the school.", "people", 150),
    ],
)
def test_kind_of_people_moved(text: str, kind: str, value: float) -> None:
    assert (kind, value) in kinds(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("In the port a man was killed when a crane fell on him.", {("killed", 1.0)}),
        ("A soldier died and 12 were hurt.", {("killed", 1.0), ("injured", 12.0)}),
        ("Police said a woman was injured.", {("injured", 1.0)}),
        # "a" before a person with no toll verb is no count.
        ("A man said the road was closed.", set()),
        ("A spokesman was killed in the blast.", set()),
    ],
)
def test_one_person_named_with_a(text: str, expected: set[tuple[str, float]]) -> None:
    assert kinds(text) == expected
