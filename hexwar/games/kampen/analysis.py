"""Kampen om Norge on the analysis board (issue 54): battalions per land area and faction,
placed from the tray one at a time and moved between areas; whose round it is and the game
round; for a target area and the attacking battalions picked in the areas next to it, with
the cards each side plays, the dice of each side (halved across a fjord or lake, at most 5),
the cancellations, the chance that the attacker takes the area and the losses, all exact
(4.2); the position's flags: battalions of two hostile factions in one area, battalions at
sea."""

from __future__ import annotations

from typing import Any

from hexwar.board.base import place_name
from hexwar.games.kampen.odds import combat_odds
from hexwar.games.kampen.reach import across_water, moves_from
from hexwar.games.kampen.state import FACTIONS, enemies
from hexwar.ui.analysis import Analyst, Field, Figure, Pick, Piece

#: the card uses a land combat counts (4.2 steps 1-3)
COMBAT_SLOTS = ("attack", "react", "defend")


class KampenAnalyst(Analyst):
    tray_word = "new battalions"
    explain_pieces = False  # battalions are counted per area: explain names the area

    def label(self, area: str) -> str:
        place = self.game.board.place(area)
        return str(place.name) if place else area

    def pieces(self, data: Any) -> list[Piece]:
        out = [Piece(f, f"a {f} battalion", f, None, count=0, kind="battalion") for f in FACTIONS]
        for f in FACTIONS:
            for area, n in sorted(data.bn.get(f, {}).items()):
                if n:
                    out.append(Piece(f"{f}@{area}", f"{n} {f} battalion{'s' if n != 1 else ''} in {self.label(area)}",
                                     f, area, count=n, kind="battalion"))
        return out

    def split(self, piece: str) -> tuple[str, str | None]:
        f, _, area = piece.partition("@")
        if f not in FACTIONS:
            raise ValueError(f"no faction {f!r}; factions: {', '.join(FACTIONS)}")
        return f, area or None

    def place(self, data: Any, piece: str, loc: str | None) -> str | None:
        f, area = self.split(piece)
        if area is not None:
            if not data.bn[f].get(area):
                raise ValueError(f"no {f} battalion in {self.label(area)} to move")
            data.add(f, area, -1)
        if loc is None:
            return None
        data.add(f, loc, 1)
        return f"{f}@{loc}"

    def fields(self, data: Any, piece: str) -> list[Field]:
        f, area = self.split(piece)
        if area is None:
            return []
        return [Field("battalions", f"{f} battalions in {self.label(area)}", "int", data.bn[f].get(area, 0), lo=0, hi=40,
                      rule="2.2")]

    def tracks(self, data: Any) -> list[Field]:
        return [Field("turn", "game round", "int", data.turn, lo=1, hi=99, rule="4"),
                Field("faction", "whose round (the attacker)", "choice", data.faction, choices=FACTIONS, rule="4")]

    def apply(self, data: Any, piece: str | None, key: str, value: Any) -> None:
        if piece is None and key == "faction":
            data.faction = value
        elif piece is not None and key == "battalions":
            f, area = self.split(piece)
            assert area is not None
            data.add(f, area, value - data.bn[f].get(area, 0))
        else:
            super().apply(data, piece, key, value)

    def card_choices(self, data: Any) -> list[tuple[str, str]]:
        out = []
        for cid, spec in sorted(self.game.cards.cards.items(), key=lambda kv: (kv[1].faction, kv[0])):
            uses = [u for u in spec.uses if u.slot in COMBAT_SLOTS]
            if uses:
                dice = max(u.dice for u in uses)
                what = f"+{dice} {'die' if dice == 1 else 'dice'}" if dice else "cancels a card" if any(u.cancels for u in uses) else "no dice"
                out.append((cid, f"{spec.name} ({spec.faction}: {', '.join(u.slot for u in uses)}; {what})"))
        return out

    def figures(self, data: Any, pick: Pick) -> list[Figure]:
        g = self.game
        if not pick.loc or pick.loc not in g.land:
            if pick.piece and "@" in pick.piece:
                f, area = self.split(pick.piece)
                # the game's own moves from there (4.1; on hexes an area step of hexes, issue 72)
                reach = sorted(moves_from(g, data, f, area)) if area is not None and area in g.land else []
                named = [self.label(x) for x in reach if place_name(g.board, x) != x]
                said = ", ".join(named) if len(named) == len(reach) else (
                    f"{len(reach)} places, among them {', '.join(named) or 'no named place'}")
                return [Figure(f"{self.label(area or '')}", [f"{data.bn[f].get(area, 0)} {f} battalions; a round's "
                                                            f"move reaches: {said or 'nowhere'}"],
                               {x: "reach" for x in reach})]
            return []
        target = pick.loc
        groups: dict[str, int] = {}
        att = None
        wet: dict[str, bool] = {}
        for p in pick.attackers:
            f, area = self.split(p)
            ways = moves_from(g, data, f, area).get(target, []) if area is not None and area in g.land else []
            if area is None or not ways:
                raise ValueError(f"{p}: attackers come from where a round's move reaches {self.label(target)} (4.1)")
            att = att or f
            if f != att:
                raise ValueError("the attackers are of one faction (4.2)")
            groups[area] = data.bn[f].get(area, 0)
            wet[area] = across_water(g, ways)
        if att is None:
            return [Figure(f"{self.label(target)}", [f"pick the attacking battalions in the areas next to {self.label(target)}"],
                           {target: "target"})]
        defend = sum(data.bn[e].get(target, 0) for e in enemies(att))
        if not defend:
            return [Figure(f"battle for {self.label(target)}", [f"{self.label(target)} holds no enemy of the {att} (4.1: "
                                                               "a move there is no attack)"], {target: "target"})]
        r = combat_odds(g, 0, defend, attack_cards=pick.cards, defend_cards=pick.defend_cards,
                        groups=[(n, wet[a]) for a, n in sorted(groups.items())])
        lines = [f"{att} attack {self.label(target)} from {', '.join(self.label(a) for a in sorted(groups))}"]
        lines += r["ledger"]
        lines.append(f"dice: attacker {r['attacker_dice']}, defender {r['defender_dice']}")
        lines.append(f"attacker takes the area: {r['attacker_wins']} = {float(r['attacker_wins']) * 100:.1f}% "
                     "(ties go to the defender) [4.2]")
        for k in sorted(set(r["defender_losses"]) | set(r["attacker_losses"])):
            d, a = r["defender_losses"].get(k), r["attacker_losses"].get(k)
            lines.append(f"  {k} lost: defender {float(d) * 100 if d else 0:.1f}%, attacker {float(a) * 100 if a else 0:.1f}%")
        return [Figure(f"battle for {self.label(target)}", lines, {target: "target", **{a: "attacker" for a in groups}})]

    def problems(self, data: Any) -> list[str]:
        g = self.game
        out = []
        for area in sorted({a for f in FACTIONS for a, n in data.bn.get(f, {}).items() if n}):
            if area not in g.land:
                out.append(f"{self.label(area)} is not a land area: battalions stand only on land (2.2)")
        return out
