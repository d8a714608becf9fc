"""Rules: every option of docs/rules.md, validated, hashable, and round-tripping through JSON."""
from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from typing import Any, Dict, FrozenSet, Mapping, Optional, Tuple, Type, Union

from .cards import Rank, Suit
from ..errors import RulesError, SolverError, quote, whole_number

_CHOICES: Dict[str, Tuple[str, ...]] = {
    "trump_duty": ("amsterdam", "rotterdam"),
    "undertrump": ("forbidden", "must", "free"),
    "roem": ("table", "hand", "none"),
    "stuk": ("trick", "hand", "none"),
    "pit": ("any", "playing", "none"),
    "nat": ("majority", "82", "none"),
    "contract": ("trump", "ledig"),
    "ledig_trump": ("none", "chosen"),
    "dummy_open": ("after_lead", "always", "never"),
}
_MULTIPLIERS = (1, 2, 4, 8)
# The tables: four players, three (one hand is a dummy) or two (each plays a team's hands).
PLAYER_COUNTS = (4, 3, 2)
# The card points (last trick included, before double suits) the playing team needs under
# nat="82" (docs/rules.md, "Pit, nat and the score").
MAKE_THRESHOLD = 82
# The largest amount any bonus, penalty or roem option may take. With every option at its
# top the largest value of any objective stays under 13,000, well inside the engine's
# 16-bit table fields and its infinity of 32,000 (docs/rules.md, "Ranges").
MAX_AMOUNT = 1000
DEFAULT_FOUR_OF_A_KIND = {"A": 100, "K": 100, "Q": 100, "T": 100, "J": 200}


@dataclass(frozen=True, repr=False)
class Rules:
    """The rule options of a round; the defaults are the Amsterdam rules.

    Every option, its values, its default and its range are described in the project's rules
    reference, docs/rules.md. A value outside them raises `RulesError` naming the option.

    >>> Rules(trump_duty="rotterdam", four_of_a_kind={"J": 100, "10": 100}).trump_duty
    'rotterdam'
    >>> Rules(**Rules.rotterdam().to_dict()) == Rules.rotterdam()
    True
    """

    trump_duty: str = "amsterdam"
    undertrump: str = "forbidden"
    roem: str = "table"
    stuk: str = "trick"
    four_of_a_kind: Any = field(default_factory=lambda: dict(DEFAULT_FOUR_OF_A_KIND))
    pit: str = "any"
    pit_bonus: int = 100
    double_suits: Any = frozenset()
    nat: str = "majority"
    multiplier: int = 1
    revoke_penalty: int = 100
    zero_bonus: int = 0
    hand_roem_needs_trick: bool = False
    # The other games of docs/rules.md: "Ledig" and "Tables of three and of two".
    contract: str = "trump"
    ledig_trump: str = "none"
    ledig_bonus: int = 50
    players: int = 4
    dummy_open: str = "after_lead"

    def __post_init__(self) -> None:
        nat: Any = self.nat
        if _is_integer(nat) and operator.index(nat) == MAKE_THRESHOLD:  # as JSON may give it
            object.__setattr__(self, "nat", str(MAKE_THRESHOLD))
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(
                    f"rule {name}={quote(value)} is not allowed: choose one of {', '.join(allowed)}")
        object.__setattr__(self, "four_of_a_kind", _parse_four_of_a_kind(self.four_of_a_kind))
        object.__setattr__(self, "double_suits", _parse_double_suits(self.double_suits))
        for name in ("pit_bonus", "revoke_penalty", "zero_bonus", "ledig_bonus"):
            object.__setattr__(self, name, _amount(name, getattr(self, name)))
        multiplier = whole_number("rule multiplier", self.multiplier, error=RulesError)
        if multiplier not in _MULTIPLIERS:
            raise RulesError(
                f"rule multiplier={quote(self.multiplier)} is not allowed: choose one of 1, 2, 4, 8")
        object.__setattr__(self, "multiplier", multiplier)
        players = whole_number("rule players", self.players, error=RulesError)
        if players not in PLAYER_COUNTS:
            raise RulesError(
                f"rule players={quote(self.players)} is not allowed: choose one of 4, 3, 2")
        object.__setattr__(self, "players", players)
        if not isinstance(self.hand_roem_needs_trick, bool):
            raise RulesError(
                f"rule hand_roem_needs_trick={quote(self.hand_roem_needs_trick)} must be true or false")

    @classmethod
    def amsterdam(cls, **options: Any) -> "Rules":
        """The defaults: partner's trick may be left alone (no trump duty)."""
        return cls(**{"trump_duty": "amsterdam", **options})

    @classmethod
    def rotterdam(cls, **options: Any) -> "Rules":
        """The defaults with trump duty even when partner is winning the trick."""
        return cls(**{"trump_duty": "rotterdam", **options})

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> "Rules":
        """Like `Rules(**options)`, with a clear error for an unknown option name."""
        if not isinstance(options, Mapping):
            raise RulesError(f"rules must be a mapping of option names to values, got {quote(options)}")
        known = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in known]
        if unknown:
            raise RulesError(f"unknown rule option {quote(unknown[0], 40)}: the options are {', '.join(known)}")
        return cls(**options)

    def replace(self, **changes: Any) -> "Rules":
        """These rules with the options `changes` names set, checked as `Rules(...)` checks
        them (an unknown option is a RulesError naming it), like `dataclasses.replace`.

        >>> Rules.rotterdam().replace(pit_bonus=150) == Rules(trump_duty="rotterdam", pit_bonus=150)
        True
        """
        return Rules.from_dict({**{f.name: getattr(self, f.name) for f in fields(self)},
                                **changes})

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; `Rules(**rules.to_dict()) == rules`."""
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "four_of_a_kind":
                value = {Rank(r).letter: v for r, v in value}
            elif f.name == "double_suits":
                value = sorted(Suit(s).letter for s in value)
            out[f.name] = value
        return out

    def __repr__(self) -> str:
        default = Rules().to_dict()
        changed = {k: v for k, v in self.to_dict().items() if v != default[k]}
        return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in changed.items()) + ")"

    def four_of_a_kind_value(self, rank: Rank) -> int:
        """Roem for four cards of `rank` (0 when the rank scores nothing)."""
        values: Dict[Rank, int] = dict(self.four_of_a_kind)
        return values.get(Rank(rank), 0)

    def is_double(self, trump: Suit) -> bool:
        """Whether card points and the last trick count double with this trump."""
        return Suit.parse(trump) in self.double_suits


# Rules(**options) must raise RulesError, not TypeError, for an unknown option name.
_dataclass_init = Rules.__init__


def _init_with_clear_errors(self: Rules, *args: Any, **options: Any) -> None:
    known = [f.name for f in fields(Rules)]
    for name in options:
        if name not in known:
            raise RulesError(f"unknown rule option {quote(name, 40)}: the options are {', '.join(known)}")
    if args:
        raise RulesError("Rules takes its options by name, e.g. Rules(trump_duty='rotterdam')")
    _dataclass_init(self, **options)


Rules.__init__ = _init_with_clear_errors  # type: ignore[method-assign]


def _is_integer(value: Any) -> bool:
    """Whether `value` is a whole number (NumPy's too), not a bool."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def _amount(name: str, value: Any) -> int:
    """`value` as a plain int, when it is an amount a bonus, penalty or roem may take."""
    return whole_number(f"rule {name}={quote(value)}", value, 0, MAX_AMOUNT, RulesError)


def _parse_four_of_a_kind(value: Any) -> Tuple[Tuple[Rank, int], ...]:
    if isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value):
        value = dict(value)   # the pairs a Rules holds
    if not isinstance(value, Mapping):
        raise RulesError(
            f"rule four_of_a_kind={quote(value)} must map ranks to roem, e.g. {DEFAULT_FOUR_OF_A_KIND}")
    parsed = {}
    for rank, points in value.items():
        try:
            # A number names the rank as written (10 is the ten), a NumPy integer too.
            r = Rank.parse(rank if not _is_integer(rank) or isinstance(rank, Rank)
                           else str(operator.index(rank)))
        except SolverError:
            raise RulesError(
                f"rule four_of_a_kind: unknown rank {quote(rank)}: use one of 7 8 9 T (or 10) J Q K A") from None
        parsed[r] = _amount(f"four_of_a_kind[{quote(rank)}]", points)
    # Sorted pairs: hashable, and equal for equal mappings.
    return tuple(sorted((r, v) for r, v in parsed.items() if v))


def _parse_double_suits(value: Any) -> FrozenSet[Suit]:
    if isinstance(value, str):
        value = list(value.replace(",", " ").split()) if len(value) != 1 else [value]
    try:
        return frozenset(Suit.parse(s) for s in value)
    except (TypeError, ValueError) as err:
        raise RulesError(f"rule double_suits={quote(value)}: {err}; give suit letters, e.g. ['S']") from None


# What every function that takes rules accepts, as the command line and game records do: a
# Rules, a preset name ("amsterdam", "rotterdam"), or a mapping of options.
RulesLike = Union[Rules, str, Mapping[str, Any]]


# The defaults, made once: Rules are immutable, and making them costs more than replaying a
# trick (17 us), which every Game given no rules paid.
_DEFAULT_RULES = Rules()


def check_rules(rules: Any, default: Optional[Rules] = None) -> Rules:
    """`rules` as a Rules (`load_rules`: a Rules, a preset name or a mapping of options); for
    None `default`, or the defaults. Anything else is a RulesError, whichever function it was
    given to.

    >>> check_rules(None) == Rules(), check_rules("rotterdam") == Rules.rotterdam()
    (True, True)
    """
    if rules is None:
        return default if default is not None else _DEFAULT_RULES
    if not isinstance(rules, (Rules, str, Mapping)):
        raise RulesError(f"rules must be a Rules (Rules.amsterdam(), say), a preset name "
                         f"(amsterdam, rotterdam) or a dict of options, got {quote(rules)}")
    return load_rules(rules)


RULE_PRESETS = {"amsterdam": Rules.amsterdam, "rotterdam": Rules.rotterdam}


def load_rules(value: RulesLike) -> Rules:
    """Rules from a preset name ("amsterdam", "rotterdam"), a dict of options, or a Rules."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        if value.strip().lower() in RULE_PRESETS:
            return RULE_PRESETS[value.strip().lower()]()
        raise RulesError(f"unknown rules preset {quote(value)}: use amsterdam, rotterdam or a dict "
                         f"of options")
    return Rules.from_dict(value)


def require_four_player_trump(rules: Rules, what: str,
                              error: Type[SolverError] = RulesError) -> Rules:
    """`rules` when they are the trump game at a table of four, which `what` plays; else
    `error` naming the option it does not take (ledig, or a table of three or two).

    >>> require_four_player_trump(Rules(players=3), "the arena")
    Traceback (most recent call last):
    ...
    solver.errors.RulesError: the arena plays the trump game at a table of four: rules players=3 is not taken
    """
    for option, wanted in (("contract", "trump"), ("players", 4)):
        if getattr(rules, option) != wanted:
            raise error(f"{what} plays the trump game at a table of four: rules "
                        f"{option}={getattr(rules, option)!r} is not taken")
    return rules
