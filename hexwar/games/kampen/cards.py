"""Kampen om Norge's cards as the game uses them: one ``Copy`` per physical card (2.4)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hexwar.data.loader import DataError, Library, Problem, _rel
from hexwar.games.kampen.schemas import CardUse, KampenCardsSpec, KampenScenarioSpec
from hexwar.games.kampen.state import FACTIONS


@dataclass(frozen=True)
class Copy:
    """One physical card: its id in the game, its card, symbols and per-copy dice."""

    id: int
    card: str
    type: str
    name: str
    symbols: int
    dice: int | None
    uses: tuple[CardUse, ...]
    april9: bool = False  # a 9 April card (6.2): used only in the 9 April round
    #: slot -> the card's first function there (made from ``uses``; listings ask at every decision)
    slots: dict[str, CardUse] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        slots: dict[str, CardUse] = {}
        for u in self.uses:
            slots.setdefault(u.slot, u)
        object.__setattr__(self, "slots", slots)

    def use(self, slot: str) -> CardUse | None:
        """Return what the card does when played in ``slot`` (None: it cannot be)."""
        return self.slots.get(slot)

    def dice_for(self, u: CardUse) -> int:
        """Return the dice this copy adds for a use (Panzer copies differ, Ex 1 and Ex 3)."""
        return self.dice if (self.dice is not None and u.dice) else u.dice


#: 2.4 timing symbols: when a card's function may be played (green triangle: own round;
#: red square: the opponent's round; green circle: own round, as a reaction), and the phase
WHEN = {
    "attack": "own round, combat step 1 (green triangle, phase 2)",
    "defend": "the opponent's round, combat step 2 (red square, phase 2)",
    "react": "own round, combat step 3, against the defender's cards (green circle, phase 2)",
    "move": "own round, movement 1b (green triangle, phase 1)",
    "sabotage": "the German round, movement 1c, against an attack (red square, phase 1)",
    "counter": "own round, movement 1c, against sabotage (green circle, phase 1)",
    "escape": "the opponent's round, movement 1c, out of an area under attack (red square, phase 1)",
    "evacuate": "combat step 6, own or the opponent's round (green circle and red square, phase 2)",
    "reinforce": "own round, reinforcement (green triangle, phase 3)",
    "submarine": "the opponent's round, reinforcement (red square, phase 3)",
    "divert": "the opponent's round, movement 1b, against a paratroop landing (red square, phase 1)",
    "sea_attack": "own round, sea combat step 1 (advanced, 8.2)",
    "sea_defend": "the opponent's round, sea combat step 2 (advanced, 8.2)",
    "sea_react": "own round, sea combat step 3, against the defender's cards (advanced, 8.2)",
    "recon": "9 April, placement, before placing one's ships (orange triangle, 7.0)",
    "rescue": "9 April, placement (7.0)",
    "deceive": "9 April, after the Allies have placed their ships (7.0)",
    "redeploy": "9 April, after all ships are placed (7.0)",
    "smoke": "9 April, interception, when the enemy tries to intercept (orange square, 7.1)",
    "sailors": "9 April, after a sea combat that sank German ships (7.2a)",
    "mines": "9 April, against the German landings from one sea area (7.2)",
    "fort": "9 April, as Germany lands in a point city (orange square, 7.2)",
}


#: 2.4 the timing symbols as drawn on a card: (glyph, colour, words), by the words of ``WHEN``
SYMBOLS = {"green triangle": ("\u25b2", "#1a7f37", "green triangle: in your own round"),
           "red square": ("\u25a0", "#c0392b", "red square: in the opponent's round"),
           "green circle": ("\u25cf", "#1a7f37", "green circle: in your own round, as a reaction")}


def timing_marks(card: Any) -> list[tuple[str, str, str]]:
    """The timing symbols a card shows (2.4), one per kind, in the order of its functions."""
    out: list[tuple[str, str, str]] = []
    for u in card.uses:
        for words, mark in SYMBOLS.items():
            if words in WHEN.get(u.slot, "") and mark not in out:
                out.append(mark)
    return out


def use_text(u: CardUse, names: dict[str, str] | None = None, dice: str = "") -> str:
    """What one function of a card does, in words (the keys of oob/kampen-cards.yaml);
    ``dice`` says the dice where copies differ (Panzer: "1 or 2"), ``names`` the cards of a type."""
    out = []
    if u.dice:
        count = dice or str(u.dice)
        out.append(f"+{count} combat {'die' if count == '1' else 'dice'} (not capped at 5, not halved across a fjord)")
    if u.slot == "submarine":
        out.append("the opponent places 1 battalion fewer this reinforcement phase")
    if u.slot == "divert":
        out.append("the paratroop battalion lands in an adjacent area of your choice instead")
    if u.cancels:
        out.append("cancels " + ", ".join((names or {}).get(t, t) for t in u.cancels))
    if u.rapid:
        out.append(f"up to {u.rapid[0]} battalions from one area move up to {u.rapid[1]} areas together")
    if u.rail:
        out.append(f"up to {u.rail[0]} battalions move up to {u.rail[1]} friendly or empty areas by rail")
    if u.paradrop:
        out.append(f"{u.paradrop} new battalion lands in an area within German air range")
    if u.airlift:
        out.append(f"up to {u.airlift} battalion(s) fly from a German-held airfield to another")
    if u.invasion:
        out.append("the Allies land this phase's reinforcements from the sea, attacking from the coast")
    if u.returns_group:
        out.append("the attacking battalions from one area go back where they came from"
                   + (" (a land border only)" if u.land_only else ""))
    if u.flee:
        out.append("the battalions in an area under attack flee to an adjacent area")
    if u.saves:
        out.append(f"{u.saves} eliminated battalion is saved to another coastal area")
    if u.anywhere:
        out.append("may be played where its owner has no battalions (4.2)")
    if u.slot.startswith("sea_") and u.faces:
        out.append(f"a die that sinks an enemy ship in the combat on {_faces(u.faces)}")
    if u.slot == "recon":
        out.append(f"one die per German ship in a sea area: each {_faces(u.faces)} shows you one of them, drawn at random")
    if u.ships:
        out.append(f"{u.ships} more of the Allied ships set aside join the 9 April round")
    if u.seas:
        out.append(f"one German stack moves {u.seas} sea area")
    if u.slot == "redeploy" and u.rapid:
        out.append(f"up to {u.rapid[0]} Norwegian battalions move one land area")
    if u.slot == "smoke":
        out.append("an enemy interception attempt fails before its dice are rolled")
    if u.sailors:
        out.append(f"{u.sailors} battalion of sailors lands on that sea's coast")
    if u.slot == "attack" and u.faces:
        out.append(f"roll a die: on {_faces(u.faces)} the Norwegian defenders withdraw without a dice combat")
    if u.slot == "mines":
        out.append(f"one ship landing from a sea area hits a mine on {_faces(u.faces)}")
    if u.slot == "fort":
        out.append(f"as Germany lands in a point city: on {_faces(u.faces)} a landing ship sinks and the others land "
                   f"elsewhere; on {_faces(u.faces2)} all land elsewhere on that sea")
    if u.needs == "sea_air":
        out.append("at sea only where Germany holds an airfield on that sea's coast (5.1)")
    if u.ships_needed:
        out.append({"carrier": "advanced game: an Allied carrier off the area, or an Allied-held airfield in range (5.2)",
                    "gunship": "advanced game: an Allied battleship or heavy cruiser off the coast (5.2)",
                    "ship": "advanced game: an Allied ship off the coast (5.2)"}[u.ships_needed])
    if u.needs == "air":
        out.append("only within German air range (2.3)")
    if u.needs == "coast":
        out.append("only in an area on a coast of sea areas III-VII, never on I or II (2.3)")
    return "; ".join(out) or "no effect of its own"


def _faces(faces: list[int]) -> str:
    return "-".join(map(str, (faces[0], faces[-1]))) if len(faces) > 1 and faces == list(range(faces[0], faces[-1] + 1)) \
        else ", ".join(map(str, faces))


def card_text(cards: KampenCardsSpec, copies: list[Copy], key: str) -> str | None:
    """A card's face as a player reads it: name, when each function is played, what it does,
    the copies in this game's decks and where each value comes from; None if no such card."""
    want = _fold(key)
    hits = [k for k, c in cards.cards.items() if want in (_fold(k), _fold(c.name), _fold(c.gloss))]
    if not hits and len(want) >= 3:  # the start of a name will do ("bloff", "kyst")
        hits = [k for k, c in cards.cards.items() if any(x.startswith(want) for x in (_fold(k), _fold(c.name), _fold(c.gloss)))]
    if not hits:
        return None
    lines = []
    for k in hits:
        c = cards.cards[k]
        mine = [cp for cp in copies if cp.card == k]
        lines.append(f"{c.name} ({c.gloss}), {c.faction} card, type {c.type}"
                     + (" (Bombefly and Jagerbomber are one type, 4.2 step 1)" if c.type == "air" else ""))
        names = {t: " or ".join(sorted({x.name for x in cards.cards.values() if x.type == t}))
                 for u in c.uses for t in u.cancels}
        per_copy = sorted({cp.dice for cp in mine if cp.dice is not None})
        dice = " or ".join(map(str, per_copy)) + " (per copy)" if len(per_copy) > 1 else ""
        for u in c.uses:
            lines.append(f"  {WHEN[u.slot]}: {use_text(u, names, dice)}  [{u.source}]")
        if not c.uses:
            lines.append("  no function: it is cashed for its reinforcement symbols (4.3)")
        if mine:
            kinds = Counter((cp.symbols, cp.dice) for cp in mine)
            lines.append("  in this game: " + ", ".join(
                f"{n} {'copy' if n == 1 else 'copies'} with {sym} reinforcement symbol{'' if sym == 1 else 's'}" + (f" and {dv} {'die' if dv == 1 else 'dice'}" if dv is not None else "")
                for (sym, dv), n in sorted(kinds.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0))))
        else:
            lines.append("  not in this scenario's decks")
    return "\n".join(lines)


def _fold(s: str) -> str:
    """Compare card names without case, spaces or Norwegian/German letters (ø, å, æ, ä)."""
    s = s.lower().replace("ø", "o").replace("å", "a").replace("æ", "ae").replace("ä", "a")
    return "".join(ch for ch in s if ch.isalnum())


def build_copies(cards: KampenCardsSpec, spec: KampenScenarioSpec, library: Library,
                 scenario: str) -> tuple[list[Copy], dict[str, list[int]]]:
    """Return every copy in the game and each faction's deck (copy ids), as the scenario deals them."""
    copies: list[Copy] = []
    decks: dict[str, list[int]] = {}
    full = {f: [(c.card, c.count, c.symbols, c.dice) for c in cards.decks[f].copies] for f in FACTIONS}
    for f in FACTIONS:
        if spec.decks == "full":
            wanted = full[f]
        else:
            wanted = []
            for card, count in spec.decks.get(f, {}).items():
                if card not in cards.cards:
                    raise DataError([Problem(_rel(library.path("oob", f"kampen/{scenario}")), f"decks.{f}.{card}",
                                             "not a card of oob/kampen-cards.yaml (S1)")])
                proto = next(((s, dv) for deck in full.values() for (c, _, s, dv) in deck if c == card), (1, None))
                wanted.append((card, count, proto[0], proto[1]))
        ids = []
        for card, count, symbols, dice in wanted:
            cs = cards.cards[card]
            for _ in range(count):
                cid = len(copies)
                copies.append(Copy(cid, card, cs.type, cs.name, symbols, dice, tuple(cs.uses)))
                ids.append(cid)
        decks[f] = ids
    if spec.advanced is not None:  # 6.2: the 9 April cards, dealt to choose from (7.0)
        for f in FACTIONS:
            ids = []
            for c in (cards.april9[f].copies if f in cards.april9 else []):
                cs = cards.cards[c.card]
                for _ in range(c.count):
                    cid = len(copies)
                    copies.append(Copy(cid, c.card, cs.type, cs.name, c.symbols, c.dice, tuple(cs.uses), april9=True))
                    ids.append(cid)
            decks[f"april9:{f}"] = ids
    return copies, decks
