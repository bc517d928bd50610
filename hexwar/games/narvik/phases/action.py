"""The Action Phase (6.4, 9.0): the side with the initiative takes one action, the other may
react (9.1); an attack passes the initiative, two passes in a row end the phase (9.2).

What a side may do as an action or a reaction is listed here, one handler per order type:
the handlers themselves live in the phase module of their rules (movement, assault, fire,
naval, air).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Menu, Move, Order, Pass
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import (
    AirStrike,
    ArtilleryInterdiction,
    Bombard,
    Disembark,
    Embark,
    Exit,
    LandAssault,
    Landing,
    NavalMove,
    Reveal,
    ShipFunction,
)
from hexwar.games.narvik.phases import air, assault, fire, movement, naval
from hexwar.games.narvik.phases.air import MAX_AP
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, Ask, NarvikData, other

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules



@dataclass(frozen=True)
class Action:
    """One kind of action (9.0): who may take it, whether it is an attack (it passes the
    initiative, 9.2), and its handler ``(game, data, order, dice, events)``."""

    sides: tuple[str, ...]
    attack: bool
    handler: Callable[..., None]


@lru_cache(maxsize=1)
def actions() -> dict[type, Action]:
    """9.0: the actions, by order type (built on first use: the handlers' modules import this one).

    Disembarking is starred in 9.0 (A11, literal reading): like an attack it passes the
    initiative.
    """
    return {
        Move: Action((ALLIES, GERMANS), False, movement.move),
        Exit: Action((ALLIES, GERMANS), False, movement.exit_map),
        LandAssault: Action((ALLIES, GERMANS), True, assault.land_assault),
        ArtilleryInterdiction: Action((ALLIES,), True, fire.art_interdiction),
        AirStrike: Action((GERMANS,), False, air.strike),
        NavalMove: Action((ALLIES,), False, naval.naval_move),
        Embark: Action((ALLIES,), False, naval.embark),
        Disembark: Action((ALLIES,), True, naval.disembark),
        Landing: Action((ALLIES,), True, naval.landing),
        Bombard: Action((ALLIES,), True, fire.bombard),
        ShipFunction: Action((ALLIES,), False, naval.ship_function),
    }


#: 9.1.1: a reaction is a land movement (an exit is part of one, 22.3), or a German air mission
REACTIONS = (Move, Exit, AirStrike)


def run(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    """Ask the side with the initiative for its next action."""
    g.ask(d, d.initiative, "action")


def after_action(g: NarvikRules, d: NarvikData, actor: str, attack: bool, events: list[Any], reaction: bool) -> None:
    """9.1, 9.2, 18.1: after an action, the other side may react; attacks pass the initiative."""
    if reaction:
        d.ask = None
        d.reacting = False
        if d.pending_pass:
            d.pending_pass = False
            d.initiative = other(d.initiative)
        return
    if actor == ALLIES and (g.switches.ap_bonus_per_action or not d.ap_bonus):
        d.tracks["ap"] = min(MAX_AP, d.tracks["ap"] + 1)  # 18.1: +1 AP after an Allied action
        d.ap_bonus = True
        events.append(E.ApBonus(type="ap_bonus", ap=d.tracks["ap"], rule="18.1"))
    d.passes = 0
    d.pending_pass = attack
    reactor = other(actor)
    d.ask = None
    if has_reaction(g, d, reactor):
        d.reacting = True
        g.ask(d, reactor, "reaction")
    elif d.pending_pass:
        d.pending_pass = False
        d.initiative = other(actor)


def has_reaction(g: NarvikRules, d: NarvikData, side: str) -> bool:
    if side == GERMANS and d.tracks["ap"] > 0 and air.targets(g, d):
        return True
    if side == GERMANS and d.fuhrer:
        return False
    return any(g.may_act(d, u) for u in d.on_map(side))


# --- legal orders -------------------------------------------------------------------------------


def reveal_orders(g: NarvikRules, d: NarvikData, side: str) -> list[Order]:
    if side == ALLIES and not g.switches.allied_concealment:
        return []
    return [Reveal(side, u.id) for u in sorted(d.on_map(side), key=lambda u: u.id) if u.concealed and not g.is_dummy(u)]


def action_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> Menu:
    """9.0: pass, reveal, land moves and exits, assaults, and the Allies' interdictions and
    naval orders or the Germans' air strikes, in that order; the moves deferred (``Menu``):
    the full list reads them all, a kind-first reader only as far as it needs."""
    side = ask.side
    out = Menu(g.listing())
    out.add([Pass(side)], Pass.kind)
    out.add(reveal_orders(g, d, side), Reveal.kind)
    movement.defer_moves(out, g, d, side)
    out.add(assault.assault_orders(g, d, side), LandAssault.kind)
    if side == ALLIES:
        out.add(fire.art_orders(g, d), ArtilleryInterdiction.kind)
        naval.naval_orders(g, d, out)
    else:
        out.add(air.orders(g, d), AirStrike.kind)
    return out


def reaction_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> Menu:
    """9.1: pass, reveal, land moves (deferred, as in ``action_orders``), German air strikes."""
    side = ask.side
    out = Menu(g.listing())
    out.add([Pass(side)], Pass.kind)
    out.add(reveal_orders(g, d, side), Reveal.kind)
    movement.defer_moves(out, g, d, side)
    if side == GERMANS:
        out.add(air.orders(g, d), AirStrike.kind)
    return out


#: 14.0, 15.1, 18.1.2-18.1.3, 20.1-20.3, 22.3: the orders whose every legal choice the list offers only up
#: to a cap; any other choice a player types is checked in full by its handler
TYPED = (Move, LandAssault, Landing, NavalMove, Exit, Embark, Disembark, AirStrike)


def typed_choice(g: NarvikRules, d: NarvikData, order: Order) -> bool:
    """Whether ``order`` is an action or reaction of the side to move that its handler checks."""
    if d.ask is None or d.ask.what not in ("action", "reaction") or order.side != d.ask.side:
        return False
    return isinstance(order, REACTIONS if d.ask.what == "reaction" else TYPED)


# --- handlers -------------------------------------------------------------------------------------


def reveal(g: NarvikRules, d: NarvikData, order: Reveal) -> None:
    u = d.units.get(order.unit)
    if u is None or u.side != order.side or not u.concealed or g.is_dummy(u):
        raise IllegalOrder(f"{order.unit} is not a face-down unit of {order.side}", "11.1, 11.3")
    u.concealed = False


def do_reaction(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    assert d.ask is not None
    side = d.ask.side
    if isinstance(order, Pass):
        after_action(g, d, side, False, events, reaction=True)
        return
    if isinstance(order, Reveal):  # free: the reaction is still to come
        reveal(g, d, order)
        events.append(E.Reveal(type="reveal", unit=order.unit, rule="11.1"))
        return
    act = actions().get(type(order)) if type(order) in REACTIONS else None
    if act is None or side not in act.sides:
        raise IllegalOrder(f"a reaction is a land movement or a German air mission, not {order.kind}", "9.1.1")
    d.ask = None
    act.handler(g, d, order, dice, events)
    after_action(g, d, side, False, events, reaction=True)


def _waiting(d: NarvikData) -> bool:
    """Whether the game waits for a decision: read in a function of its own, so that the
    type checker does not take ``d.ask`` for the None its caller set before the handler ran
    (the compiled engine checks that type when it reads the field)."""
    return d.ask is not None


def do_action(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    assert d.ask is not None
    side = d.ask.side
    d.completed = False
    if isinstance(order, Pass):  # 9.2
        events.append(E.Pass(type="pass", side=side, rule="9.2"))
        d.passes += 1
        d.ask = None
        d.initiative = other(side)
        if d.passes >= 2:
            g.to_phase(d, "end")
        return
    if isinstance(order, Reveal):
        if side != GERMANS and not g.switches.allied_concealment:
            raise IllegalOrder("only German units start face down (11.3 is off)", "11.1")
        reveal(g, d, order)
        events.append(E.Reveal(type="reveal", unit=order.unit, rule="11.1"))
        return
    if isinstance(order, (Embark, Disembark)) and d.units.get(order.ship) and d.units[order.ship].loc == HARSTAD \
            and not (isinstance(order, Embark) and order.path):
        # 20.2: at Harstad loading and unloading never interrupt anything
        actions()[type(order)].handler(g, d, order, dice, events)
        return
    act = actions().get(type(order))
    if act is None or side not in act.sides:
        raise IllegalOrder(f"{side} has no {order.kind} action", "9.0")
    d.ask = None
    act.handler(g, d, order, dice, events)
    if d.combat is not None or _waiting(d) or d.completed:
        d.completed = False
        return  # the reaction comes once the action's own decisions are made
    after_action(g, d, side, act.attack, events, reaction=False)
