"""Draft events: one per happening the article tells, placed and dated from its own clause,
for a person to rewrite."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from itertools import pairwise

from geo.extract.actors import ActorMention
from geo.extract.dates import DateMention
from geo.extract.figures import Figure, primary_figures
from geo.extract.places import PlaceMention, capitals
from geo.extract.sentences import Sentence
from geo.geometry import sphere_km
from geo.names import normalize
from geo.vocabulary import CATEGORY, acled_event_type, acled_sub_event

# First matching category wins: the specific before the general. Categories and their ACLED
# coding are geo/vocabulary.py's (docs/event-vocabulary.md).
CATEGORY_KEYWORDS: tuple[tuple[str, str], ...] = (
    # People told to leave: the happening, even when a hazard is why ("ordered to leave their
    # homes after floodwaters ...").
    # The order's object may say where the people are: "ordered tens of thousands of people in
    # the northwest of Puerto Rico to leave" (eleven words).
    ("evacuation", r"\b(?:evacuat(?:e|ed|es|ing|ion|ions)|(?:ordered|told|urged|forced) (?:\w+ )"
                   r"{0,16}?to (?:leave|flee|move)|evacuation orders?"
                   # People moved: "patients were moved out of hospital", "29 foreigners were
                   # taken off the island", "2,000 people had got out of the flooded areas".
                   r"|(?:moved|brought|got|ferried|airlifted) (?:out of|to safety)"
                   r"|(?:were|was|been|being) (?:\w+ )?(?:taken|brought) (?:off|out)"
                   # Brought out alive from the rubble: a rescue, part of the hazard's story.
                   r"(?! alive| of the (?:rubble|wreckage|debris|ruins))"
                   # Sent to fetch people stuck where they are: "to pick up people who were
                   # stranded", "to rescue residents trapped on roofs".
                   r"|(?:rescue|pick up|picked up|bring out|fly out|airlift) (?:\w+ ){0,4}?"
                   r"(?:stranded|marooned|trapped on))\b"),
    # Hazards: words no other kind of news uses.
    ("earthquake", r"\b(?:earthquakes?|quakes?|tremors?|aftershocks?|magnitude[\s-]+\d"
                   r"|seismic|epicent(?:re|er))\b"),
    # "Fighting erupted" is no volcano: only the volcano's own words.
    ("volcano", r"\b(?:volcan\w*|lava|pyroclastic|ash (?:clouds?|plumes?|columns?))\b"),
    # "A landslide victory" is a vote.
    ("landslide", r"\b(?:landslides?(?! (?:victory|win|majority))|mudslides?|landslips?"
                  r"|rockslides?|avalanches?)\b"),
    ("storm", r"\b(?:cyclones?|hurricanes?|typhoons?|tornado(?:e?s)?|tropical storms?"
              r"|storm surges?|(?:made|makes|making) landfall|storms?)\b"),
    ("flood", r"\b(?:floods?|flooding|flooded|floodwaters?|flash[\s-]floods?|inundat\w*|deluges?"
              r"|torrential rains?|heavy rain(?:fall|s)?|monsoon rains?|downpours?|cloudbursts?"
              r"|swept away|(?:burst|bursts|broke|breaks|overtopped) (?:its|their) banks"
              r"|under ?water|overflow(?:ed|ing|s)?|submerg\w*|swamped"
              r"|dams? (?:burst|collapsed|breached|broke))\b"),
    ("wildfire", r"\b(?:wildfires?|bushfires?|forest fires?|brush ?fires?|blazes?"
                 r"|fires? (?:swept|raged|spread|burned|burnt|broke out|tore))\b"),
    ("drought", r"\b(?:droughts?|famine|crop failures?|dry spells?)\b"),
    ("epidemic", r"\b(?:outbreaks? of (?:cholera|ebola|measles|dengue|mpox|disease|the virus"
                 r"|\w+ fever)|epidemics?|pandemic|cholera|ebola|measles|dengue|mpox"
                 r"|covid(?:-19)?|coronavirus)\b"),
    # Politics.
    ("coup", r"\b(?:coups?(?: d'(?:é|e)tat)?|putsch|juntas?|(?:seiz|tak)(?:e|es|ed|ing) power"
             r"|took power|military takeover|overthr(?:ew|own)"
             r"|toppled|deposed|ousted (?:the )?(?:president|government|prime minister))\b"),
    # Riot words outrank the vote a riot is about ("who lost the election stormed Congress");
    # only a crowd's own acts here, as fire and looting are as often an armed group's.
    ("riot", r"\b(?:vandali[sz]\w*|barricad\w*|clash(?:ed|es)? with (?:the )?(?:riot )?(?:police"
             r"|officers)|(?:threw|throwing|hurled|hurling) (?:stones|rocks"
             r"|petrol bombs)|(?:set|burn(?:ed|ing|t)?) (?:\w+ )?tyres|(?:stormed|invaded"
             r"|forced (?:their|its) way into) (?:the )?(?:congress|parliament|supreme court"
             r"|palace|capitol|presidential palace|government buildings?))\b"),
    ("election", r"\b(?:elections?|electoral|polls?|polling|ballots?|voters?|voting|voted"
                 r"|re-elected|run-?offs?|referendum|votes? (?:count|tally|cast))\b"),
    # Orders that change everyone's day: before the protests they answer.
    ("decision", r"\b(?:curfews?|state of emergency|martial law|shoot-on-sight|internet"
                 r" (?:shutdown|blackout)|decree\w*)\b"),
    # Conflict.
    ("prisoner-swap", r"\b(?:swap|prisoner exchange|exchanged?"
                      r"|exchange (?:of )?(?:the )?(?:bodies|prisoners|captives))\b"),
    ("remains-found", r"\b(?:remains (?:were |was )?(?:found|discovered|recovered|identified)"
                      r"|mass grave|bodies (?:were |have been )?(?:found|discovered|recovered"
                      r"|turned up|washed up|washed ashore)"
                      # "the burned bodies of eighteen people, who may have been migrants,
                      # were discovered": the bodies' own clause, a few words on.
                      r"|bod(?:y|ies) of [^.;]{1,60}?\b(?:were|was|have been|had been) "
                      r"(?:found|discovered|recovered)"
                      # Bodies seen where they lie are bodies found: "the bodies of 12 men lay
                      # in the streets", "the bodies lay close to the forest".
                      r"|bod(?:y|ies)\b[^.;]{0,40}?\b(?:(?:lay|lie|lying)(?! out| down)|littered"
                      r"|strewn))\b"),
    ("funeral", r"\b(?:funerals?|buried|burial|mourn(?:ers|ed|ing)?)\b"),
    # A convoy or a caravan is the happening, whatever deal set it moving.
    ("convoy", r"\b(?:convoys?|buses|caravans?)\b"),
    # Going home is the happening, whatever truce allowed it.
    ("return", r"\b(?:returnees|return(?:ed|ing|s)? (?:home|to their (?:homes|villages|towns)))\b"),
    ("ceasefire", r"\b(?:cease-?fire|truce|(?:halt|pause) (?:to|in) (?:the )?fighting"
                  r"|agreed (?:to )?(?:a |an )?(?:[\w-]+ )?(?:pause|halt))\b"),
    ("agreement", r"\b(?:agreed|agreements?|accords?|(?:struck|reached|signed) (?:a |an |the )?"
                  r"(?:\w+ )?deal|peace (?:deal|talks|plan)|signed)\b"),
    ("suicide-bombing", r"\bsuicide (?:bomb\w*|attack\w*|car bomb\w*|vests?)\b"),
    ("bombing", r"\b(?:car bombs?|roadside bombs?|IEDs?|improvised explosive|explosive devices?"
                r"|landmines?|booby[\s-]trap\w*|bomb (?:blast|exploded|went off|attack)"
                r"|bombs? (?:exploded|went off)|blasts?(?! walls?| doors?|-proof)|explosions?"
                r"|detonat\w*)\b"),
    ("airstrike", r"\b(?:air ?strikes?|air-strikes?|air raids?|warplanes?|jets?|aircraft"
                  r"|drone strikes?|drones?|helicopter gunships?|bombed|bombing|bombings"
                  r"|aerial bombardment"
                  r"|from the air)\b"),
    ("shelling", r"\b(?:shell(?:ing|ed|s)?|artillery|mortars?|rockets?|missiles?|barrages?"
                 r"|bombard\w*)\b"),
    ("celebration", r"\b(?:celebrat\w*|festivit\w*|parade)\b"),
    # Rescues are part of a hazard's story, else an evacuation: see guess_category.
    ("rescue", r"\b(?:rescu\w*|pulled (?:\w+ )*?(?:out of|from) (?:the )?(?:rubble|wreckage|debris"
               r"|water|mud))\b"),
    ("evacuation", r"\b(?:airlift\w*|withdr[ae]w\w*|withdrawal)\b"),
    ("displacement", r"\b(?:fled|flee(?:ing)?|displac\w*|refugees?|homeless"
                     r"|uprooted(?! trees| crops)|forced (?:from|out of) (?:their|his|her) homes"
                     r"|crossed (?:the border )?into|asylum)\b"),
    ("handover", r"\b(?:hand(?:ed|ing|s)? over|handover|turned over|surrender\w*)\b"),
    ("abduction", r"\b(?:abduct\w*|kidnap\w*|taken hostage|(?:seized|took|snatched|herded|carried"
                  r" off) (?:more than |at least |about |some |over )?(?:[\d,]+|dozens|scores"
                  r"|hundreds)(?: of)? (?:people|students|pupils|schoolchildren|children|girls"
                  r"|boys|villagers|passengers|worshippers)|(?:pupils|students|schoolchildren"
                  r"|girls|children) (?:were )?(?:taken|snatched|seized))\b"),
    ("captives", r"\b(?:captiv\w*|hostages?|captured \d+"
                 r"|captured (?:\w+ )?(?:fighters|soldiers|militants|men))\b"),
    ("arrest", r"\b(?:arrest(?:ed|s|ing)?|detain\w*|detention|rounded up|in(?:to)? custody)\b"),
    ("riot", r"\b(?:riot(?:s|ed|ers|ing)?(?! police| gear| squad| control)|loot(?:ed|ing|ers)"
             r"|torched|set (?:fire to|ablaze)|ransack\w*)\b"),
    ("protest", r"\b(?:protest\w*|demonstrat(?:ors?|ions?|ed|ing)|marche[sd]|marching"
                r"|rall(?:y|ies|ied)|sit-ins?|took to the streets|chant\w*|tear ?gas|water cannons?"
                r"|disperse\w* (?:the |a )?(?:crowds?|protesters|demonstrators|supporters)"
                # Shots to scare a crowd off: "scattered them by firing warning shots".
                r"|warning shots)\b"),
    # Ground taken: "captured Baghuz", "seized the town", "fell to the SDF".
    ("capture", r"\b(?:captur(?:ed|es|ing)|seiz(?:ed|es|ing)|recaptur\w*|retook|retaken"
                # "took back the palace", "had taken the city of X"
                r"|t(?:ook|aken|aking) back|wrest(?:ed|ing)? back|(?:took|taken) (?:the )?(?:city"
                r"|town|village|district|airport|base|capital) of"
                r"|overr(?:an|un)|took (?:full )?control|taken control|fell to|fall of"
                # "Liberation" with a capital names a front or an army, not ground taken.
                r"|(?-i:liberat(?:ed|ing|ion)))\b"),
    ("attack", r"\b(?:(?:armed men|militants|attackers|assailants|jihadists|bandits|fighters)"
               r"\b[^.;]{0,40}\bkill(?:ed|ing)\b[^.;]{0,30}\b(?:villagers|civilians"
               r"|worshippers|residents|farmers|passengers|herders)"
               r"|massacre\w*|gunmen|opened fire"
               # Gangs that sweep through or storm a neighbourhood attack the people in it.
               r"|gangs? (?:have |had |has )?(?:swept|swept through|stormed|raided|attacked"
               r"|overran)|gang attacks?|attack(?:ed|s)? (?:on )?(?:the )?"
               r"(?:village|villagers|civilians|worshippers|market|church|mosque|school"
               r"|camp|bus|passengers|farmers|residents))\b"),
    ("accident", r"\b(?:crash(?:ed|es)?|derail\w*|capsiz\w*|collisions?|collided|sank)\b"),
    # "Nine more people lost their lives".
    ("casualties", r"\b(?:killed|wounded|injured|dead|death toll|died|casualties"
                   r"|lost (?:their|his|her) lives)\b"),
    ("speech", r"\b(?:speech|televised|address(?:ed)? (?:the nation|supporters|a rally)"
               r"|sermon)\b"),
    ("offensive", r"\b(?:offensives?|launched|advance[ds]?|assaults?|push(?:ed)? into"
                  r"|counter-?attack\w*)\b"),
    ("battle", r"\b(?:battles?|clash(?:es|ed)?|fighting|fought|fight|firefights?"
               r"|gun ?battles?|skirmish\w*|combat|attack(?:ed|s)?|besieg\w*|sieges?|gunfire"
               r"|exchanges? of fire|heavy fire"
               r"|surrounded by)\b"),
    ("decision", r"\b(?:state of emergency|curfew|decree\w*|sanction(?:s|ed)|imposed|banned"
                 r"|suspended|approved|ordered|appointed|sworn in|resign(?:ed|ation))\b"),
)  # fmt: skip
_CATEGORY_RES = tuple((c, re.compile(p, re.IGNORECASE)) for c, p in CATEGORY_KEYWORDS)
# Verbs of how a place stands, in the present: "the dam holds back the reservoir", "the town
# lies 140km from the capital", "the river runs north to the sea".
_STANDING = re.compile(r"\b(?:holds back|lies|stretches|runs|flows|sits|borders|is home to"
                       r"|is (?:located|situated))\b", re.IGNORECASE)  # fmt: skip
# "the capital", "the Nigerien capital", not a region's or a state's.
_THE_CAPITAL = re.compile(r"\bthe\s+(?!(?:regional|state|provincial|district|county)\s)"
                          r"(?:[\w']+\s+)?capital\b", re.IGNORECASE)  # fmt: skip
# Kinds besides the hazards that a whole report may be about ("Myanmar's army takes power").
_THEMES = frozenset({"election", "coup"})
# A category's patterns by name (evacuation and decision have two entries), for _keyword_at.
_CATEGORY_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {}
for _category, _pattern in _CATEGORY_RES:
    _CATEGORY_PATTERNS[_category] = (*_CATEGORY_PATTERNS.get(_category, ()), _pattern)
_HAZARDS = frozenset(c.name for c in CATEGORY.values() if c.family == "disaster")
# What a toll or a rescue is part of once the article is about a hazard or a vote.
_FOLLOWS_HAZARD = frozenset({"casualties", "statement", "battle", "shelling"})
# What a bare toll ("11 fighters were killed") may be part of.
_VIOLENT = _HAZARDS | frozenset({
    "battle", "offensive", "capture", "airstrike", "shelling", "bombing", "suicide-bombing",
    "attack", "riot", "casualties", "accident", "coup", "protest",
})  # fmt: skip
# A protest and a riot at one place and time are one crowd's happening.
_CROWD = frozenset({"protest", "riot"})
# A state of emergency or curfew its makers declare, at the coup's place and time, is the coup.
_COUP_ORDERS = frozenset({"coup", "decision"})
_FOLLOWS_ELECTION = frozenset({"statement", "decision"})
# An attack on people and the abduction of some of them, at one place and time.
_RAID = frozenset({"attack", "abduction"})
_RESULTS = re.compile(r"\b(?:results?|won|wins?|winner|victory|percent|per cent|%|declared"
                      r"|tally|votes|seats|majority)\b", re.IGNORECASE)  # fmt: skip
# A relative clause, to the next comma: ", where fires had raged for days", "who fled the
# fighting".
# One with no comma before it ("demonstrators who ignored a government curfew") only when it
# ends the sentence: the main verb came before it.
_RELATIVE = re.compile(r"(?:,\s+(?:which|who|whom|whose)|,?\s+where)\b[^,;.]*"
                       r"|\s+(?:who|which|that)\s[^,;.]*[.!?]?\s*$",
                       re.IGNORECASE)  # fmt: skip
# A call or an appeal names the happening it is about: it is words, not that happening.
_CALL = re.compile(r"\b(?:call(?:ed|s|ing)?|urg(?:ed|es|ing)|appeal(?:ed|s|ing)?|press(?:ed|ing)"
                   r"|demand(?:ed|s|ing)?)\b[^.;]{0,60}?\b(?:end|halt|stop|ceasefire|truce|calm"
                   r"|restraint|de-?escalation|talks|dialogue|peace)\b", re.IGNORECASE)  # fmt: skip
# People stuck where they are: a rescue of them is an evacuation.
_STRANDED = re.compile(r"\b(?:stranded|marooned|trapped on|cut off|by (?:helicopter|boat)s?"
                       r"|helicopters?|boats?)\b", re.IGNORECASE)  # fmt: skip
# A hazard named as the cause of what happened to people ("displaced by the drought", "fled
# the floods"): masked when the sentence says what happened to them in other words.
_CAUSE = re.compile(
    r"\b(?:by|from|after|because of|due to|caused by|following|(?P<verb>fled|fleeing|escaping))\s+"
    r"(?:the\s+|a\s+|this\s+|last\s+\w+'s\s+)?(?:\w+\s+){0,2}?(?:droughts?|floods?|flooding"
    r"|floodwaters?|storms?|cyclones?|hurricanes?|typhoons?|earthquakes?|quakes?|wildfires?"
    r"|fires?|landslides?|famine|rains?)\b",
    re.IGNORECASE,
)
# Ground aimed at is not ground taken: "an offensive to capture", "aimed at taking", "in a bid
# to seize" (a coup's "seize power" is read before these are set aside).
_PURPOSE = re.compile(
    r"\b(?:to|at)\s+(?:re)?(?:captur(?:e|ing)|seiz(?:e|ing)|tak(?:e|ing)|retak(?:e|ing))\b",
    re.IGNORECASE,
)
# What a deal or a pause is for, not what happened: "to let the wounded be evacuated".
_ALLOWED = re.compile(r"\bto (?:let|allow|enable|permit) (?:\w+ ){0,4}?(?:be )?evacuat\w*",
                      re.IGNORECASE)  # fmt: skip
# One hazard setting off another: "the storm had brought heavy rain and flooding to X",
# "rains triggered landslides": the hazard the place had is the one brought.
_BROUGHT = re.compile(
    r"\b(?:brought|bringing|brings|bring|caused|causing|triggered|triggering|set off|setting off"
    r"|unleashed|sparked)\s+(?P<effect>(?:\w+\s+){0,4}?(?:flash\s+)?(?:flood(?:s|ing)?|landslides?"
    r"|mudslides?))\b",
    re.IGNORECASE,
)
# Words that someone said, wrote or announced something: what a "statement" needs to be one.
_SPOKEN = re.compile(
    r"\b(?:sa(?:id|ys|y|ying)|told|tell(?:s|ing)?|announc\w*|declar\w*|stat(?:ed|es|ement)"
    r"|add(?:ed|s)|report(?:ed|s|ing)?|confirm\w*|warn\w*|urg\w*|call(?:ed|s|ing)?|wr(?:ote|ites)"
    r"|tweet\w*|post(?:ed|s)?|claim\w*|den(?:ied|ies|y)|accus\w*|blam\w*|promis\w*|pledg\w*"
    r"|vow\w*|insist\w*|reject\w*|stress\w*|sp(?:oke|eak\w*)|quot\w*|brief\w*|interview\w*"
    r"|conferences?|address\w*|appeal\w*|offer\w*|threat\w*|demand\w*|ask(?:ed|s)?|expect\w*"
    r"|estimat\w*|predict\w*|forecast\w*|condemn\w*|denounc\w*|deplor\w*|condolences"
    r"|according to)\b",
    re.IGNORECASE,
)
# Armed or security forces, whose moves are news even in words of no kind.
_FORCES = re.compile(r"\b(?:soldiers|troops|police(?:men)?|(?:security )?forces|guards"
                     r"|militiamen|fighters|militants|tanks|armou?red vehicles)\b",
                     re.IGNORECASE)  # fmt: skip
# A storm of the kind that is named and tracked: what a report's floods are part of.
_NAMED_STORM = re.compile(r"\b(?:cyclones?|hurricanes?|typhoons?|tropical storms?)\b",
                          re.IGNORECASE)  # fmt: skip
# What people undergo because of a hazard, told as its own happening.
_CAUSED = frozenset({"displacement", "evacuation", "return", "convoy"})
# "The UN condemned the attack": a reaction names the happening it is about; it is words.
# "The presidency accused guards of staging a demonstration": an accusation is words too (not
# "police accused of firing", where the act is told).
_REACTION = re.compile(r"\b(?:condemn(?:ed|s|ing)?|denounc(?:ed|es|ing)|deplor(?:ed|es|ing)"
                       r"|offered (?:his|her|their) condolences"
                       # "observers voiced concern over the use of force": words about it.
                       r"|(?:voic|express)(?:ed|es|ing) (?:\w+ ){0,2}?(?:concern|alarm|dismay)"
                       r"|accus(?:ed|es|ing) (?:\w+ ){1,4}?of)\b", re.IGNORECASE)  # fmt: skip
# "if it collapsed, 70,000 people could be affected": what might happen has not.
_HYPOTHETICAL = re.compile(
    r"\bif\b[^.;]{0,200}\b(?:could|would|might)\b"
    r"|\b(?:could|would|might)\b[^.;]{0,200}\bif\b",
    re.IGNORECASE,
)
# "Rain may return on Thursday": a forecast, when the words of the happening follow the modal.
_SPECULATIVE = re.compile(r"\b(?:may|might|could)\s+(?!have\b|had\b)", re.IGNORECASE)
# "A breach would send water down the river": what would follow something that has not
# happened; not a plan someone told ("he said the group would hold celebrations").
_WOULD = re.compile(r"\bwould\s+(?!have\b|had\b)", re.IGNORECASE)
# A list longer than this ("AFAD named the ten provinces: ...") is a roll, not places of one
# happening each.
_MAX_LISTED = 3
# Kinds a sentence that names no place is drafted as on its own, at the place of the happening
# before it: what is done to or by people there (a toll, a strike or words are more of it).
_UNPLACED_KINDS = frozenset({"evacuation", "protest", "riot", "decision", "remains-found",
                             "abduction", "arrest"})  # fmt: skip
# A sentence that says it tells of another place or happening.
_ELSEWHERE = re.compile(r"\W*(?:separately|elsewhere|meanwhile|in (?:a )?(?:separate|another)"
                        r"|in other)\b", re.IGNORECASE)  # fmt: skip
# Where a sentence may hold two happenings: "; ", ", while ", ", and" before a new subject,
# ", where" ("the dead were in Bohol, where the Loboc River overflowed").
_CLAUSE_BREAK = re.compile(r";\s+|,\s+(?:while|whereas|where)\s+|,\s+and\s+(?=(?:a|an|the)\s)",
                           re.IGNORECASE)  # fmt: skip
# A correspondent's sentence: its places are where they report from, not where it happened.
_REPORTING = re.compile(r"^\W*(?:reporting|speaking|writing)\b[^,.;]{0,40}?\bfrom\b",
                        re.IGNORECASE)  # fmt: skip
# Quoted words ("“Today ... is the Second Liberation Day”") say what someone said, not what
# happened: categories are read outside quotes first.
# A quote of a few words ("subjected the city to “heavy bombardment”") is the sentence's own
# words, not someone's speech: only quotes of four words or more are set aside.
_QUOTED = re.compile(r"[“\"](?=(?:[^”\"\s]+\s+){3})[^”\"]*[”\"]")
# The sentence speaks of the present: the article's own date fits it.
_PRESENT = re.compile(
    r"\b(?:is|are|has|have|says|said|told|announced|declared|stated|added|remains?|continues?|"
    r"ends|marks|now|currently)\b",
    re.IGNORECASE,
)
_SAID_IN = re.compile(
    r"\b(?:said|says|told \w+|speaking|spoke|announced|declared)\s+(?:\w+\s+){0,2}"
    r"(?:in|from)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_MEASURED_FROM = re.compile(
    # "100km from the northwestern Nigerian city of Kaduna": a few words may say what it is.
    r"\d\s*(?:km|kilometres|kilometers|miles|mi)\b[^.;]{0,45}?\b(?:of|from)\s+(?:the\s+)?$"
    # Both ends of a length: "a stretch of 450km running from Adana in the west to Diyarbakir".
    r"|\d\s*(?:km|kilometres|kilometers|miles|mi)\b[^.;]{0,30}?\bfrom\s+[^.;]{1,40}?\bto\s+"
    r"(?:the\s+)?$"
    r"|\b(?:reporting|reports|speaking|writing)\s+(?:for\s+[\w ]{1,30}\s+)?from\s+$",
    re.IGNORECASE,
)
# A place in the words that say why: "joined the caravan because of poverty and gang violence
# in Honduras" did not happen in Honduras.
# ("was due to cross into Syria" is a plan, not a cause.)
_CAUSE_BEFORE = re.compile(r"\b(?:because of|owing to|(?<!was )(?<!were )(?<!is )(?<!are )"
                           r"(?<!be )due to)\b[^.;,]{0,60}$", re.IGNORECASE)  # fmt: skip
# A country that did something, not where: "one more deliberate crime by Russia".
_AGENT_BEFORE = re.compile(r"\bby\s+(?:the\s+)?$", re.IGNORECASE)
# "a cyclone taking shape over the sea off the coast of Santa Catarina": the happening is at
# sea, the place a landmark.
_OFF_COAST = re.compile(r"\boff\s+(?:the\s+)?(?:\w+\s+)?(?:coasts?|shores?)\s+of\s+(?:the\s+)?$",
                        re.IGNORECASE)  # fmt: skip
# Where people or units come from, not where it happened: "nationals of France", "the Air
# Force from Coimbatore", "troops from across Kerala".
_ORIGIN_BEFORE = re.compile(
    r"\b(?:nationals|citizens|natives)\s+of\s+(?:the\s+)?$"
    r"|\b(?:teams?|troops|units?|forces?|crews?|volunteers|police|brigades?|battalions?)\s+"
    r"from\s+(?:across\s+|all\s+over\s+)?(?:the\s+)?$",
    re.IGNORECASE,
)
# The most words a _SAID_IN match has: "told reporters later today in the".
_SAID_IN_WORDS = 6
_WORD = re.compile(r"\w+")
# Tiers for picking the event's place: points before areas before countries; within a tier,
# the one nearest the words that say what happened.
_AREA_KINDS = frozenset({"area", "region", "border", "district", "province", "river", "lake",
                         "mountain", "desert", "sea"})  # fmt: skip
# Dates that say when something happened; a duration ("six-year war"), a "since 2014" or a bare
# year is background, never an event's date.
_EVENT_DATE_KINDS = frozenset({"absolute", "weekday", "relative", "month"})
# Between a place and one that holds it, written together: "Khartoum's presidential palace",
# "Jishishan county, Gansu", "Jishishan county in Gansu province", "the X district of Y".
_PART_OF_GAP = re.compile(r"['’]s\s+|,\s*|\s+(?:in|of)\s+(?:the\s+)?", re.IGNORECASE)
# A draft longer than this many days tells a spell (weeks of rain, a wave of attacks).
_SPELL_DAYS = 7
# "since" just before a date.
_SINCE = re.compile(r"\bsince\s+(?:the\s+)?$", re.IGNORECASE)
# A relative date further than this from publication ("in 10 years") is no event's date.
_RELATIVE_REACH_DAYS = 366
# An undated sentence takes the date of a dated event this many sentences back, if any.
_CARRY_SENTENCES = 3
# Two points this close are one spot, whatever their radii ("Khartoum" and its airport).
_SAME_SPOT_M = 8_000
# Between two places of one list: a comma, "and", "or", maybe an article.
_LIST_GAP = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|&)\s*(?:the\s+)?", re.IGNORECASE)
# How a sentence ends: a headline does not.
_SENTENCE_END = re.compile(r"[.!?][\"”’')\]]*\s*$")
# A line of capitals and nothing else: a heading.
_HEADING = re.compile(r"[^a-z]{1,40}")
# Added to a place's tier when it is only where words were said or a landmark.
_ASIDE_TIER = 4
# Happenings made in a capital: drafted at the capital the article names, not the country.
_AT_THE_CAPITAL = frozenset({"coup"})
# A lead sentence placed only in a country, or an area this wide, that holds the dateline's
# place happened at the dateline's place.
_LEAD_SENTENCES = 3
_WIDE_M = 250_000
# A place this wide gives way to a place inside it named by a retelling.
_NARROW_M = 50_000
# A telling dated by the publication day may retell a happening of up to this many days before.
_UNDATED_REACH_DAYS = 14
# Nouns of happenings a date names by itself ("Monday's election", "the vote of Nov. 8").
_DATED_NOUN = (r"(?P<noun>elections?|vote|polls|referendum|run-?off|quake|earthquake|attack"
               r"|bombing|blast|storm|cyclone|hurricane|floods?|protests?|riots?|coup|raid"
               r"|massacre|landslide)")  # fmt: skip
_NOUN_AFTER_DATE = re.compile(r"(?:['’]s?\s+|\s+)(?:\w+\s+)?" + _DATED_NOUN + r"\b",
                              re.IGNORECASE)  # fmt: skip
_NOUN_BEFORE_DATE = re.compile(_DATED_NOUN + r"\s+(?:of|on)\s+(?:the\s+)?$", re.IGNORECASE)
_NOUN_BEFORE_CHARS = 40
# How many earlier drafts a sentence may be a retelling of.
_MERGE_REACH = 32
# Figures by kind -> events.csv columns (the story format's FIGURES).
_COLUMNS = {
    "killed": "killed", "injured": "wounded", "missing": "missing", "displaced": "displaced",
    "arrested": "arrested", "evacuated": "evacuated",
}  # fmt: skip
# Figures by what they count -> events.csv columns, for counts of no kind.
_WHAT_COLUMNS = {
    "militants": "militants", "civilians": "civilians", "people": "people",
    "captives": "captives", "bodies": "remains", "buses": "buses", "vehicles": "vehicles",
    "ambulances": "vehicles", "km2": "area_km2",
}  # fmt: skip


def figure_kind(f: Figure) -> str:
    """What a figure counts, from ``Figure.kind`` or, failing it, the killed/wounded flags."""
    kind = getattr(f, "kind", None)
    if kind is not None:
        return str(kind)
    return "killed" if f.killed else "injured" if f.wounded else ""


@dataclass(frozen=True)
class DraftEvent:
    """A draft event: one happening, from the sentences that tell it (the first one leads)."""

    sentence: int
    date: date
    end_date: date
    # "sentence": its own words; "named": a date naming it ("Monday's vote"); "context": an
    # earlier sentence's; "published": the article's date
    date_basis: str
    date_text: str | None
    place: PlaceMention
    other_places: tuple[PlaceMention, ...]
    category: str
    actors: tuple[str, ...]
    figures: tuple[Figure, ...]
    summary: str
    needs_rewrite: bool = True
    sentences: tuple[int, ...] = ()

    @property
    def family(self) -> str:
        """The category's family (conflict, disaster, politics, movement, statement)."""
        cat = CATEGORY.get(self.category)
        return cat.family if cat else ""

    def counts(self) -> dict[str, int]:
        """Figures by events.csv column (killed, wounded, missing, ...): summed within a
        sentence ("11 fighters and 7 soldiers were killed"), the largest sentence's sum across
        sentences, as a retelling repeats the toll."""
        by_sentence: dict[int, dict[str, int]] = {}
        # Parts ("including four children") and rival counts of one toll are not added.
        for f in primary_figures(list(self.figures)):
            kind = figure_kind(f)
            column = _COLUMNS.get(kind) or (None if kind in ("homes",) else
                                            _WHAT_COLUMNS.get(f.what))  # fmt: skip
            if column is None:
                continue
            sums = by_sentence.setdefault(f.sentence, {})
            sums[column] = sums.get(column, 0) + int(f.value)
        out: dict[str, int] = {}
        for sums in by_sentence.values():
            for column, value in sums.items():
                out[column] = max(out.get(column, 0), value)
        return out

    def disputed(self) -> dict[str, list[int]]:
        """Columns the text gives more than one figure for: every figure given."""
        seen: dict[str, set[int]] = {}
        for f in primary_figures(list(self.figures)):
            column = _COLUMNS.get(figure_kind(f))
            if column is None:
                continue
            values = seen.setdefault(column, set())
            values.add(int(f.value))
            values.update(int(v) for v in getattr(f, "disputed", ()) or ())
        return {c: sorted(v) for c, v in seen.items() if len(v) > 1}

    def to_dict(self) -> dict[str, object]:
        """JSON-ready mapping."""
        return {
            "sentence": self.sentence,
            "sentences": list(self.sentences or (self.sentence,)),
            "date": self.date.isoformat(),
            "end_date": self.end_date.isoformat(),
            "date_basis": self.date_basis,
            "date_text": self.date_text,
            "place": {
                "name": self.place.name,
                "place_id": self.place.place_id,
                "lat": self.place.lat,
                "lon": self.place.lon,
                "radius_m": self.place.radius_m,
                "country": self.place.country,
            },
            "other_places": [p.name for p in self.other_places],
            "category": self.category,
            "family": self.family,
            "acled_event_type": acled_event_type(self.category),
            "acled_sub_event_type": acled_sub_event(self.category, self.actors),
            "actors": list(self.actors),
            "figures": [f.to_dict() for f in self.figures],
            "counts": self.counts(),
            "disputed": self.disputed(),
            "summary": self.summary,
            "needs_rewrite": self.needs_rewrite,
        }


def _match(sentence: str) -> tuple[str, int] | None:
    """The first category whose words the sentence uses, and where they are."""
    for category, pattern in _CATEGORY_RES:
        m = pattern.search(sentence)
        if m:
            return category, m.start()
    return None


def guess_category(sentence: str, theme: str = "") -> str:
    """Event category from keywords, outside quotes first; ``statement`` when none matches.

    ``theme`` is the article's own kind when it is about a hazard or a vote: a toll in an
    earthquake report is the earthquake's, not a war's casualties.
    """
    if _CALL.search(sentence) or _REACTION.search(sentence):
        return "statement"  # "called for an end to the fighting": words about a happening
    outside = _QUOTED.sub(" ", sentence)
    # "Bodies were discovered in a part of Greece where wildfires had been raging": a clause
    # that describes a noun says what the place or people are like; the main clause says what
    # happened, when it has words of a happening of its own.
    main = _RELATIVE.sub(" ", outside)
    if main != outside and _match(main) is not None:
        outside = main
    # A sentence that is all quote, or quote and a speech verb, is words.
    found = _match(outside) or (_match(sentence) if outside == sentence else None)
    category = found[0] if found else "statement"
    if category == "rescue":
        # People brought out of a place they are stuck in are evacuated; dug out of the
        # rubble, they are part of the hazard's story.
        if theme in _HAZARDS and not _STRANDED.search(sentence):
            return theme
        return "evacuation"
    if category == "capture" and found is not None:
        # "launched an offensive to capture the city": ground aimed at, not yet taken.
        aimed = _match(_PURPOSE.sub(" ", outside))
        category = aimed[0] if aimed else "offensive"
    if category == "evacuation" and found is not None:
        # "agreed a pause to let the wounded be evacuated": the pause is what was done.
        allowed = _match(_ALLOWED.sub(" ", outside))
        category = allowed[0] if allowed else category
    if category in _HAZARDS:
        # "the storm brought flooding to Chikwawa": what it set off is what the place had.
        effect = _BROUGHT.search(outside)
        if effect is not None:
            brought = _match(effect.group("effect"))
            if brought is not None and brought[0] in _HAZARDS:
                category = brought[0]
    if category in _HAZARDS:
        # "805,000 people displaced by the drought": the hazard is the cause; what happened to
        # the people is the happening.
        masked = _match(_CAUSE.sub(lambda m: f" {m.group('verb') or ''} ", outside))
        if masked is not None and masked[0] in _CAUSED:
            return masked[0]
    if theme in _HAZARDS and category in _FOLLOWS_HAZARD:
        if category == "statement" and _STANDING.search(outside) and not _SPOKEN.search(outside):
            # "The dam holds back the reservoir, which stretches for 240 km": how things
            # stand, told in the present, is no happening of the hazard.
            return category
        return theme
    if theme == "election" and category in _FOLLOWS_ELECTION and _RESULTS.search(sentence):
        return "election"
    if theme == "coup" and category == "statement" and _FORCES.search(outside):
        # "In Yangon, soldiers and riot police were on standby": in a coup's report, forces
        # that move are the coup's, where nothing else is said of them.
        return "coup"
    return category


def article_theme(sentences: list[Sentence]) -> str:
    """A hazard, "election" or "coup" when the article's lead is about one, else ""."""
    lead = " ".join(s.text for s in sentences[:3])
    best, where = "", len(lead) + 1
    for category, pattern in _CATEGORY_RES:
        if category not in _HAZARDS and category not in _THEMES:
            continue
        m = pattern.search(lead)
        if m and m.start() < where:
            best, where = category, m.start()
    if best in ("flood", "landslide") and _NAMED_STORM.search(lead):
        # "floodwaters brought by Hurricane Maria": the floods are the storm's; its tolls too.
        return "storm"
    return best


def _keyword_at(sentence: Sentence, category: str, places: list[PlaceMention]) -> int:
    """Where in the article the words that gave the category are; for words with none, the
    first place's."""
    found = [m.start() for pattern in _CATEGORY_PATTERNS.get(category, ())
             if (m := pattern.search(sentence.text)) is not None]  # fmt: skip
    if found:
        # Any of the category's entries: "ordered to leave" is as much an evacuation's words as
        # "airlifted" (only the last entry used to count).
        return sentence.start + min(found)
    return min((p.start for p in places if p.start is not None), default=sentence.start)


def _origin_lists(here: list[PlaceMention], s: Sentence) -> list[PlaceMention]:
    """The places listed after one that says where people come from, or that the happening
    is off the coast of: "nationals of the United States, France, Britain and Canada" are
    all origins, not only the first; "off the coast of Rio Grande do Sul and Santa Catarina"
    are both landmarks."""
    ordered = sorted((p for p in here if p.start is not None), key=lambda p: p.start or 0)
    out: list[PlaceMention] = []
    for a, b in pairwise(ordered):
        gap = s.text[(a.end or 0) - s.start : (b.start or 0) - s.start]
        if _LIST_GAP.fullmatch(gap) is None:
            continue
        lead = s.text[max(0, (a.start or 0) - s.start - 60) : (a.start or 0) - s.start]
        if (out and out[-1] is a) or _ORIGIN_BEFORE.search(lead) or _OFF_COAST.search(lead):
            out.append(b)
    return out


def _specificity(
    p: PlaceMention, sentence: Sentence, anchor: int, origin: bool = False
) -> tuple[int, int]:
    if p.kind == "country":
        tier = 3
    elif not p.placed:
        tier = 2
    elif p.kind in _AREA_KINDS or p.source in ("derived", "area"):
        tier = 1
    else:
        tier = 0
    # "the government said in Damascus that ...": where it was said, not where it happened;
    # "1,300km southwest of Beijing": a landmark to measure from.
    before = sentence.text[max(0, (p.start or 0) - sentence.start - 60) : (p.start or 0)
                           - sentence.start]  # fmt: skip
    if (
        _said_in_before(sentence.text, (p.start or 0) - sentence.start)
        or _MEASURED_FROM.search(before)
        or _OFF_COAST.search(before)
        or _CAUSE_BEFORE.search(before)
        or (p.kind == "country" and _AGENT_BEFORE.search(before))
        or origin
        or _ORIGIN_BEFORE.search(before)
        or _REPORTING.match(sentence.text)
    ):
        tier += _ASIDE_TIER
    return (tier, abs((p.start or 0) - anchor))


def _said_in_before(text: str, end: int) -> bool:
    """Whether ``_SAID_IN`` matches ``text[:end]``, searched in its last words only.

    A match is words and the spaces between them, at most ``_SAID_IN_WORDS`` words, and ends
    the text: it starts at one of the last ones. Searching the whole text before every place
    made a long sentence quadratic.
    """
    end = min(max(0, end), len(text))
    start = max(0, end - 128)
    while True:
        runs = [m.start() for m in _WORD.finditer(text, start, end)]
        # The first run may be cut by the window; the last _SAID_IN_WORDS ones are whole.
        if len(runs) > _SAID_IN_WORDS:
            start = runs[-_SAID_IN_WORDS]
            break
        if start == 0:
            break
        start = max(0, end - 4 * (end - start))
    return _SAID_IN.search(text[start:end]) is not None


def _event_dates(dates: list[DateMention], published: date) -> list[DateMention]:
    """The dates that may date a happening (see ``_EVENT_DATE_KINDS``)."""
    out = []
    for d in dates:
        if d.kind not in _EVENT_DATE_KINDS:
            continue
        if d.kind != "absolute" and abs((d.date - published).days) > _RELATIVE_REACH_DAYS:
            continue
        out.append(d)
    return out


def _since(s: Sentence, d: DateMention) -> bool:
    """Whether a date is where something still going on began ("rain has killed 147 people
    since April 27"): the happening lasts from that day to publication."""
    end = max(0, d.start - s.start)
    # The few characters before the date only: searching the whole sentence before each date
    # made a long one quadratic.
    return _SINCE.search(s.text, max(0, end - 16), end) is not None


def _date_for(dates: list[DateMention], anchor: int) -> DateMention | None:
    """The sentence's date nearest the words that say what happened, day-level dates first."""
    if not dates:
        return None

    def key(d: DateMention) -> tuple[int, int]:
        level = {"day": 0, "week": 1, "month": 2}.get(d.granularity, 3)
        return (level, abs(d.start - anchor))

    return min(dates, key=key)


def _by_sentence(items) -> dict[int, list]:
    out: dict[int, list] = {}
    for item in items:
        out.setdefault(item.sentence, []).append(item)
    return out


def _contains(a: PlaceMention, b: PlaceMention) -> bool:
    """Whether place ``b`` lies in (or is) place ``a``."""
    if a.place_id == b.place_id or a.name == b.name:
        return True
    if a.kind == "country" and b.country and b.country in a.country.split("|"):
        return True
    landmark = b.within if b.kind == "building" and b.within is not None else None
    if a.placed and landmark is not None and landmark.lat is not None:
        # "the presidential palace", tied to Brasilia where the text first named it: at that
        # town, though left for the editor to pin.
        km = sphere_km((a.lat, a.lon), (landmark.lat, landmark.lon))  # type: ignore[arg-type]
        return km * 1000 <= max(a.radius_m, _SAME_SPOT_M)
    if not (a.placed and b.placed):
        return bool(a.within and b.country and a.within.country == b.country and not b.placed)
    if a.country and b.country and not set(a.country.split("|")) & set(b.country.split("|")):
        return False  # "Hatay" holds no part of Syria's Aleppo
    if b.radius_m > a.radius_m:
        return False
    km = sphere_km((a.lat, a.lon), (b.lat, b.lon))  # type: ignore[arg-type]
    return km * 1000 <= max(a.radius_m, _SAME_SPOT_M)


def _beside(p: PlaceMention, q: PlaceMention, s: Sentence) -> bool:
    """Whether two places are written as one's part of the other: "Gansu's Jishishan",
    "Jishishan county, Gansu", "Jishishan in Gansu"."""
    if p.start is None or q.start is None or p.end is None or q.end is None:
        return False
    a, b = (p, q) if p.start < q.start else (q, p)
    gap = s.text[(a.end or 0) - s.start : (b.start or 0) - s.start]
    return _PART_OF_GAP.fullmatch(gap) is not None


def _within(p: PlaceMention, q: PlaceMention) -> bool:
    """Whether placed ``p`` lies in placed ``q`` and is narrower than it."""
    return p.placed and q.placed and p.radius_m < q.radius_m and _contains(q, p)


def _same_happening(a: DraftEvent, b: DraftEvent) -> bool:
    """Whether draft ``b`` tells again what ``a`` told: the same kind, days that touch, and
    places that hold one another."""
    kinds = {a.category, b.category}
    if (
        len(kinds) > 1
        and not ("casualties" in kinds and kinds <= _VIOLENT)
        and not (kinds <= _CROWD)
        and kinds != _COUP_ORDERS
        # "Hundreds of those who took part were detained": arrests at a crowd's place and
        # time, told after it, are the end of the crowd's happening.
        and not (a.category in _CROWD and b.category == "arrest")
        # Gunmen who storm a school and carry off its pupils: one attack, one abduction.
        and kinds != _RAID
    ):
        return False
    # A day of its own within a long spell ("on Monday the river rose above its 1941 level"
    # after "rain has killed 147 people since April 27") is a happening of that spell, not the
    # spell told again.
    spell_a, spell_b = _spell(a), _spell(b)
    if spell_a != spell_b and a.date_basis == b.date_basis == "sentence":
        return False
    # A telling dated only by the publication day ("the toll climbed past 15,000") is about a
    # happening of the days before: its date says nothing against the match.
    undated = "published" in (a.date_basis, b.date_basis) and "named" not in (
        a.date_basis,
        b.date_basis,
    )
    apart = b.date > a.end_date + timedelta(days=1) or a.date > b.end_date + timedelta(days=1)
    if apart and not (undated and abs((a.date - b.date).days) <= _UNDATED_REACH_DAYS):
        return False
    return _contains(a.place, b.place) or _contains(b.place, a.place)


def _spell(ev: DraftEvent) -> bool:
    """Whether a draft spans more than ``_SPELL_DAYS``."""
    return (ev.end_date - ev.date).days > _SPELL_DAYS


def _merge(a: DraftEvent, b: DraftEvent) -> DraftEvent:
    """One event from two tellings: the narrower place, the dated telling's days, every figure."""
    # The first telling's place, unless it is wide and the other lies in it: "Turkey" then
    # "Pazarcik district" is Pazarcik; "Pazarcik district" then "Gaziantep" stays Pazarcik.
    wide = not a.place.placed or a.place.radius_m > _NARROW_M
    inside = _contains(a.place, b.place) and not _contains(b.place, a.place)
    narrow = b.place if wide and inside and b.place.placed else a.place
    rank = {"sentence": 0, "named": 0, "context": 1, "published": 2}
    dated = a if rank.get(a.date_basis, 3) <= rank.get(b.date_basis, 3) else b
    others = {p.name: p for p in (*a.other_places, a.place, *b.other_places, b.place)}
    others.pop(narrow.name, None)
    category = a.category if a.category != "casualties" else b.category
    if b.category == "arrest" and a.category in _CROWD:
        category = a.category
    if {a.category, b.category} == _CROWD:
        category = "riot"  # a protest told again with stones and fire was a riot
    if {a.category, b.category} == _COUP_ORDERS:
        category = "coup"
    if {a.category, b.category} == _RAID:
        category = "abduction"  # what the attack was for, and what ACLED codes
    return replace(
        a,
        date=dated.date,
        end_date=dated.end_date,
        date_basis=dated.date_basis,
        date_text=dated.date_text,
        place=narrow,
        other_places=tuple(others.values()),
        category=category,
        actors=tuple(dict.fromkeys((*a.actors, *b.actors))),
        figures=(*a.figures, *b.figures),
        sentences=(*(a.sentences or (a.sentence,)), *(b.sentences or (b.sentence,))),
    )


def _is_headline(ev: DraftEvent) -> bool:
    """Whether the draft is the article's headline: its first line, with no full stop, dated
    by nothing of its own."""
    return (
        ev.sentence == 0
        and ev.date_basis in ("published", "context")
        and not _SENTENCE_END.search(ev.summary)
    )


def fold_headline(events: list[DraftEvent]) -> list[DraftEvent]:
    """The headline's draft folded into the first body draft at a place that holds it or lies
    in it, within ``_UNDATED_REACH_DAYS``, whatever its kind: a headline sums up the story's
    lead happening, which the body tells again with its own date and place."""
    if not events or not _is_headline(events[0]):
        return events
    head = events[0]
    for i, ev in enumerate(events[1:], 1):
        near = abs((ev.date - head.date).days) <= _UNDATED_REACH_DAYS
        if near and (_contains(head.place, ev.place) or _contains(ev.place, head.place)):
            merged = _merge(ev, head)
            # The body's sentence leads (it has the date and place); the tellings in text order.
            merged = replace(merged, sentences=tuple(sorted(merged.sentences)))
            return [*events[1:i], merged, *events[i + 1 :]]
    return events


def _wider(a: DraftEvent, b: DraftEvent) -> bool:
    """Whether ``a``'s place holds ``b``'s and is not the same spot."""
    return _contains(a.place, b.place) and not _contains(b.place, a.place)


def merge_events(events: list[DraftEvent]) -> list[DraftEvent]:
    """One draft per happening: later tellings are folded into the first that they repeat."""
    events = fold_headline(events)
    # Sentences that tell a happening place by place ("three died in Utuado; two in Toa Baja;
    # and in Bayamón a man was killed"): each place's part is not the whole told again.
    places_of: dict[int, set[str]] = {}
    for ev in events:
        places_of.setdefault(ev.sentence, set()).add(ev.place.name)
    parts = {i for i, names in places_of.items() if len(names) > 1}
    out: list[DraftEvent] = []
    for ev in events:
        # Only the latest few: a happening is retold within an article's length, and comparing
        # each with all made a long text quadratic.
        for i in range(len(out) - 1, max(-1, len(out) - 1 - _MERGE_REACH), -1):
            kept = out[i]
            if ev.sentence in parts and kept.sentence != ev.sentence and _wider(kept, ev):
                continue
            if _same_happening(kept, ev):
                out[i] = _merge(kept, ev)
                break
        else:
            out.append(ev)
    return out


def _named_events(
    s: Sentence,
    dates: list[DateMention],
    when: DateMention | None,
    place: PlaceMention,
    theme: str,
) -> list[DraftEvent]:
    """The happenings the sentence's dates name ("Monday's election"), other than the one its
    own date gives, at ``place``."""
    return [
        DraftEvent(
            sentence=s.index, date=d.date, end_date=d.end_date, date_basis="named",
            date_text=d.text, place=place, other_places=(),
            category=guess_category(noun, theme), actors=(), figures=(),
            summary=s.text, sentences=(s.index,),
        )
        for d, noun in _dated_nouns(s, dates)
        if d is not when
    ]  # fmt: skip


def _dated_nouns(s: Sentence, dates: list[DateMention]) -> list[tuple[DateMention, str]]:
    """Happenings a date names by possession or apposition: "Monday's election", "the
    general election of Nov. 8", "the August 9 vote"."""
    out = []
    for d in dates:
        rel_start, rel_end = d.start - s.start, d.end - s.start
        after = _NOUN_AFTER_DATE.match(s.text, rel_end)
        # Only the words just before the date: searching the whole sentence before each date
        # made a long one quadratic ("election of" is at most _NOUN_BEFORE_CHARS long).
        before = _NOUN_BEFORE_DATE.search(s.text, max(0, rel_start - _NOUN_BEFORE_CHARS), rel_start)
        m = after or before
        if m is not None and (after or before.end() == rel_start):  # type: ignore[union-attr]
            out.append((d, m.group("noun")))
    return out


def _happening(category: str, dated: bool) -> bool:
    """Whether a sentence of this category is an event: words alone are one only when dated."""
    return dated or category not in ("statement", "speech")


@dataclass(frozen=True)
class _Article:
    """What each sentence is read with: the article's places, dates, figures and actors by
    sentence (grouped once: filtering every list for every sentence made long articles
    quadratic), its theme, its placed dateline and the capitals it names, by country."""

    published: date
    theme: str
    dateline: PlaceMention | None
    capital: dict[str, PlaceMention]
    places: dict[int, list[PlaceMention]]
    dates: dict[int, list[DateMention]]
    figures: dict[int, list[Figure]]
    actors: dict[int, list[ActorMention]]


# The last dated sentence: (index, first day, last day, words).
_Carried = tuple[int, date, date, str]


def draft_events(
    sentences: list[Sentence],
    published: date,
    places: list[PlaceMention],
    dates: list[DateMention],
    figures: list[Figure],
    actors: list[ActorMention],
) -> list[DraftEvent]:
    """One draft event per happening the article tells, from its sentences with a place.

    Each sentence's category comes from its own words (read in the light of the article's
    theme: a toll in a flood report is the flood's); its date from its own clause, else from
    the dated sentence just before it, else the publication day; its place is the most precise
    one nearest the words that say what happened. Sentences that tell the same happening again
    are merged into the first.
    """
    capitals_named = capitals()
    capital: dict[str, PlaceMention] = {}
    for p in places:
        if p.placed and (p.country, normalize(p.name)) in capitals_named:
            capital.setdefault(p.country, p)
    article = _Article(
        published, article_theme(sentences),
        next((p for p in places if p.via == "dateline" and p.placed), None), capital,
        _by_sentence(places), _by_sentence(dates), _by_sentence(figures), _by_sentence(actors),
    )  # fmt: skip
    events: list[DraftEvent] = []
    carried: _Carried | None = None
    for s in sentences:
        for clause in _clauses(article, s):
            carried = _read_sentence(article, clause, events, carried)
    return merge_events(events)


def _inside(items: list, s: Sentence) -> list:
    """The items (places, dates, figures) whose words lie in ``s``, one clause of a sentence;
    a place of no span (the dateline's) is in every clause."""
    return [x for x in items if x.start is None or s.start <= x.start < s.end]


def _clauses(article: _Article, s: Sentence) -> list[Sentence]:
    """The sentence's clauses that each tell a happening of their own ("patients were moved
    out of hospital in X, and a fire near Y blanketed the capital"): split at a semicolon, a
    ", while" or a ", and" before a new subject, where each side names a place of its own and
    words of a happening; else the whole sentence."""
    places = [p for p in article.places.get(s.index, []) if p.via != "dateline"]
    if len(places) < 2:
        return [s]
    parts, start = [], 0
    for m in _CLAUSE_BREAK.finditer(s.text):
        parts.append((start, m.start()))
        start = m.end()
    parts.append((start, len(s.text)))
    out = []
    for a, b in parts:
        clause = Sentence(s.index, s.start + a, s.start + b, s.text[a:b])
        if out and _inside(places, clause) and _happening(guess_category(clause.text), False):
            last = out[-1]
            if _inside(places, last) and _happening(guess_category(last.text), False):
                out.append(clause)
                continue
        if out:  # no happening of its own: the clause goes with the one before
            last = out.pop()
            clause = Sentence(s.index, last.start, clause.end, s.text[last.start - s.start : b])
        out.append(clause)
    return out


def _read_sentence(
    article: _Article, s: Sentence, events: list[DraftEvent], carried: _Carried | None
) -> _Carried | None:
    """Add the sentence's happenings to ``events`` (or its tolls to the last one); the last
    dated sentence after it."""
    all_dates = _inside(article.dates.get(s.index, []), s)
    usable = [
        replace(d, end_date=max(d.end_date, article.published), granularity="span")
        if _since(s, d) else d
        for d in _event_dates(all_dates, article.published)
    ]  # fmt: skip
    here = [p for p in _inside(article.places.get(s.index, []), s) if p.via != "dateline"]
    if not here:
        here = _the_capital(article, s)
    category = _placed_category(s, here, article.theme)
    figures = _inside(article.figures.get(s.index, []), s)
    anchor = _keyword_at(s, category, here)
    when = _date_for(usable, anchor)
    if when is not None:
        # A plan ("celebrations on Thursday") is no frame for the tolls that follow it.
        past = when.date <= article.published
        carried = (s.index, when.date, when.end_date, when.text) if past else None
    if not here:
        # "... announced that Ruto had won the August 9 election": the vote it names
        # happened where the story is (the last drafted place, else the dateline's).
        home = events[-1].place if events else article.dateline
        if home is not None:
            events += _named_events(s, usable, when, home, article.theme)
            dated = bool(all_dates), bool(usable)
            if _unplaced_happening(s, category, events, *dated, when, anchor):
                days = _event_days(s, category, when, carried, article.published)
                if days is not None:
                    events.append(_event(article, s, days, events[-1].place, [], category))
                    return carried
        # "At least 59 civilians were killed." after a sentence that placed the fighting:
        # the toll is that happening's.
        if when is None or not all_dates:
            _add_tolls(events, s.index, figures)
        return carried
    if _no_happening(s, category, bool(all_dates), bool(usable), when, anchor):
        return carried
    days = _event_days(s, category, when, carried, article.published)
    if days is None:
        return carried
    origins = {id(p) for p in _origin_lists(here, s)}
    # Within a tier, a place written beside another that holds it is the more precise one:
    # "hit Gansu's Jishishan county", "in Jishishan county, Gansu" happened in the county.
    # (Only neighbours in the text can be written together: pairs of all made it quadratic.)
    ordered = sorted((p for p in here if p.start is not None), key=lambda p: p.start or 0)
    inner = {id(p) for a, b in pairwise(ordered) if _beside(a, b, s)
             for p, q in ((a, b), (b, a)) if _within(p, q)}  # fmt: skip
    ranked = []
    for p in here:
        tier, gap = _specificity(p, s, anchor, id(p) in origins)
        ranked.append(((tier, id(p) not in inner, gap), p))
    (tier, _, _), place = min(ranked, key=lambda pair: pair[0])
    if tier >= _ASIDE_TIER:
        # Only where it was said or a landmark to measure from ("1,300km southwest of
        # Beijing"): the sentence tells more of the happening just drafted.
        _add_tolls(events, s.index, figures)
        return carried
    place = _event_place(article, s, category, place, here)
    # "won Monday's election": the vote is a happening of its own, on its own day.
    events += _named_events(s, usable, when, place, article.theme)
    events.append(_event(article, s, days, place, here, category))
    # "floods in Chikwawa and Nsanje districts": the same happening at each place listed
    # with the chosen one (its figures stay with the first: they are the list's together).
    for other in _listed_with(place, here, s):
        events.append(replace(events[-1], place=other, figures=(), other_places=()))
    return carried


def _the_capital(article: _Article, s: Sentence) -> list[PlaceMention]:
    """The capital the report names, when it names one only, as the place of a sentence that
    names no other but "the capital" ("Across the capital on Friday, crowds clashed ...")."""
    m = _THE_CAPITAL.search(s.text)
    if m is None or len(article.capital) != 1:
        return []
    (capital,) = article.capital.values()
    return [replace(capital, text=m.group(), start=s.start + m.start(), end=s.start + m.end(),
                    sentence=s.index, via="anaphor")]  # fmt: skip


def _unplaced_happening(
    s: Sentence,
    category: str,
    events: list[DraftEvent],
    dated: bool,
    usable: bool,
    when: DateMention | None,
    anchor: int,
) -> bool:
    """Whether a sentence that names no place tells a happening of its own, of another kind
    than the one drafted just before it ("helicopters were sent in to pick up people who were
    stranded" after the flood's sentence): drafted at that happening's place."""
    if not events or category not in _UNPLACED_KINDS or category == events[-1].category:
        return False
    if s.index - events[-1].sentence > _CARRY_SENTENCES:
        return False
    if events[-1].category in ("statement", "speech") or _ELSEWHERE.match(s.text):
        # Where words were said is not where things happen; "Separately, ..." is elsewhere.
        return False
    return not _no_happening(s, category, dated, usable, when, anchor)


def _placed_category(s: Sentence, here: list[PlaceMention], theme: str) -> str:
    """The sentence's category, read from its one clause that names places when the others
    name none ("the region has come under shelling, and the army has opened an offensive on
    X": the offensive is what happened at X); else from the whole sentence."""
    category = guess_category(s.text, theme)
    breaks = list(_CLAUSE_BREAK.finditer(s.text))
    if not breaks or not here:
        return category
    bounds = [0, *(m.end() for m in breaks)]
    ends = [*(m.start() for m in breaks), len(s.text)]
    placed = {i for p in here if p.start is not None
              for i, (a, b) in enumerate(zip(bounds, ends, strict=True))
              if s.start + a <= p.start < s.start + b}  # fmt: skip
    if len(placed) != 1:
        return category
    (i,) = placed
    own = guess_category(s.text[bounds[i] : ends[i]], theme)
    return own if _happening(own, False) else category


def _no_happening(
    s: Sentence, category: str, dated: bool, usable: bool, when: DateMention | None, anchor: int
) -> bool:
    """Whether a sentence with a place tells no happening: background, talk, a maybe, a
    heading."""
    if dated and not usable:
        return True  # dated only by a duration or a "since": background, not a happening
    if not _happening(category, when is not None):
        return True
    if category == "statement" and not _SPOKEN.search(s.text) and not _FORCES.search(s.text):
        # "Burhan was at army headquarters on Sunday": no one said anything and no force
        # moved ("troops erected blast walls" is drafted for the editor to name).
        return True
    if when is None and _HYPOTHETICAL.search(s.text):
        return True
    modal = _SPECULATIVE.search(s.text)
    if modal is not None and s.start + modal.start() < anchor:
        return True
    would = _WOULD.search(s.text)
    if (
        would is not None and s.start + would.start() < anchor
        and not _SPOKEN.search(s.text, 0, would.start())
    ):  # fmt: skip
        return True
    return bool(_HEADING.fullmatch(s.text.strip()))  # "MOZAMBIQUE": a heading


def _event_days(
    s: Sentence, category: str, when: DateMention | None, carried: _Carried | None, published: date
) -> tuple[date, date, str, str | None] | None:
    """(first day, last day, basis, words) of the sentence's happening: its own date, the
    last dated sentence's, or the publication day; None when nothing dates it."""
    if when is not None:
        return when.date, when.end_date, "sentence", when.text
    if carried is not None and s.index - carried[0] <= _CARRY_SENTENCES:
        return carried[1], carried[2], "context", carried[3]
    if _PRESENT.search(s.text) or category not in ("statement", "speech"):
        return published, published, "published", None
    return None


def _event_place(
    article: _Article, s: Sentence, category: str, place: PlaceMention, here: list[PlaceMention]
) -> PlaceMention:
    """The happening's place: the most precise one, else the dateline's or the capital."""
    dateline = article.dateline
    if (
        dateline is not None and s.index < _LEAD_SENTENCES
        and (place.kind == "country" or (
            place.radius_m > _WIDE_M and place.kind != "border" and place.source != "derived"
        ))
        and _contains(place, dateline)
        and all(p.placed for p in here)
    ):  # fmt: skip
        # "NIAMEY, Niger — ... in Niger": the lead happens where the report was filed; not
        # when the sentence names a part of the country ("northwestern Puerto Rico") or a
        # place the editor must pin ("landfall on Siargao Island").
        place = dateline
    if category in _AT_THE_CAPITAL and place.kind == "country" and place.country in article.capital:
        # A coup is made in the capital: the one the article names, if it does.
        place = article.capital[place.country]
    return place


def _event(
    article: _Article,
    s: Sentence,
    days: tuple[date, date, str, str | None],
    place: PlaceMention,
    here: list[PlaceMention],
    category: str,
) -> DraftEvent:
    """The sentence's happening at ``place``, with the sentence's other places, actors and
    figures."""
    first, last, basis, date_text = days
    others = tuple(p for p in here if p is not place and p.name != place.name)
    return DraftEvent(
        sentence=s.index,
        date=first,
        end_date=last,
        date_basis=basis,
        date_text=date_text,
        place=place,
        other_places=tuple(dict((p.name, p) for p in others).values()),
        category=category,
        actors=tuple(dict.fromkeys(a.name for a in article.actors.get(s.index, []))),
        figures=tuple(_inside(article.figures.get(s.index, []), s)),
        summary=s.text,
        sentences=(s.index,),
    )


def _add_tolls(events: list[DraftEvent], sentence: int, figures: list[Figure]) -> None:
    """The tolls of a sentence that places nothing of its own added to the happening drafted
    just before it, if it is near enough to be the one the sentence tells more of."""
    tolls = [f for f in figures if figure_kind(f) in _COLUMNS]
    if tolls and events and sentence - events[-1].sentence <= _CARRY_SENTENCES:
        last = events[-1]
        events[-1] = replace(
            last, figures=(*last.figures, *tolls), sentences=(*last.sentences, sentence)
        )


def _listed_with(place: PlaceMention, here: list[PlaceMention], s: Sentence) -> list[PlaceMention]:
    """The places written in one list with ``place`` ("X, Y and Z"), of its precision, in
    text order, itself left out."""
    if place.kind == "country" or place.start is None or not place.placed:
        return []
    ordered = sorted((p for p in here if p.start is not None), key=lambda p: p.start or 0)
    k = next((i for i, p in enumerate(ordered) if p is place), None)
    if k is None:
        return []

    def joined(a: PlaceMention, b: PlaceMention) -> bool:
        gap = s.text[(a.end or 0) - s.start : (b.start or 0) - s.start]
        return _LIST_GAP.fullmatch(gap) is not None

    run = [place]
    i = k
    while i > 0 and joined(ordered[i - 1], ordered[i]):
        i -= 1
        run.insert(0, ordered[i])
    i = k
    while i + 1 < len(ordered) and joined(ordered[i], ordered[i + 1]):
        i += 1
        run.append(ordered[i])
    if len(run) > _MAX_LISTED:
        return []
    tier = place.kind in _AREA_KINDS
    return [
        p for p in run
        if p is not place and p.placed and p.kind != "country" and p.name != place.name
        and (p.kind in _AREA_KINDS) == tier
    ]  # fmt: skip
