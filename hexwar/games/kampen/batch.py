"""What a batch of Kampen om Norge games records: one CSV row per game, the combats fought
beside their exact odds (4.2), and what each board gives the rules."""

from __future__ import annotations

import json
from typing import Any, Sequence

from hexwar.core.observe import Observer as BaseObserver
from hexwar.games.common import front
from hexwar.games.kampen.state import ALLIES, FACTIONS, GERMANS, NORWAY

SCALE = ("Kampen om Norge: a game round is three card rounds (Germany, Norway, the Allies); the rules give it no "
         "length in days. Scenario 1 ends when the Allies draw their last card (6 cards, hands of 3), so after "
         "about two game rounds.")

BOARD_NOTES = {
    "nordland-hex": "On the hex board one area step of the rules (a round's move, a retreat, an escape, a card's "
                    "range in areas) is the conversion's hex steps, through land free of the enemy; islands such as "
                    "Harstad's are separate from the mainland where the sounds are wider than a hex.",
}


def reach_lines(boards: Sequence[tuple[str, Any]]) -> list[str]:
    """Reach before results (issue 72): each faction's fewest rounds to each objective on each
    board, asked of the game's own movement (``reach.py``), and a warning for every result
    that would come from a force that cannot arrive."""
    from hexwar.games.kampen import reach

    found = [reach.reach(g, name) for name, g in boards]
    lengths = sorted({r.length for r in found})
    out = [f"The fewest rounds in which each faction's nearest battalion can enter each objective by an ordinary "
           f"move (4.1; no card, the enemy standing as at the start), asked of each board's own rules, and how many "
           f"of its battalions can arrive before the scenario ends: it lasts at most "
           f"{' or '.join(map(str, lengths))} game rounds (the deck that ends it, drawn one card a round, 4.4).", ""]
    out += reach.lines(found)
    late = [(r.board, f, o) for r in found for f, o in r.late()]
    few = [(r.board, *x) for r in found for x in r.few()]
    out.append("")
    out += [f"- **Cannot arrive** on {b}: the {f} cannot reach {o} before the game ends: a result there about {o} comes from a "
            f"force that cannot arrive, not from the board." for b, f, o in late]
    out += [f"- **Few arrive** on {b}: only {came} of the {of} battalions of the {f} can reach {o} before the game ends: the rest "
            f"of the force cannot arrive in time." for b, f, o, came, of in few]
    if not late and not few:
        out.append("- On every board each objective can be reached by its attackers before the game ends.")
    return out


class Observer(BaseObserver):
    """After every order: the first game round each objective is held by Norway and the Allies
    alone, and every combat's dice (``"AvD" -> [fought, attacker won]``)."""

    def __init__(self, game: Any):
        super().__init__(game.objective_names())
        self.g = game
        self.combats: dict[str, list[int]] = {}

    def held(self, d: Any, loc: str) -> bool:
        return not d.bn[GERMANS].get(loc) and bool(d.bn[NORWAY].get(loc) or d.bn[ALLIES].get(loc))

    def event(self, ev: dict[str, Any]) -> None:
        if ev["type"] == "combat_roll":
            k = f"{len(ev['attacker'])}v{len(ev['defender'])}"
            n = self.combats.setdefault(k, [0, 0])
            n[0] += 1
            n[1] += int(ev["totals"][0] > ev["totals"][1])

    def fought_at(self, ev: dict[str, Any]) -> str | None:
        return ev["area"] if ev["type"] == "combat_result" else None  # 4.2: a land combat in an area

    def move_length(self, ev: dict[str, Any]) -> int | None:
        return len(ev["via"]) + 1 if ev["type"] == "move" else None  # 4.1: area to area

    def lost_by(self, ev: dict[str, Any]) -> tuple[str, int] | None:
        return (ev["rule"], sum(ev["defenders"].values()) + ev["attackers"]) if ev["type"] == "eliminated" else None

    def row(self, view: Any) -> dict[str, Any]:
        d = view.data
        res = view.result()
        losses = {f: d.losses[f] for f in FACTIONS}
        # victory points are Assault on Narvik's (29.0); Kampen om Norge has none (1.3: cities decide)
        return {**super().row(view), **front.columns(self, self.combats, res, {}, losses, losses[GERMANS], losses[NORWAY] + losses[ALLIES]),
                "cards_used": json.dumps(d.cards_used, sort_keys=True)}


def exact(game: Any, rows: list[dict[str, Any]], min_n: int) -> list[dict[str, Any]]:
    """P(the attacker wins) for each (attack dice, defence dice) fought, by enumeration (4.2)."""
    from hexwar.rules.dicecombat import summary

    pooled: dict[str, list[int]] = {}
    for r in rows:
        for k, v in json.loads(r["combats"]).items():
            p = pooled.setdefault(k, [0, 0])
            p[0] += v[0]
            p[1] += v[1]
    out = []
    for k, (n, w) in pooled.items():
        if n >= min_n:
            a, d = map(int, k.split("v"))
            ex = summary(a, d, 5, 5)["attacker_wins"]
            out.append({"combat": f"{a} dice v {d} dice", "quantity": "attacker wins", "n": n,
                        "hits": w, "exact": ex})
    return out


def board_lines(boards: Sequence[tuple[str, Any]]) -> list[str]:
    """What each board gives the rules: locations, coasts, fjord borders, and which of the
    scenario's area links differ from the first board (computed, so always current)."""
    out = ["| # | board | land locations | with an Allied coast (III-VII) | fjord/lake borders |", "|---|---|---|---|---|"]
    for i, (name, g) in enumerate(boards, 1):
        out.append(f"| {i} | {name} | {len(g.land)} | {sum(g.allied_coast.values())} | {len(g.water) // 2} |")
    base_name, base = boards[0]
    names = list(base.land)
    for name, g in boards[1:]:
        if g.board.kind != "area":
            continue
        common = [a for a in names if a in g.nbrs]
        added = sorted({tuple(sorted((a, b))) for a in common for b in g.nbrs[a] if b in common and b not in base.nbrs[a]})
        lost = sorted({tuple(sorted((a, b))) for a in common for b in base.nbrs[a] if b in common and b not in g.nbrs[a]})
        coast = sorted(a for a in common if g.allied_coast[a] != base.allied_coast[a])
        out.append("")
        out.append(f"On {name}, against {base_name}: borders gained " + (", ".join(f"{a}-{b}" for a, b in added) or "none")
                   + "; borders lost " + (", ".join(f"{a}-{b}" for a, b in lost) or "none")
                   + "; coast changed for " + (", ".join(coast) or "none") + ".")
    return out
