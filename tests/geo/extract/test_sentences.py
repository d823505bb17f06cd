"""Tests for geo.extract.sentences."""

from __future__ import annotations

import pytest

from geo.extract.sentences import sentence_index, split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One left. Two stayed.", ["One left.", "Two stayed."]),
        ("Mr. Smith went to Homs. He stayed.", ["Mr. Smith went to Homs.", "He stayed."]),
        (
            "On Aug. 28 the convoy left. It went east.",
            ["On Aug. 28 the convoy left.", "It went east."],
        ),
        ("The U.S. Army said no. Then it left.", ["The U.S. Army said no.", "Then it left."]),
        ("“It ends here.” Nasrallah said.", ["“It ends here.”", "Nasrallah said."]),
        ("Is it over? Yes.", ["Is it over?", "Yes."]),
        ("Caption line\nBody text starts here.", ["Caption line", "Body text starts here."]),
        ("para one\n\npara two", ["para one", "para two"]),
        ("It cost 3.5 million dollars. Fine.", ["It cost 3.5 million dollars.", "Fine."]),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert [s.text for s in split_sentences(text)] == expected


def test_spans_point_into_text() -> None:
    text = "  First one.  Second one.\n\nThird."
    sentences = split_sentences(text)
    assert [text[s.start : s.end] for s in sentences] == [s.text for s in sentences]
    assert [s.index for s in sentences] == [0, 1, 2]


def test_sentence_index() -> None:
    sentences = split_sentences("Aa bb. Cc dd. Ee.")
    assert [sentence_index(sentences, p) for p in (0, 4, 7, 14, 16)] == [0, 0, 1, 2, 2]
