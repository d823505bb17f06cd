"""What the place finder returns: the places named, and the names passed over."""

from __future__ import annotations

from dataclasses import dataclass

from geo.geocoders.gazetteer import GazetteerPlace


@dataclass(frozen=True)
class PlaceMention:
    """A place named in the text: where it is in the text, and where it is on Earth."""

    name: str
    text: str
    start: int | None
    end: int | None
    sentence: int
    lat: float | None  # None: unplaced, for the editor to pin (see ``within``)
    lon: float | None
    radius_m: int
    country: str
    kind: str
    place_id: str
    source: str
    via: str  # name, dateline, qualifier, border, anaphor
    candidates: tuple[GazetteerPlace, ...] = ()
    # An unplaced name: the area it must lie in (a country, or the district around a town the
    # sentence names), never drawn as its point.
    within: GazetteerPlace | None = None
    # "place": where something is or happens; "actor": a place named for who acts ("Moscow's
    # invasion", "Washington said"). Descriptions ("US-led", "a Beirut-based analyst") and
    # models ("Mi-35") are no mentions at all.
    role: str = "place"

    @property
    def placed(self) -> bool:
        """Whether the mention has a point on the map."""
        return self.lat is not None and self.lon is not None

    @property
    def span(self) -> tuple[int, int] | None:
        """[start, end) character offsets in the article text; None for a given dateline."""
        return None if self.start is None or self.end is None else (self.start, self.end)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping with the top candidates."""
        return {
            "name": self.name,
            "text": self.text,
            "span": list(self.span) if self.span else None,
            "sentence": self.sentence,
            "lat": self.lat,
            "lon": self.lon,
            "radius_m": self.radius_m,
            "country": self.country,
            "kind": self.kind,
            "place_id": self.place_id,
            "source": self.source,
            "via": self.via,
            "candidates": [_candidate_dict(c) for c in self.candidates],
            "within": _within_dict(self.within),
            "role": self.role,
        }


def _within_dict(p: GazetteerPlace | None) -> dict[str, object] | None:
    if p is None:
        return None
    return {"name": p.name, "country": p.country, "lat": p.lat, "lon": p.lon,
            "radius_m": p.radius_m}  # fmt: skip


def _candidate_dict(p: GazetteerPlace) -> dict[str, object]:
    return {
        "id": p.id,
        "name": p.name,
        "country": p.country,
        "lat": p.lat,
        "lon": p.lon,
        "population": p.population,
        "source": p.source,
    }


@dataclass(frozen=True)
class PassedOver:
    """A capitalised name read as a possible place and rejected, with why.

    ``reason`` is one of :data:`PASSED_OVER_REASONS`; [start, end) as in :class:`PlaceMention`.
    """

    text: str
    start: int
    end: int
    reason: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {"text": self.text, "start": self.start, "end": self.end, "reason": self.reason}


# Why a name was passed over. Everything is what the finder knew when it let the name go:
# "person": a person's name (a title or first name, an age, "said"); "title": inside a longer
# capitalised title ("Liberation Day Parade"); "disease": named for one ("West Nile virus");
# "alternate name": a short alternate name of a town, like a surname ("Lu"); "unsupported": the
# gazetteer's places of that name lie in countries the article never names, or are too small;
# "unknown": no gazetteer has it and no word around it says it is a place; "no country": a cue
# says place but the article names no country to put it in; an actor's kind ("organisation",
# "armed-group", ...): an actor of the list or its head words holds the name.
PASSED_OVER_REASONS = frozenset(
    {"person", "title", "disease", "alternate name", "unsupported", "unknown", "no country"}
)
