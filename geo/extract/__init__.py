"""Extract places, dates, figures, actors and draft events from a news article.

``extract(text, published)`` returns an :class:`Extraction`; every span is a [start, end)
character range in ``Extraction.text``, the article as plain text (HTML and Markdown are
stripped first). ``python -m geo extract FILE --date YYYY-MM-DD`` (``cli``) prints it as JSON.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pandas as pd

from geo.extract.actors import ActorMention, find_actors
from geo.extract.dateline import Dateline, find_dateline
from geo.extract.dates import DateMention, find_dates
from geo.extract.events import DraftEvent, draft_events
from geo.extract.figures import Figure, find_figures
from geo.extract.places import PassedOver, PlaceMention, find_places
from geo.extract.sentences import Sentence, Spans, split_sentences
from geo.extract.textclean import TextFormat, to_plain_text
from geo.geocoders.gazetteer import Gazetteer
from geo.names import normalize

# Most names passed over that an extraction keeps: a list of every capitalised word of a
# hostile article would help no editor, and must not grow with it.
MAX_PASSED_OVER = 200


@dataclass(frozen=True)
class Extraction:
    """Everything found in one article."""

    text: str
    published: date
    dateline: Dateline | None
    sentences: list[Sentence]
    places: list[PlaceMention]
    dates: list[DateMention]
    figures: list[Figure]
    actors: list[ActorMention]
    events: list[DraftEvent]
    # Place names used for who acts or what something is, not where ("Moscow's invasion",
    # "US-led", "Mi-35"): recognised, resolved, and kept off the map and the draft.
    place_actors: list[PlaceMention] = field(default_factory=list)
    # Capitalised names read as possible places and let go (a person, an unknown word, a
    # town in a country the article never names), for the editor to add by hand: none inside
    # a place, place actor, date or figure, none overlapping another, at most MAX_PASSED_OVER.
    passed_over: tuple[PassedOver, ...] = ()

    def to_dict(
        self, *, include_text: bool = True, include_passed_over: bool = False
    ) -> dict[str, object]:
        """JSON-ready mapping; ``include_text`` adds the plain text the spans point into,
        ``include_passed_over`` the names passed over (the CLI's output has both)."""
        out: dict[str, object] = {
            "published": self.published.isoformat(),
            "dateline": self.dateline.to_dict() if self.dateline else None,
            "places": [p.to_dict() for p in self.places],
            "place_actors": [p.to_dict() for p in self.place_actors],
            "dates": [d.to_dict() for d in self.dates],
            "figures": [f.to_dict() for f in self.figures],
            "actors": [a.to_dict() for a in self.actors],
            "events": [e.to_dict() for e in self.events],
        }
        if include_passed_over:
            out["passed_over"] = [p.to_dict() for p in self.passed_over]
        if include_text:
            out["text"] = self.text
        return out


def _dateline_arg(
    given: str | None, found: Dateline | None
) -> tuple[str, int | None, int | None] | None:
    """(name, start, end) of the dateline place: the caller's name wins over the detected one."""
    if given:
        if found is not None and normalize(found.place) == normalize(given):
            return (given, found.place_start, found.place_end)
        return (given, None, None)
    if found is not None:
        return (found.place, found.place_start, found.place_end)
    return None


def extract(
    text: str,
    published: date,
    *,
    dateline: str | None = None,
    gazetteer: Gazetteer | None = None,
    fmt: TextFormat | None = None,
    demonyms: bool = False,
) -> Extraction:
    """Places, dates, figures, actors and draft events of an article published on ``published``.

    ``dateline`` names the place the report was filed from when the text does not say it;
    ``gazetteer`` defaults to GeoNames alone (no story places), loaded from the user cache;
    ``demonyms`` counts "Turkish", "Syrian" as mentions of the country too.
    """
    if gazetteer is None:
        gazetteer = Gazetteer.load()
    plain = to_plain_text(text, fmt)
    found_dateline = find_dateline(plain, published)
    sentences = split_sentences(plain)
    dates = find_dates(plain, published, sentences)
    figures = find_figures(plain, sentences, exclude=[d.span for d in dates])
    actors = find_actors(plain, sentences)
    rejected: list[PassedOver] = []
    mentions = find_places(
        plain,
        sentences,
        gazetteer,
        actors,
        dateline=_dateline_arg(dateline, found_dateline),
        demonyms=demonyms,
        passed_over=rejected,
    )
    places = [p for p in mentions if p.role == "place"]
    events = draft_events(sentences, published, places, dates, figures, actors)
    place_actors = [p for p in mentions if p.role != "place"]
    # The place finder knows nothing of dates and figures, and a mention's role is settled
    # after it: what any of them covers is shown already.
    shown = Spans(
        [p.span for p in mentions if p.span is not None]
        + [d.span for d in dates] + [f.span for f in figures]
    )  # fmt: skip
    passed_over = tuple(
        itertools.islice((p for p in rejected if not shown.overlaps(p.start, p.end)),
                         MAX_PASSED_OVER)
    )  # fmt: skip
    return Extraction(
        plain, published, found_dateline, sentences, places, dates, figures, actors, events,
        place_actors, passed_over,
    )  # fmt: skip


def load_story_places(path: str | Path) -> pd.DataFrame:
    """places.csv of a story folder, or a places.csv file given directly."""
    p = Path(path)
    csv_path = p / "places.csv" if p.is_dir() else p
    return pd.read_csv(csv_path, dtype=str, keep_default_na=False)
