"""The event vocabulary: every category a story or a draft may use, its family, and where one
applies, ACLED's event type and sub-event type (ACLED codebook, 2023 edition), so a story can be
written out in ACLED's columns. ``docs/event-vocabulary.md`` explains each entry."""

from __future__ import annotations

import re
from dataclasses import dataclass

# ACLED's six event types, spelled as the codebook spells them.
BATTLES = "Battles"
EXPLOSIONS = "Explosions/Remote violence"
VIOLENCE = "Violence against civilians"
PROTESTS = "Protests"
RIOTS = "Riots"
STRATEGIC = "Strategic developments"


@dataclass(frozen=True)
class Category:
    """One category: its name, family and ACLED coding ("" where ACLED codes no event)."""

    name: str
    family: str  # conflict, disaster, politics, movement, statement
    acled_event_type: str = ""
    acled_sub_event_type: str = ""
    label: str = ""

    def to_dict(self) -> dict[str, str]:
        """JSON-ready mapping."""
        return {
            "category": self.name,
            "family": self.family,
            "acled_event_type": self.acled_event_type,
            "acled_sub_event_type": self.acled_sub_event_type,
        }


_ROWS = (
    # Conflict: ACLED's types. A capture is ACLED's "Government regains territory" or
    # "Non-state actor overtakes territory" depending on who took it, so its sub-event is left
    # to acled_sub_event() and the actors.
    Category("battle", "conflict", BATTLES, "Armed clash", "battle"),
    Category("offensive", "conflict", BATTLES, "Armed clash", "offensive"),
    Category("capture", "conflict", BATTLES, "", "ground taken"),
    Category("airstrike", "conflict", EXPLOSIONS, "Air/drone strike", "air or drone strike"),
    Category(
        "shelling",
        "conflict",
        EXPLOSIONS,
        "Shelling/artillery/missile attack",
        "shelling, artillery or missiles",
    ),
    Category(
        "bombing", "conflict", EXPLOSIONS, "Remote explosive/landmine/IED", "bomb, mine or IED"
    ),
    Category("suicide-bombing", "conflict", EXPLOSIONS, "Suicide bomb", "suicide bombing"),
    Category("attack", "conflict", VIOLENCE, "Attack", "attack on civilians"),
    Category("abduction", "conflict", VIOLENCE, "Abduction/forced disappearance", "abduction"),
    Category("casualties", "conflict", "", "", "casualties"),
    Category("captives", "conflict", "", "", "captives"),
    Category("remains-found", "conflict", "", "", "remains found"),
    Category("funeral", "conflict", "", "", "funeral"),
    Category("ceasefire", "conflict", STRATEGIC, "Agreement", "ceasefire"),
    Category("agreement", "conflict", STRATEGIC, "Agreement", "agreement"),
    Category("prisoner-swap", "conflict", STRATEGIC, "Agreement", "prisoner swap"),
    # Handed over under a deal: captives, bodies, weapons or ground. ACLED codes the deal
    # (Agreement); a town given up without a fight is a capture's "Non-violent transfer of
    # territory", which the editor sets when that is what the report says.
    Category("handover", "conflict", STRATEGIC, "Agreement", "handover"),
    Category("arrest", "conflict", STRATEGIC, "Arrests", "arrests"),
    # Protest and politics.
    Category("protest", "politics", PROTESTS, "Peaceful protest", "protest"),
    Category("riot", "politics", RIOTS, "Violent demonstration", "riot"),
    Category("election", "politics", "", "", "election"),
    Category("coup", "politics", STRATEGIC, "Other", "coup"),
    Category("decision", "politics", "", "", "government decision"),
    Category("celebration", "politics", "", "", "celebration"),
    # Disasters, by hazard: ACLED codes none of them.
    Category("earthquake", "disaster", label="earthquake"),
    Category("flood", "disaster", label="flood"),
    Category("storm", "disaster", label="storm"),
    Category("wildfire", "disaster", label="wildfire"),
    Category("landslide", "disaster", label="landslide"),
    Category("drought", "disaster", label="drought"),
    Category("epidemic", "disaster", label="epidemic"),
    Category("volcano", "disaster", label="volcanic eruption"),
    Category("accident", "disaster", label="accident"),
    # People on the move.
    Category("displacement", "movement", label="displacement"),
    Category("evacuation", "movement", label="evacuation"),
    Category("convoy", "movement", label="convoy"),
    Category("return", "movement", label="return"),
    # Words.
    Category("speech", "statement", label="speech"),
    Category("statement", "statement", label="statement"),
)
CATEGORY = {c.name: c for c in _ROWS}
CATEGORIES = tuple(CATEGORY)
FAMILIES = ("conflict", "disaster", "politics", "movement", "statement")
# Words that say the state took the ground, for a capture's ACLED sub-event, and the words of
# armed groups' names that say they are not the state ("Free Syrian Army", "Arakan Army").
_STATE = re.compile(
    r"\b(?:army|armed forces|government|military|police|troops|soldiers"
    r"|security forces|national guard|gendarmerie|junta)\b",
    re.IGNORECASE,
)
_NOT_STATE = re.compile(
    r"\b(?:free|liberation|arakan|kachin|karen|ta'ang|independence"
    r"|resistance|revolutionary|rebels?|insurgents?|militia|people's"
    r"|republican army|salvation|defen[cs]e army)\b",
    re.IGNORECASE,
)


def acled_sub_event(category: str, actors: tuple[str, ...] | list[str] = ()) -> str:
    """ACLED's sub-event type for a category ("" where none applies); a capture by the state's
    forces is "Government regains territory", by anyone else "Non-state actor overtakes
    territory"."""
    cat = CATEGORY.get(category)
    if cat is None:
        return ""
    if category == "capture":
        first = actors[0] if actors else ""
        if not first:
            return ""
        state = bool(_STATE.search(first)) and not _NOT_STATE.search(first)
        return "Government regains territory" if state else "Non-state actor overtakes territory"
    return cat.acled_sub_event_type


def acled_event_type(category: str) -> str:
    """ACLED's event type for a category, or ""."""
    cat = CATEGORY.get(category)
    return cat.acled_event_type if cat else ""
