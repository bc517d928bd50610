"""Assault on Narvik's briefing: the situation, the aims and the victory levels from the VP
charts (29.0, 25.1), the game's length (1.0, 24.0), the forces from the person's view, a
turn's sequence (6.0) and what the decision before the person means; and the decisions
``wait`` lets pass (the reactions, 9.1)."""

from __future__ import annotations

from typing import Any

from hexwar.core.orders import Order, Pass
from hexwar.games.common.briefing import forces
from hexwar.games.narvik.sequence import PHASES

SITUATION = ["April 1940. German mountain troops and sailors hold Narvik and the railway to Sweden; the "
             "Norwegian 6th Division presses them from the north, and British, French and Polish troops gather "
             "at Harstad to land in the fjords (5.0)."]

#: what each kind of decision asks of the person, with its section
DECISIONS = {
    "base": "designate a Base (19.4): a port your land units hold becomes a source of supply for the Allies, "
            "two at most in the game; pass to keep the choice for later",
    "place": "place a unit the random events give you (23.4, 30.0)",
    "redeploy": "redeploy a British unit the events call away (31.0)",
    "mas": "set how many air points fly maximum air support this turn (18.2)",
    "action": "your action (9.0): move units, assault, sail, embark and land, bombard, exit, or pass; "
              "after it the other side may react, and two passes in a row end the action phase",
    "reaction": "a reaction to the enemy's action (9.1): reveal, move a unit, or pass (wait lets reactions pass)",
    "take": "take the assault's results (15.2): split the losses among your units as FP (6 FP make a step)",
    "retreat": "retreat a unit after the assault (15.3.1)",
    "advance": "advance into the hex the enemy left (15.3)",
    "target": "choose the target of your artillery's fire (16.1.1)",
}


def brief(p: Any) -> list[tuple[str, list[str]]]:
    """The sections of the briefing (see :meth:`hexwar.ui.presenter.Presenter.brief`)."""
    g, d = p.game, p.data
    vp = sorted(g.victory_points.awards.values(), key=lambda a: (a.to, -a.vp))
    aims = [f"victory points (29.0): {a.vp:+d} to the {a.to}: {a.text}" for a in vp[:8]]
    if len(vp) > 8:
        aims.append(f"... and {len(vp) - 8} more causes (rules VP)")
    aims += [f"at the end, Narvik is worth {g.objectives.get(g.narvik, 0)} VP and the other victory hexes "
             f"{', '.join(f'{h} {v}' for h, v in sorted(g.objectives.items()) if h != g.narvik)} VP to their holder"]
    lv = g.victory_levels
    bands = []
    for lo, hi, level, _winner in lv.bands:
        rng = f"{lo} or more" if hi is None else f"{hi} or less" if lo is None else f"{lo} to {hi}"
        bands.append(f"{rng}: {level}")
    aims.append(f"the level (25.1) by the {lv.plus} VP minus the {lv.minus} VP: " + "; ".join(bands))
    length = [f"up to {g.spec.turns} weekly turns (1.0, 24.0); now turn {d.turn}",
              "it may end sooner: a neutrality pact among the random events (8.3), or an Allied evacuation (24.0)"]
    turn = [f"{ph.name} ({ph.rule})" for ph in PHASES.values()]
    ask = g.pending(d)
    now = DECISIONS.get(ask.what, ask.what) if ask is not None else "nothing: the bots are playing"
    return [("The situation", SITUATION), ("Aims and victory", aims), ("Length", length),
            *forces(d, p.session.humans, p.visible, g.board.label),
            ("A turn (6.0)", [", then ".join(turn)]), ("The decision before you", [now])]


def waits(p: Any, legal: list[Order]) -> Order | None:
    """9.1: a reaction needs nothing of the person unless they choose to react: ``wait``
    passes it; every other decision (an action, results to take) stops the wait."""
    ask = p.game.pending(p.data)
    if ask is None or ask.what != "reaction":
        return None
    return next((o for o in legal if isinstance(o, Pass)), None)


def shore(g: Any, d: Any, loc: str) -> str:
    """What a ship finds at a location (20.1-20.3): ``land`` (a beach or port its cargo may
    land at), ``held`` (a shore the Germans hold: an amphibious assault, 20.3.1), ``port``
    (an Allied-held port: cargo disembarks), ``coast`` or ``sea``."""
    from hexwar.games.narvik.phases.naval import contested_target, landing_ok

    if landing_ok(g, d, loc):
        return "land"
    if contested_target(g, d, loc):
        return "held"
    if g.board.is_a(loc, "port"):
        return "port"
    return "coast" if g.board.terrain(loc) == "coast" else "sea"


#: a ship where it stands (``explain <ship>``), by :func:`shore`
HERE = {"land": "here at {} it may land (20.3)",
        "held": "here at {} German units hold the shore: an amphibious assault, from an adjacent hex (20.3.1)",
        "port": "here at {}, a port the Allies hold: disembark, not land (20.2)"}
#: where a sailing leads, in the lists, by :func:`shore`
LEADS = {"land": "to a beach or port where cargo may land (20.3)",
         "held": "to a shore the Germans hold: assault it from the sea next to it (20.3.1)",
         "port": "to a port the Allies hold: cargo disembarks there (20.2)",
         "coast": "along the coast", "sea": "out at sea"}


def ship_lines(p: Any, u: Any) -> list[str]:
    """A ship as ``explain <ship>`` gives it: its cargo and where that cargo may come ashore
    (20.2, 20.3), and why not here: a ship that sails to a hex with no beach and no port
    offers no landing there."""
    from hexwar.games.narvik.state import HARSTAD

    g, d = p.game, p.data
    cargo = d.cargo.get(u.id)
    if not cargo:
        return ["no cargo aboard: it may embark a battalion in a friendly port or Harstad (20.2)"]
    lines = [f"carries {cargo} (20.2)"]
    here = u.loc
    if here == HARSTAD:
        lines.append("in Harstad: disembark here, or sail to a beach or port and land (20.2, 20.3)")
    elif here is not None:
        lines.append(HERE.get(shore(g, d, here), "here at {} there is no beach and no port: no landing (20.3)")
                     .format(g.board.label(here)))
    spots = sorted((x for x in g.board.locations() if (g.board.is_a(x, "beach") or g.board.is_a(x, "port"))
                    and shore(g, d, x) == "land"), key=lambda x: (g.board.distance(here, x) if here in g.board else 0, x))
    if spots:
        lines.append("it may land at: " + ", ".join(g.board.label(x) for x in spots[:8])
                     + (f" and {len(spots) - 8} more" if len(spots) > 8 else "")
                     + "; a ship stops where it lands its cargo (20.1, 20.3)")
    return lines


def leads_to(g: Any, view: Any, order: Any) -> str | None:
    """Where a sail order leads, in words, to group a fleet's hundreds of destinations by
    (20.1-20.3): a shore where cargo may land, one the Germans hold, a port of the Allies',
    the coast, or open sea; None for any other order."""
    from hexwar.games.narvik.orders import NavalMove
    from hexwar.games.narvik.state import HARSTAD

    if not isinstance(order, NavalMove) or not order.path:
        return None
    if order.path[-1] == HARSTAD:
        return "back to Harstad, the Allied base (20.2)"
    return LEADS[shore(g, view, order.path[-1])]


def vp_lines(p: Any) -> list[str]:
    """The victory points by where they came from (29.0), from the log's VP events as the
    person saw them: a line per side, its causes with their points."""
    by: dict[str, dict[str, int]] = {}
    for entry in p.s.log.entries:
        for e in p.session.visible_events(entry.events):
            if e.get("type") == "vp":
                causes = by.setdefault(e["side"], {})
                causes[e["cause"]] = causes.get(e["cause"], 0) + e["vp"]
    out = []
    for side in sorted(by):
        total = p.data.vp.get(side, 0)
        parts = ", ".join(f"{cause} {n}" for cause, n in sorted(by[side].items(), key=lambda kv: -kv[1]))
        out.append(f"{side} {total} VP: {parts} (29.0)")
    return out or ["no victory points scored (29.0)"]
