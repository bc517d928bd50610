"""The land games' rule questions answered by the game itself (issue 71): a query never works
a rule out beside the game, it asks the code the game plays with.

- **What a unit may do:** the game puts a copy of the position at the unit's side's decision
  where its units act (``LandRules.acting``: Assault on Narvik's action, 9.0; the skirmish's
  action, 9.0; Konflikt '47's drawn die, 4.3) and lists its legal orders there. A unit's
  moves are the game's listed moves; the MP each one spends is what the game's move charges
  (``LandRules.move_cost``, which the move itself calls); a place the movement chart reaches but the
  game does not list is shown with the game's own refusal of the move (13.2 stacking, 10.1
  the fatigue limit, 22.2 Sweden ...).
- **What a fight gives:** the game's own assault order (``LandRules.assault_order``) is
  fought on a copy, once for every die the fight rolls (air support, 18.1.1, then the CRT's
  die, 15.1): every step the game takes before the die (the 19.2 penalty, defending
  artillery, weather, air, formations) is in it because the game takes it. The chance of
  each result is the share of the dice that give it.
- **Supply:** the side's own rules (``LandRules.supply_answer``).

Every answer is a what-if on a copy: the position itself never changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any, Protocol, Sequence

from hexwar.core.dice import Dice, DiceExhausted, Roll
from hexwar.core.orders import IllegalOrder, Move, Order


@dataclass(frozen=True)
class SupplyAnswer:
    """What a side's supply rules say of one unit now: ``supplied`` (None: the side traces no
    line), whether it takes the unsupplied penalty if attacked now (``penalised``, 19.2),
    why, and the line's path or where it was blocked."""

    supplied: bool | None
    penalised: bool
    reason: str
    path: tuple[str, ...] = ()
    base: str | None = None
    blocked_at: str | None = None


class LandRules(Protocol):
    """What a land game on Assault on Narvik's rules gives its queries, beyond the contract."""

    def acting(self, data: Any, side: str) -> Any:
        """A copy of ``data`` at ``side``'s decision where its units act, nothing pending."""

    def assault_order(self, data: Any, side: str, target: str, units: Sequence[str],
                      support: Sequence[str] = (), ap: int = 0) -> Order:
        """The game's order of an assault on ``target`` by ``units`` (with ``support``, ``ap``)."""

    def supply_answer(self, data: Any, unit: Any) -> SupplyAnswer:
        """What the unit's side's supply rules say of it now."""

    def move_cost(self, data: Any, order: Move) -> Fraction:
        """The MP a move spends, as the game's move charges it."""


def acting(g: Any, data: Any, side: str) -> Any:
    """``g.acting``, or a one-line ``ValueError`` for a game that has no such decision."""
    make = getattr(g, "acting", None)
    if make is None:
        raise ValueError(f"{g.spec.name}: this game cannot be asked what a unit may do")
    return make(data, side)


@dataclass
class UnitMoves:
    """A unit's moves as the game lists them at its side's decision: ``listed`` maps each
    destination to (the order, the MP it spends, as the game charges it); ``refused`` maps
    each place the movement chart reaches but the game does not list to the game's refusal
    (its words and section); ``mp`` is the unit's MP."""

    unit: str
    start: str
    mp: Fraction
    listed: dict[str, tuple[Order, Fraction]] = field(default_factory=dict)
    refused: dict[str, tuple[str, str]] = field(default_factory=dict)


class _NoDice(Dice):
    """Dice for a move made on a copy: a move rolls nothing before it is charged; whatever the
    game draws after it (the next decision's draws) is answered with ones."""

    def roll(self, n: int = 1, purpose: str = "") -> Roll:
        r = Roll(purpose, (1,) * n)
        self.rolls.append(r)
        return r

    def choice(self, options: Sequence[Any], purpose: str = "") -> Any:
        if not options:
            raise ValueError("no options to choose from")
        self.rolls.append(Roll(purpose, (0,), "choice", len(options)))
        return options[0]

    def shuffle(self, items: Any, purpose: str = "") -> None:
        self.rolls.append(Roll(purpose, tuple(range(len(items))), "shuffle", len(items)))


def _tried(g: Any, work: Any, order: Order) -> list[dict[str, Any]]:
    """The events of ``order`` applied by the game on a copy of ``work``; IllegalOrder if refused."""
    return list(g.apply(work.clone(), order, _NoDice(0)))


def refusal_of(g: Any, data: Any, order: Order) -> tuple[str, str] | None:
    """The game's refusal (its words and section) of ``order`` at its side's decision, tried on
    a copy; None when the game carries it out."""
    try:
        _tried(g, acting(g, data, order.side), order)
    except IllegalOrder as e:
        return e.reason, e.rule
    return None


def unit_moves(g: Any, data: Any, uid: str, chart_reach: Any) -> UnitMoves:
    """The unit's moves at its side's decision (``acting``): the game's listed moves, each with
    the MP the game's move charges (``move_cost``); and each place of ``chart_reach`` (the
    movement chart's reach of the unit, ``rules.movement.reach``) that the game does not
    list, with the game's refusal of the move there, tried on a copy (once, when the game
    lists the unit no move at all: what refuses one place refuses them all)."""
    u = data.units[uid]
    work = acting(g, data, u.side)
    wu = work.units[uid]
    out = UnitMoves(uid, wu.loc, Fraction(g.query(work, wu).mp))
    for o in g.legal_orders(work):
        if isinstance(o, Move) and o.unit == uid and len(o.path) > 1:
            dest = o.path[-1]
            spent = Fraction(g.move_cost(work, o))  # as the move charges it (``LandRules.move_cost``)
            if dest not in out.listed or spent < out.listed[dest][1]:
                out.listed[dest] = (o, spent)
    unit_level: tuple[str, str] | None = None
    for dest in chart_reach.destinations():
        if dest in out.listed:
            continue
        if unit_level is not None:  # the unit may not move at all: the same refusal everywhere
            out.refused[dest] = unit_level
            continue
        order = Move(u.side, uid, tuple(chart_reach.path(dest)))
        try:
            _tried(g, work, order)
        except IllegalOrder as e:
            out.refused[dest] = (e.reason, e.rule)
            if not out.listed:  # no move listed at all: what refuses this one refuses every one
                unit_level = (e.reason, e.rule)
            continue
        out.refused[dest] = ("the game accepts this move but does not list it", "")
    return out


class _RollTree(Dice):
    """Dice for a fight on a copy: the draws of ``prefix`` in order; the next draw before the
    fight's CRT die raises :class:`_Need` (the caller tries each of its faces); any draw
    after the CRT die (the game's next decisions) is answered with ones: it cannot change
    the fight."""

    def __init__(self, prefix: Sequence[Roll]):
        super().__init__(0)
        self.prefix = list(prefix)
        self.i = 0
        self.fought = False

    def roll(self, n: int = 1, purpose: str = "") -> Roll:
        if self.i < len(self.prefix):
            r = self.prefix[self.i]
            self.i += 1
            if r.purpose != purpose or len(r.faces) != n:
                raise DiceExhausted(f"the fight rolled {n}D6 for {purpose!r} where {r.purpose!r} was expected")
        elif self.fought:
            r = Roll(purpose, (1,) * n)
        else:
            raise _Need(purpose, n)
        if purpose == "CRT":
            self.fought = True
        self.rolls.append(r)
        return r

    def choice(self, options: Sequence[Any], purpose: str = "") -> Any:
        if not self.fought:
            raise ValueError(f"the fight draws {purpose!r} before its die: its odds cannot be counted")
        self.rolls.append(Roll(purpose, (0,), "choice", len(options)))
        return options[0]

    def shuffle(self, items: Any, purpose: str = "") -> None:
        if not self.fought:
            raise ValueError(f"the fight shuffles {purpose!r} before its die: its odds cannot be counted")
        self.rolls.append(Roll(purpose, tuple(range(len(items))), "shuffle", len(items)))


class _Need(Exception):
    def __init__(self, purpose: str, n: int):
        super().__init__(purpose, n)
        self.purpose, self.n = purpose, n


#: the result of dice on which the game fights no combat (only dummies in the hex, 11.2; a retreat
#: before combat, E1), followed by what the game told instead
NO_FIGHT = "no fight"
#: the events a game's fight is told by: a land assault (15.1) or an attack on the odds CRT (E1)
FIGHTS = ("assault", "attack")
#: what a fight's event says of the column it was fought on, as far as the game says it
COLUMN_KEYS = ("ad", "drm", "attack", "defence", "shift", "column")


@dataclass(frozen=True)
class Fought:
    """One way a fight on a copy went: the dice it rolled, their chance, and the game's own
    assault event (its ``ad``, ``drm``, ``column``, ``result`` and ledger)."""

    rolls: tuple[Roll, ...]
    p: Fraction
    event: dict[str, Any]


def fights(g: Any, data: Any, order: Order) -> list[Fought]:
    """The order fought by the game on a copy of ``data`` (at its side's decision, ``acting``)
    for every die it rolls: each draw before the CRT's die and that die, every face; a
    refusal is the game's ``IllegalOrder``. Dice on which the game fights no combat (only
    dummies in the hex, 11.2; the defenders retreating before combat, E1) give the result
    ``no fight (what the game told)``; an order after which the defender decides first,
    before any die, a one-line ``ValueError``."""
    work = acting(g, data, order.side)
    todo: list[tuple[tuple[Roll, ...], Fraction]] = [((), Fraction(1))]
    out: list[Fought] = []
    while todo:
        prefix, p = todo.pop()
        dice = _RollTree(prefix)
        after = work.clone()
        try:
            events = list(g.apply(after, order, dice))
        except _Need as need:
            share = p / 6 ** need.n
            todo += [((*prefix, Roll(need.purpose, faces)), share) for faces in product(range(1, 7), repeat=need.n)]
            continue
        ev = next((e for e in events if e.get("type") in FIGHTS and e.get("target") == getattr(order, "target", None)),
                  None)
        if ev is None:
            who = g.current_side(after) if not g.result(after).over else ""
            if not events and who and who != order.side:  # the defender decides before the die (E1's retreat before combat)
                raise ValueError(f"{order.text()}: no odds before the {who} decide ({g.decision_rule(after)}): "
                                 "the game asks them first")
            # no fight on these dice: the hex held only dummies (11.2), the defenders retreated before combat (E1)
            said = ", ".join(str(e.get("type")) for e in events) or "nothing"
            ev = {"type": "none", "target": getattr(order, "target", None), "result": f"{NO_FIGHT} ({said})"}
        out.append(Fought(prefix, p, dict(ev)))
    out.sort(key=lambda f: [r.faces for r in f.rolls])
    return out


def outcome_odds(fought: Sequence[Fought]) -> list[tuple[str, Fraction]]:
    """Each result's chance over every die fought, in the CRT's order (the attacker's points,
    then the defender's)."""
    odds: dict[str, Fraction] = {}
    for f in fought:
        odds[f.event["result"]] = odds.get(f.event["result"], Fraction(0)) + f.p
    def order(kv: tuple[str, Fraction]) -> tuple[Any, ...]:
        a, _, b = kv[0].partition("/")
        return (0, int(a), int(b), "") if a.isdigit() and b.isdigit() else (1, 0, 0, kv[0])
    return sorted(odds.items(), key=order)


def columns(fought: Sequence[Fought]) -> list[dict[str, Any]]:
    """The columns the fight was fought on (more than one when a roll before the CRT's die
    changes the attack: air support, 18.1.1): what the game's event says of each (AD and
    DRM, or strengths and shift; the column) and its chance."""
    out: dict[tuple[tuple[str, Any], ...], Fraction] = {}
    for f in fought:
        key = tuple((k, f.event[k]) for k in COLUMN_KEYS if k in f.event)
        if key:
            out[key] = out.get(key, Fraction(0)) + f.p
    return [{**dict(key), "p": p} for key, p in out.items()]


def before_the_die(g: Any, data: Any, order: Order, total: int | None = None) -> tuple[dict[tuple[int, int], Fraction], dict[str, Any]] | None:
    """What a presenter says of an assault before it is made: the chance of each (AD, DRM) it
    is fought at (one, or one per air-support roll, 18.1.1) and the game's event of one fight
    to show its ledger (the first whose rolls before the CRT's die add up to ``total``, else
    the first), from ``fights``; None when the game refuses it or fights no combat there
    (only dummies, 11.2)."""
    try:
        fought = [f for f in fights(g, data, order) if "ad" in f.event]
    except (IllegalOrder, ValueError):
        return None
    if not fought:
        return None
    cols: dict[tuple[int, int], Fraction] = {}
    for f in fought:
        key = (int(f.event["ad"]), int(f.event["drm"]))
        cols[key] = cols.get(key, Fraction(0)) + f.p
    shown = next((f for f in fought if total is not None and f.rolls[:-1] and sum(sum(r.faces) for r in f.rolls[:-1]) == total),
                 fought[0])
    return cols, shown.event


def fight_answer(g: Any, data: Any, order: Order) -> dict[str, Any]:
    """What ``hexwar odds`` says of an order fought at a position (``fights``): the order, the
    columns it is fought at with their chance, each result's exact chance, how many ways the
    dice went, and the ledger of its first fight up to its column (before the die); the
    game's refusal as a one-line ``ValueError`` with its rule. The land games' odds and the
    Europa variant's both answer with this."""
    from hexwar.ui.words import ledger_before_the_die

    try:
        fought = fights(g, data, order)
    except IllegalOrder as e:
        raise ValueError(f"the game refuses {order.text()}: {e}") from None
    first = next((f.event for f in fought if "ledger" in f.event), None)
    led = ledger_before_the_die(first["ledger"]) if first else {"title": fought[0].event["result"], "lines": [], "total": None}
    return {"order": order.text(), "columns": [{**c, "p": str(c["p"])} for c in columns(fought)],
            "outcomes": [{"result": r, "p": str(p), "percent": float(p) * 100} for r, p in outcome_odds(fought)],
            "fights": len(fought), "ledger": led, "first": first or {}}
