"""Figures of people moved out of danger, and of schoolchildren, with their kind."""

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
