"""Unmask the Death Eaters: the printed charts, the host-settable board facts, the checks.

Everything here is a pure function of its arguments.  The charts (Loyalty decks and
names to submit) are the rulebook's tables verbatim.  The rulebook says the rest
(Threat Track length, which tokens each Phase holds, which spaces they fill, how many
of a kind each Dark Creature needs, how many rolls are allowed) is *printed on the
board or the Encounter cards* without giving the numbers, so those are options with
documented defaults that the host checks against their own board; see ``Config``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import IllegalAction
from engine.args import whole_number
from engine.messages import Msg, listing, words

_, _n = words("unmask")

ORDER = "order"
DEATH_EATER = "death_eater"
LOYALTY_NAMES = {ORDER: _("Order of the Phoenix"), DEATH_EATER: _("Death Eater")}

BEGINNING = "beginning"
WAR = "war"
PHASE_NAMES = {BEGINNING: _("The Beginning"), WAR: _("The Second Wizarding War")}

EXPELLIARMUS = "expelliarmus"
REVELIO = "revelio"
REDRAW = "redraw"
SPELLS = (EXPELLIARMUS, REVELIO)
TOKEN_NAMES = {EXPELLIARMUS: _("Expelliarmus"), REVELIO: _("Revelio"), REDRAW: _("Discard and Redraw")}
CREATURE_NAMES = {"dementor": _("Dementor"), "inferius": _("Inferius"), "giant": _("Giant")}
"""The Dark Creatures of the box; a creature added by an option is said as the host typed it."""

HOGWARTS = "hogwarts"
MINISTRY = "ministry"
DIAGON_ALLEY = "diagon_alley"
HOGSMEADE = "hogsmeade"
LOCATIONS = (HOGWARTS, MINISTRY, DIAGON_ALLEY, HOGSMEADE)
ROLE_NAMES = {
    HOGWARTS: _("Hogwarts Alumni"),
    MINISTRY: _("Ministry of Magic Employee"),
    DIAGON_ALLEY: _("Diagon Alley Shopkeeper"),
    HOGSMEADE: _("Hogsmeade Resident"),
}
"""The Role cards, one stack of two per Location (a Role *is* its Location's card)."""
LOCATION_NAMES = {
    HOGWARTS: _("Hogwarts"),
    MINISTRY: _("Ministry of Magic"),
    DIAGON_ALLEY: _("Diagon Alley"),
    HOGSMEADE: _("Hogsmeade"),
}
ROLES_PER_LOCATION = 2

TALK_MODES = {
    "basics": _("The Basics: do not discuss the cards in your hand, nor whether you can help."),
    "essentials": _("The Essentials: you may say you can help or can't help, but never name your cards."),
    "works": _("The Works: say anything about your hand, true or not."),
}

TALK_NAMES = {"basics": _("The Basics"), "essentials": _("The Essentials"), "works": _("The Works")}
"""The new-game form's words for each Table Talk level."""

# Rulebook Loyalty chart: players -> (Phase 1 Order, Phase 1 Death Eaters, Phase 2 Order, Phase 2 Death Eaters).
LOYALTY_CHART: dict[int, tuple[int, int, int, int]] = {
    4: (3, 1, 3, 1),
    5: (4, 1, 4, 1),
    6: (5, 1, 5, 1),
    7: (6, 1, 5, 2),
    8: (7, 1, 6, 2),
}

# Rulebook "names to submit" chart: players -> (fewest, most) names the final Leader submits.
NAMES_TO_SUBMIT: dict[int, tuple[int, int]] = {4: (1, 2), 5: (1, 2), 6: (1, 2), 7: (2, 3), 8: (2, 3)}

SIX_PLUS = 6
"""Set-up 3: "For a 4 or 5 player game, remove all cards noted 6+"."""
FOURTH_SPACE = 4
MAX_DICE = 6
HAND = 5


@dataclass(frozen=True)
class Config:
    """The board facts the rulebook leaves to the printed board, each overridable by an option.

    Defaults (our reading; the host should compare them with their board):

    * ``track_length`` 6: Start is space 0, the Snake's final space is 6 (option
      ``track_length``, 5 to 12: the fourth space must come before the last).
    * ``revelio_peeks``: how many Loyalty cards the Revelio holder may look at, by the
      Snake's space; default 2 at spaces 0-2, 1 at 3-4, 0 from 5 on (a calmer track
      rewards the Order).  Option ``revelio_peeks``: one entry (0-2) per space.
    * ``tokens`` (options ``beginning_tokens``, ``war_tokens``): the face-down tokens of
      each Phase, 5 for The Beginning and 6 for The Second Wizarding War as the component
      list says: Beginning = Dementor, Inferius, Expelliarmus and two Discard-and-Redraw;
      War = Dementor, Inferius, Giant, Revelio and two Discard-and-Redraw.  Which kinds
      they are is the board's; what the rulebook prints is checked (:func:`_check_printed`):
      5 and 6 tokens, one Expelliarmus and one Revelio, Revelio in the War, two Beginning
      spaces.
    * ``spaces`` (options ``beginning_spaces``, ``war_spaces``): the board spaces those
      tokens fill.  The Beginning ends when its
      *second* token is placed (the rulebook's Shift rule), so it has two creature
      spaces; Revelio "fulfills an objective in the Second Wizarding War", so War has
      Dementor, Inferius, Giant and Revelio spaces.
    * ``creatures``: dice of a kind to defeat each Dark Creature: Dementor 3, Inferius 3,
      Giant 4.

    List options are JSON lists or, as typed on the host page, comma-separated text
    (``war_tokens=giant, dementor, revelio, redraw``; ``creatures=giant:4, dementor:3``).
    * ``encounter_rolls`` 3 and ``battle_rolls`` 3: rolls allowed (an Encounter card's
      own number is entered with the Encounter and wins over the default).
    * ``talk``: the Table Talk mode, ``basics`` unless chosen.
    """

    track_length: int = 6
    revelio_peeks: tuple[int, ...] = (2, 2, 2, 1, 1, 0, 0)
    tokens: tuple[tuple[str, tuple[str, ...]], ...] = (
        (BEGINNING, ("dementor", "inferius", EXPELLIARMUS, REDRAW, REDRAW)),
        (WAR, ("dementor", "inferius", "giant", REVELIO, REDRAW, REDRAW)),
    )
    spaces: tuple[tuple[str, tuple[str, ...]], ...] = (
        (BEGINNING, ("dementor", "inferius")),
        (WAR, ("dementor", "inferius", "giant", REVELIO)),
    )
    creatures: tuple[tuple[str, int], ...] = (("dementor", 3), ("inferius", 3), ("giant", 4))
    encounter_rolls: int = 3
    battle_rolls: int = 3
    talk: str = "basics"

    def phase_tokens(self, phase: str) -> tuple[str, ...]:
        return dict(self.tokens)[phase]

    def phase_spaces(self, phase: str) -> tuple[str, ...]:
        return dict(self.spaces)[phase]

    def kind_needed(self, creature: str) -> int:
        return dict(self.creatures)[creature]


def _items(raw: Any, what: str) -> list[str]:
    """A list option, as JSON or as the host page's one-line text ``"a, b, c"``."""
    if isinstance(raw, str):
        raw = [part for part in raw.split(",") if part.strip()]
    if not isinstance(raw, list) or any(not isinstance(n, (str, int)) or isinstance(n, bool) for n in raw):
        raise IllegalAction(_("{what} must be a list (or comma-separated text)", what=what))
    return [str(n).strip().lower() for n in raw]


PerPhase = tuple[tuple[str, tuple[str, ...]], ...]


def _per_phase(options: Mapping[str, Any], suffix: str, default: PerPhase) -> PerPhase:
    """``beginning_<suffix>`` and ``war_<suffix>``, each defaulting on its own."""
    chosen = dict(default)
    for phase in (BEGINNING, WAR):
        key = f"{phase}_{suffix}"
        if key in options:
            chosen[phase] = tuple(_items(options[key], key))
    return tuple((phase, chosen[phase]) for phase in (BEGINNING, WAR))


def _creatures(raw: Any, default: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Dice alike per Dark Creature: ``{"giant": 4, ...}`` or the text ``"giant:4, dementor:3"``."""
    if raw is None:
        return default
    if isinstance(raw, str):
        pairs = [item.split(":") for item in _items(raw, "creatures")]
        if any(len(p) != 2 for p in pairs):
            raise IllegalAction(_("creatures is written like 'dementor:3, giant:4'"))
        raw = {name.strip(): count.strip() for name, count in pairs}
    if not isinstance(raw, dict) or not raw:
        raise IllegalAction(_("creatures must map each Dark Creature to 3 or 4 (dice of a kind)"))
    return tuple((str(k).strip().lower(), whole_number(v, 3, 4, f"creatures.{k}")) for k, v in sorted(raw.items()))


def _peeks(raw: Any, length: int, default: tuple[int, ...]) -> tuple[int, ...]:
    """Revelio peeks per Snake space (Start included); the default stretches to any length."""
    if raw is None:
        return tuple(default[min(i, len(default) - 1)] for i in range(length + 1))
    items = _items(raw, "revelio_peeks")
    if len(items) != length + 1:
        raise IllegalAction(_("revelio_peeks needs {count} numbers (one per space, Start included)", count=length + 1))
    return tuple(whole_number(i, 0, 2, "revelio_peeks entries") for i in items)


OPTIONS = (
    "track_length",
    "revelio_peeks",
    "beginning_tokens",
    "war_tokens",
    "beginning_spaces",
    "war_spaces",
    "creatures",
    "encounter_rolls",
    "battle_rolls",
    "talk",
)


def parse_config(options: Mapping[str, Any]) -> Config:
    """Validate the game options into a ``Config``; unknown keys are refused, not ignored."""
    base = Config()
    length = whole_number(options.get("track_length", base.track_length), 5, 12, "track_length")
    talk = options.get("talk", base.talk)
    if talk not in TALK_MODES:
        raise IllegalAction(_("talk must be one of {modes}", modes=listing(TALK_MODES, "or")))
    cfg = Config(
        track_length=length,
        revelio_peeks=_peeks(options.get("revelio_peeks"), length, base.revelio_peeks),
        tokens=_per_phase(options, "tokens", base.tokens),
        spaces=_per_phase(options, "spaces", base.spaces),
        creatures=_creatures(options.get("creatures"), base.creatures),
        encounter_rolls=whole_number(options.get("encounter_rolls", base.encounter_rolls), 1, 6, "encounter_rolls"),
        battle_rolls=whole_number(options.get("battle_rolls", base.battle_rolls), 1, 6, "battle_rolls"),
        talk=talk,
    )
    _check_tokens(cfg)
    return cfg


TOKEN_COUNTS = {BEGINNING: 5, WAR: 6}
"""Components: "5 Beginning Tokens", "6 Second Wizarding War Tokens"."""
BEGINNING_SPACES = 2
"""Rule 12: "As soon as the second token is added to The Beginning, loyalties may shift";
step 11C ends The Beginning when a token fills its final requirement: two spaces."""


def _check_printed(cfg: Config) -> None:
    """Board options may only say what the rulebook leaves to the printed board: a set-up
    that breaks a printed rule is refused, not played wrongly."""
    for phase, count in TOKEN_COUNTS.items():
        if len(cfg.phase_tokens(phase)) != count:
            raise IllegalAction(
                _(
                    "{phase} has {count} tokens in the box, not {given}",
                    phase=PHASE_NAMES[phase],
                    count=count,
                    given=len(cfg.phase_tokens(phase)),
                )
            )
    if len(cfg.phase_spaces(BEGINNING)) != BEGINNING_SPACES:
        raise IllegalAction(_("The Beginning ends when its second token is placed: it has exactly two spaces"))
    every = cfg.phase_tokens(BEGINNING) + cfg.phase_tokens(WAR)
    for spell in SPELLS:
        if every.count(spell) != 1:
            raise IllegalAction(_("the box has exactly one {spell} token", spell=TOKEN_NAMES[spell]))
    if REVELIO not in cfg.phase_tokens(WAR) or REVELIO not in cfg.phase_spaces(WAR):
        raise IllegalAction(
            _("Revelio fulfils an objective in the Second Wizarding War: it is a token and a space of that Phase")
        )


def _check_tokens(cfg: Config) -> None:
    """Every token must be a known kind, and every space fillable by its Phase's tokens."""
    _check_printed(cfg)
    creatures = dict(cfg.creatures)
    for phase in (BEGINNING, WAR):
        tokens = Counter(cfg.phase_tokens(phase))
        for name in tokens:
            if name not in creatures and name not in TOKEN_NAMES:
                raise IllegalAction(
                    _("token {name!r} is neither a spell, a redraw nor a creature in 'creatures'", name=name)
                )
        spaces = Counter(cfg.phase_spaces(phase))
        if not spaces:
            raise IllegalAction(_("{phase} needs at least one space to fill", phase=PHASE_NAMES[phase]))
        for name, count in spaces.items():
            if name == REDRAW or tokens[name] < count:
                raise IllegalAction(
                    _("{phase} has a {name!r} space its tokens cannot fill", phase=PHASE_NAMES[phase], name=name)
                )


def roles_possible(taken: Sequence[str], players: int) -> bool:
    """Whether the Roles recorded so far fit some order of taking, each "from one of the
    stacks with the most remaining Cards" (set-up step 1), in which every seat ends with
    a Role.  Phones record after the fact, in any order, so the box checks the
    distribution, not the order taps arrive in.

    The stacks start equal, so taking from a fullest stack keeps them within one card of
    each other: the orders end exactly where every Location gave ``players // stacks``
    or one more, one more at ``players % stacks`` Locations.  Roles recorded fit iff no
    Location gave more than that and no more Locations than that gave the one more."""
    stacks = len(LOCATIONS)
    even, more = divmod(players, stacks)
    counts = Counter(taken)
    if players > stacks * ROLES_PER_LOCATION or set(counts) - set(LOCATIONS):
        return False
    over = [loc for loc, n in counts.items() if n > even]
    return all(n <= even + 1 for n in counts.values()) and len(over) <= more


def open_stacks(taken: Sequence[str], players: int) -> list[str]:
    """The Locations whose Role a seat may still record, given the Roles recorded."""
    return [loc for loc in LOCATIONS if roles_possible([*taken, loc], players)]


def requirements_met(needs: Sequence[str], locations: Sequence[str]) -> int:
    """How many of an Encounter's Location requirements a group's Locations meet (each
    member counts towards one requirement of their own Location)."""
    have = Counter(locations)
    return sum(min(count, have[loc]) for loc, count in Counter(needs).items())


def unmet(needs: Sequence[str], locations: Sequence[str]) -> list[str]:
    """The requirements a group's Locations leave unmet, one entry per missing player."""
    have = Counter(locations)
    return [loc for loc, count in sorted(Counter(needs).items()) for _ in range(count - min(count, have[loc]))]


def token_name(name: str) -> Msg | str:
    """How a token is said aloud (a creature added by an option, as typed)."""
    return TOKEN_NAMES.get(name) or CREATURE_NAMES.get(name) or name.replace("_", " ").title()


def loyalty_decks(players: int) -> tuple[list[str], list[str]]:
    """The two Loyalty decks for this many players, unshuffled, straight from the chart."""
    order1, de1, order2, de2 = LOYALTY_CHART[players]
    return [ORDER] * order1 + [DEATH_EATER] * de1, [ORDER] * order2 + [DEATH_EATER] * de2


def shifted(current: str, dealt: str) -> str:
    """A Shift in Loyalties for one player: only an Order player dealt a Death Eater turns."""
    return DEATH_EATER if DEATH_EATER in (current, dealt) else ORDER


def most_of_a_kind(values: Sequence[int]) -> int:
    """The size of the largest group of equal dice."""
    return max(Counter(values).values()) if values else 0


def roll_meets(values: Sequence[int], kind: int | None, total: int | None) -> bool:
    """Whether a roll meets a requirement: ``kind`` dice alike, or a ``total`` or more."""
    if kind is not None:
        return most_of_a_kind(values) >= kind
    return total is not None and sum(values) >= total


def dice_to_roll(card_dice: int) -> int:
    """Dice the Leader may roll: the cards' total, capped at six (the FAQ)."""
    return min(MAX_DICE, max(0, card_dice))


def verdict(loyalty: Sequence[str], accused: Sequence[int]) -> str:
    """The victory chart: ``perfect`` (all and only the Death Eaters), ``partial`` (every
    Death Eater and some Order names, as the chart allows) or ``death_eaters``."""
    eaters = {s for s, side in enumerate(loyalty) if side == DEATH_EATER}
    named = set(accused)
    if not eaters <= named:
        return "death_eaters"
    return "perfect" if named == eaters else "partial"


VERDICT_SAY = {
    "perfect": _(
        "Every Death Eater, and only they, stand before the Department of Magical Law Enforcement. "
        "Perfect victory for the Order of the Phoenix!"
    ),
    "partial": _(
        "Every Death Eater was caught, but an Order name was submitted too. "
        "Partial victory for the Order of the Phoenix."
    ),
    "death_eaters": _("A Death Eater slipped away from questioning. The Death Eaters win!"),
    "curse": _("The swapped-in Curse was not resolved: the Death Eaters win!"),
}
