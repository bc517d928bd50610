"""What one side may see of a game of Assault on Narvik (11.0-11.3, 8.1-8.2).

The other side's face-down counters (units and dummies alike) become anonymous counters:
a placeholder id (``?1``, ``?2`` ... numbered by hex, then in an order that says nothing about
which counter is which), the type ``hidden``, no name, formation, nation or fatigue. Their
fatigue records go, the other side's secret events become "a secret event was rolled", the
Führer order (8.2) and an evacuation the Allies rolled in secret (8.1) are unknown, and the
dice seed is not the game's (nothing can foresee a roll). ``hidden_pool`` lists the kinds
of counter out there face down (unit types, dummies among them), not which is where: the
order of battle and what has been seen of it are public, the placement is not (each entry
is ``type|nation|formation``, what a search bot needs to play a face-down counter out).

Every thing a player or a bot is shown is made from this view: the terminal's status,
explanations and map, the events it prints, and the state the bots choose from.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Collection, Iterable
from operator import is_
from typing import TYPE_CHECKING, Any

from hexwar.core.state import new_unit
from hexwar.games.narvik.charts import HIDDEN
from hexwar.games.narvik.state import ALLIES, GERMANS, SIDES, Ask, NarvikData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

UNKNOWN = "?"


def hidden_ids(d: NarvikData, sides: Collection[str]) -> list[str]:
    """The other side's counters on the map that are face down, in a neutral order."""
    out = [u for side in SIDES if side not in sides for u in d.side_units(side) if u.concealed]
    return [u.id for u in sorted(out, key=lambda u: (u.loc, _neutral(d.seed, u.id)))]


_NEUTRAL: dict[tuple[int, str], str] = {}
#: (placeholder id, side, location) -> the anonymous counter a view shows there (never changed)
_PLACEHOLDERS: dict[tuple[str, str, str | None], Any] = {}
#: (id of a state's units, the hidden ids, their locations) -> (the units, their values, a
#: view's units, its hidden pool)
_VIEW_UNITS: dict[tuple[int, tuple[str, ...], tuple[str | None, ...]], tuple[Any, tuple[Any, ...], dict[str, Any], list[str]]] = {}
#: (id of a setup-event list, its length, sides, placeholder names) -> (the list, the events as seen)
_SETUP: dict[tuple[int, int, frozenset[str], tuple[tuple[str, str], ...]], tuple[list[Any], list[Any]]] = {}
#: (id of a fatigue log, the hidden ids) -> (the log, records read, the last one read, those shown)
_FATIGUE: dict[tuple[int, frozenset[str]], tuple[list[Any], int, Any, list[Any]]] = {}


def _visible_fatigue(log: list[Any], names: dict[str, str]) -> list[Any]:
    """The fatigue records not about a hidden counter (10.0, 11.0). A log only grows, and a
    game asks for a view at every decision: the records already sorted for the same hidden
    counters are kept, and only the new ones read."""
    hidden = frozenset(names)
    kept = _FATIGUE.get((id(log), hidden))  # each side's view of the same log: its own entry
    if kept is not None and kept[0] is log and len(log) >= kept[1] \
            and (kept[1] == 0 or log[kept[1] - 1] is kept[2]):
        shown = kept[3]
        start = kept[1]
    else:
        shown, start = [], 0
    shown.extend(r for r in log[start:] if r.unit not in hidden)
    if len(_FATIGUE) > 64:
        _FATIGUE.clear()
    _FATIGUE[(id(log), hidden)] = (log, len(log), log[-1] if log else None, shown)
    return list(shown)


def _neutral(seed: int, uid: str) -> str:
    """A counter's place in the neutral order (a hash of the game's seed and its id), kept:
    every decision of a game asks again."""
    key = (seed, uid)
    hit = _NEUTRAL.get(key)
    if hit is None:
        if len(_NEUTRAL) > 100_000:
            _NEUTRAL.clear()
        hit = _NEUTRAL[key] = hashlib.sha256(f"hexwar-view:{seed}:{uid}".encode()).hexdigest()
    return hit


def view(g: NarvikRules, d: NarvikData, sides: Collection[str]) -> NarvikData:
    """Return what the player(s) of ``sides`` may see of ``d`` (never ``d`` itself when
    something is hidden; shared parts must not be changed)."""
    sides = frozenset(sides)
    if sides >= {ALLIES, GERMANS}:
        return d
    hidden = hidden_ids(d, sides)
    names = {uid: f"?{i}" for i, uid in enumerate(hidden, 1)}
    v = d.shallow()
    if names:
        v.units, v.hidden_pool = _hidden_units(d, hidden, names)
        v.fatigue_log = _visible_fatigue(d.fatigue_log, names)
    else:  # nothing of the other side is face down: the view shares the state's units and
        v.hidden_pool = []  # fatigue log, as it always shared each visible unit (not to be changed)
    v.seed = 0
    v.setup_events = _visible_setup(d.setup_events, sides, names)
    if GERMANS not in sides:
        v.fuhrer = False  # 8.2: the German secret event is the German's
    if ALLIES not in sides and d.end_secret:
        v.game_end_turn, v.exits_banned = None, False  # 8.1: the Allied secret event is the Allies'
    if d.arrivals and GERMANS not in sides:
        v.arrivals = [UNKNOWN for _ in d.arrivals]
    if d.ask is not None and d.ask.side not in sides and d.ask.unit:
        v.ask = Ask(d.ask.side, d.ask.what, unit=names.get(d.ask.unit, UNKNOWN if d.ask.what == "place" else d.ask.unit))
    if names:  # the counters aboard ships, landed, in a combat ...: by their placeholder too
        v.cargo = {k: names.get(x, x) for k, x in d.cargo.items()}
        v.landed = [names.get(x, x) for x in d.landed]
        if d.combat is not None:
            c = copy.copy(d.combat)
            c.attackers, c.defenders = redact(c.attackers, names), redact(c.defenders, names)
            c.retreat_queue = redact(c.retreat_queue, names)
            v.combat = c
        if d.ask is not None and (d.ask.units or d.ask.options):
            v.ask = Ask(v.ask.side, v.ask.what, unit=v.ask.unit, options=tuple(redact(list(d.ask.options), names)),  # type: ignore[union-attr]
                        count=d.ask.count, points=d.ask.points, units=tuple(redact(list(d.ask.units), names)),
                        length=d.ask.length, fp=d.ask.fp)
    return v


def _hidden_units(d: NarvikData, hidden: list[str], names: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """A view's units (each face-down counter of ``hidden`` by its placeholder, where it is)
    and its ``hidden_pool``. Kept for the same units and hidden counters where they are: the
    state's units change in place between decisions, so the view's dict of them need not."""
    units = d.units
    locs = tuple(units[uid].loc for uid in hidden)
    key = (id(units), tuple(hidden), locs)
    kept = _VIEW_UNITS.get(key)
    if kept is None or kept[0] is not units or len(kept[1]) != len(units) or not all(map(is_, kept[1], units.values())):
        if len(_VIEW_UNITS) > 256:
            _VIEW_UNITS.clear()
        shown = {(names[uid] if uid in names else uid): (_placeholder(names[uid], u.side, u.loc) if uid in names else u)
                 for uid, u in units.items()}
        pool = sorted(f"{units[uid].type}|{units[uid].nation}|{units[uid].formation}" for uid in names)
        kept = _VIEW_UNITS[key] = (units, tuple(units.values()), shown, pool)
    return dict(kept[2]), list(kept[3])


def _placeholder(name: str, side: str, loc: str | None) -> Any:
    """The anonymous counter ``name`` of ``side`` at ``loc`` (11.0): the same object for the
    same three, as a view shares every unit it shows (none is changed)."""
    key = (name, side, loc)
    hit = _PLACEHOLDERS.get(key)
    if hit is None:
        if len(_PLACEHOLDERS) > 10_000:
            _PLACEHOLDERS.clear()
        hit = _PLACEHOLDERS[key] = new_unit(id=name, type=HIDDEN.key, side=side, nation="", formation="", name="", loc=loc,
                                            pool=None, fatigue=0, concealed=True, flags=[])
    return hit


def _visible_setup(events: list[dict[str, Any]], sides: frozenset[str], names: dict[str, str]) -> list[dict[str, Any]]:
    """``visible_events`` of a game's setup events, which never change once the game is set
    up: kept for the same list, sides and placeholders (a game asks at every decision)."""
    key = (id(events), len(events), sides, tuple(names.items()))
    kept = _SETUP.get(key)
    if kept is None or kept[0] is not events:
        if len(_SETUP) > 64:
            _SETUP.clear()
        kept = _SETUP[key] = (events, visible_events(events, sides, names))
    return list(kept[1])


def redact(value: Any, names: dict[str, str]) -> Any:
    """Replace hidden ids in an event field."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [redact(x, names) for x in value]
    return value


def visible_events(events: Iterable[dict[str, Any]], sides: Collection[str], names: dict[str, str]) -> list[dict[str, Any]]:
    """The events as the player(s) of ``sides`` see them: the other side's secret events and
    face-down placements anonymous, hidden counters by their placeholder, their fatigue not
    at all."""
    sides = frozenset(sides)
    out: list[dict[str, Any]] = []
    for e in events:
        t = e.get("type")
        if sides >= {ALLIES, GERMANS}:
            out.append(e)
        elif t == "secret" and e.get("side") not in sides:
            out.append({"type": "secret", "side": e["side"], "result": UNKNOWN, "rule": e.get("rule", "")})
        elif t == "place" and e.get("concealed") and GERMANS not in sides or t == "dummy" and GERMANS not in sides:
            out.append({"type": "place", "unit": UNKNOWN, "hex": e["hex"], "concealed": True, "rule": e.get("rule", "")})
        elif t == "fatigue" and e.get("unit") in names:
            continue  # the FP of a face-down counter are its owner's business
        else:
            out.append({k: redact(v, names) for k, v in e.items()})
    return out


def visible_order(d: NarvikData, order: Any, sides: Collection[str]) -> str:
    """An order as the player(s) of ``sides`` see it (``d``: the state after it): the other
    side's face-down counters by their placeholder, a face-down placement without its unit."""
    text: str = order.text()
    if order.side in sides:
        return text
    if getattr(order, "kind", "") == "place":
        hexes = " and ".join(h for h in (order.hex, order.dummy_hex) if h)
        if order.concealed:
            return f"place {'two face-down counters' if order.dummy_hex else 'a face-down counter'} at {hexes}" if hexes else "place nothing"
    names = {uid: f"?{i}" for i, uid in enumerate(hidden_ids(d, sides), 1)}
    for uid in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w/-]){re.escape(uid)}(?![\w/-])", names[uid], text)
    return text
