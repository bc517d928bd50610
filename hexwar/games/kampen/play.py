"""Kampen om Norge in the terminal: the shared play loop with the card game's status, map
and explanations."""

from __future__ import annotations

import re
from functools import partial
from typing import Any, Callable, Iterable, Mapping, cast

from rich.table import Table

from hexwar.board.base import place_name
from hexwar.core.orders import Order
from hexwar.games.kampen.orders import Cash, Choose, Discard, PlayCard
from hexwar.games.kampen.state import ALLIES, FACTIONS, GERMANS, KampenData
from hexwar.ui.presenter import Presenter
from hexwar.rules.ledger import Ledger
from hexwar.ui.words import Said, fold_order, said_text

#: the orders that play, cash, discard or keep one copy of a card (the hand lists them under it)
CARD_ORDERS = (PlayCard, Cash, Discard, Choose)
COLOURS = {"germans": "#333333", "norwegians": "#c8102e", "allies": "#b59b5b"}
#: the map's tints of who holds an area (1.3): the factions' colours, the Allies' khaki darkened
#: so that, faint over the land's cream, it still reads as held
TINTS = {**COLOURS, "allies": "#8a6a10"}
SHORT = {"germans": "DE", "norwegians": "NO", "allies": "AL"}


class KampenPresenter(Presenter):
    """Kampen om Norge for a person: hands are private to the faction that holds them."""

    title = "Kampen om Norge"
    order_words = {
        "pass": "end this step of the round: the next step, or the next faction's round, follows (4)",
    }
    turn_word = "round"
    commands = (
        ("<order text>", "give an order typed as listed, e.g.  move 2 narvik>bjornfjell   or   pass"),
        ("explain <area|last>", "an area (by its name, e.g. explain Mo i Rana): its borders, coasts and air range; the dice of the last combat"),
        ("explain <card>", "a card's text: when it is played, what it does, its copies (e.g. explain panzer)"),
        ("explain <order>", "a listed order by its number or text: an attack's dice and exact odds before cards"),
        ("status", "the battalions, your hand, the decks, the objectives, how the game ends and the standing"),
    )
    #: orders move battalions by number from area to area: there is no unit to name
    short_orders = False
    glossary_examples = ("cash", "fjord")
    past = {"add": "added a ship to a sea combat", "chase": "chased a ship", "choose": "kept a 9 April card",
            "intercept": "intercepted", "lose": "chose their losses", "raid": "sent a ship raiding",
            "ship": "placed a ship card", "unship": "withdrew a ship", "sail": "sailed", "place": "placed a battalion",
            "land": "landed", "play": "played a card", "cash": "cashed a card", "discard": "discarded", "fight": "fought",
            "withdraw": "withdrew", "recall": "recalled a battalion"}
    #: the rules' terms as the orders and the status say them (a scenario's own end is in status)
    glossary = {
        "battalion": ("the only land piece: one combat die in attack and in defence; it moves one land area a "
                      "round, and battalions moving together are a group", "2.2"),
        "hostile": ("an area held by enemy battalions: moving into it is an attack, fought in the combat phase", "2.3, 4.1"),
        "point city": ("Oslo, Kristiansand, Stavanger, Bergen, Trondheim, Narvik: they decide who wins; an empty "
                       "one counts as Norwegian", "1.3, 2.3"),
        "mobilisation point": ("one of 12 areas where Norway may place bought battalions (and in its point cities), "
                               "at most 1 in each a round, none where Germans stand", "2.3, 4.3"),
        "fjord": ("the water between some areas (Mjøsa counts): moving across is as usual, but battalions attacking "
                  "across give half their dice, rounded down, and German and Allied defenders may not retreat across",
                  "2.3, 4.2"),
        "air range": ("German air cards north of the 'Fra Tyskland' line need a held airfield whose line reaches the "
                      "fight; Transportfly flies between airfields German battalions hold (explain <area> shows it)",
                      "2.3"),
        "combat dice": ("one die per battalion, from at most 5 a side (Norway and the Allies defending together share "
                        "the 5); dice from cards come on top, neither capped nor halved", "4.2"),
        "six": ("every 6 rolled eliminates one enemy battalion; the defender also rolls for the battalions the "
                "attacker's 6s eliminated, so losses fall together", "4.2"),
        "tie": ("the higher total of pips wins the area; on a tie the attacker withdraws", "4.2"),
        "withdraw": ("the loser's survivors leave: a defender all to one adjacent area with no enemies, no open "
                     "fight and no attack launched from it this round (surrounded, it loses them all); an attacker "
                     "back to the areas it attacked from", "4.2"),
        "card type": ("a side plays at most one card of each type in a fight; Bombefly and Jagerbomber are one "
                      "type", "4.2"),
        "timing": ("the symbols before a card's function: green triangle, your own round; red square, the "
                   "opponent's round, as a reaction; green circle, your own round, as a reaction; the number is "
                   "the phase", "2.4"),
        "cash": ("in your reinforcement phase, hand in cards for their soldier symbols, whatever they do: every 3 "
                 "symbols buy a battalion, the rest are lost; cashed cards count as used", "4.3"),
        "free reinforcement": ("Germany's one battalion every round, at no card cost", "4.3"),
        "used": ("a card played or cashed goes to the bottom of its own deck, face up", "2.4"),
        "draw": ("at the end of its own round a faction draws up to 5 (Germany) or 3 (Norway, the Allies)", "4.4"),
        "discard": ("Germany or the Allies, having used no card in the round, discard one and draw one", "4.4"),
        "exhausted": ("a deck whose first face-up card shows on top: Germany's ends the basic game, Norway shuffles "
                      "and plays on, the Allies get no more cards and recall 4 battalions", "1.3, 2.4"),
        "recall": ("the Allies removing 4 battalions of their choice when their deck is exhausted (in the advanced "
                   "game 5 ships too)", "2.4, 5.2"),
        "sabotage": ("Norway's Veisperring and Sprengt bro, played after the German movement and before combat; "
                     "Germany's Ingeniørkompani stops them", "4.1"),
        "escape": ("Norway's Togtransport played to take battalions out of an area under attack before the fight",
                   "4.1"),
        "clear victory": ("Norway and the Allies: all German battalions gone, or 2 or more point cities held; "
                          "Germany: all theirs gone, or every point city with 3 or fewer of theirs left", "1.3"),
        "narrow victory": ("Norway and the Allies: one point city held; Germany: every point city, more than 3 of "
                           "theirs left", "1.3"),
        "ship": ("advanced game: a card of one or more ships, face down in its sea area, one die in sea combat; it "
                 "moves up to 2 sea areas a round and leaves play only when sunk", "6.1, 8.1"),
        "dummy": ("advanced game: a German face-down ship card that is no ship: removed when intercepted, and all "
                  "after the 9 April round", "6.1"),
        "intercept": ("advanced game: when ships enter a sea area with enemy ships, each side in turn may roll one die "
                      "per enemy ship there; each success turns one of them face up to fight", "8.1"),
        "raid": ("advanced game, 9 April round: a German battleship or heavy cruiser in VI, VII or VIII goes to the "
                 "raid field and costs the Allies 2 cards (battleship) or 1; 6 symbols cashed recall the raiders",
                 "7.2"),
        "9 April round": ("the advanced game's first round, in place of the setup: every faction chooses cards, "
                          "places, lands, fights and reinforces in the same round", "7"),
    }

    @property
    def data(self) -> KampenData:
        """The game as the person may see it (the other factions' hands face down)."""
        return cast(KampenData, self.session.view())

    def brief(self) -> list[tuple[str, list[str]]]:
        from hexwar.games.kampen import briefing

        return briefing.brief(self)

    def heading(self, side: str) -> str:
        d = self.data
        if d.stage:
            return f"the 9 April round · {d.step} · {side} decides"
        return f"game round {d.turn} · the {d.faction}' round · {d.step} · {side} decides"

    def status_lines(self) -> list[Any]:
        d, g = self.data, self.game
        t = Table("", "battalions", "hand", "deck (unused)", "cards used", "lost", box=None)
        for f in FACTIONS:
            hand = ", ".join(g.copies[c].name for c in d.hand[f]) if self.may_see(f) else f"{len(d.hand[f])} cards"
            held = sorted((place_name(g.board, a), n) for a, n in d.bn[f].items())  # by name, as players read the map
            t.add_row(f, ", ".join(f"{a} {n}" for a, n in held),
                      hand, str(max(d.down[f], 0)),
                      str(d.cards_used[f]), str(d.losses[f]))
        out: list[Any] = [t]
        if d.ships:
            out.append(self.fleet_table())
        return out + self.goal_lines() + [f"standing: {self._words(self.s.result().level)}"]

    def goal_lines(self) -> list[str]:
        """What the scenario is won on and how it ends (1.3, S1), with the counts that matter now."""
        d, g = self.data, self.game
        objs = ", ".join(self.place_word(a) for a in g.objectives())  # by name, as explain takes them
        if isinstance(g.spec.victory, dict):  # S1
            out = [f"objectives: {objs}: Germany wins if it still holds any of them at the end; Norway and the Allies "
                   "win if they hold all three [S1]"]
        else:
            out = [f"point cities: {objs}: Germany needs all of them (and 3 or fewer Norwegian and Allied battalions "
                   "for a clear victory); an empty city counts as Norwegian [1.3]"]
        if g.spec.end == "allied_deck":
            out.append(f"the game ends when the Allies draw their last unused card ({max(d.down[ALLIES], 0)} left), "
                       "or at once when a side has no battalions [S1, 1.3]")
        else:
            out.append(f"the game ends when the German deck is exhausted ({max(d.down[GERMANS], 0)} unused cards left), "
                       "or at once when a side has no battalions [1.3, 2.4]")
        return out

    def fleet_table(self) -> Table:
        """The sea areas (6.1): your ships by name, the enemy's face-down ships as so many
        cards (face-up ones by name), the raid field, ships sunk."""
        return fleet_table(self.game, self.data, self.may_see)

    def may_see(self, f: str) -> bool:
        sees = self.session.sees
        return sees is None or f in sees

    def event_lines(self, events: Iterable[Any]) -> list[str]:
        """The events as sentences; another faction's draw says only how many cards it holds (2.4)."""
        return [f"  {e['faction']} draw to {e['hand']} cards" if e.get("type") == "draw" and not self.may_see(e.get("faction", ""))
                else "  " + self.describe(e) for e in self.session.visible_events(list(events))]

    def map_svg(self, layer: str = "") -> str:
        d, g = self.data, self.game
        return render(g, d, title=f"game round {d.turn}, {d.faction}, {d.step}", panel=self.panel_lines())

    def tracks(self) -> list[str]:
        return self.panel_lines()

    def about(self, loc: str, unit: str | None = None) -> list[str]:
        if loc in self.game.nbrs:
            return said_text(self.explain(loc)).splitlines()
        return super().about(loc)

    def hand(self) -> list[dict[str, Any]]:
        """The person's cards, face up, with their text and the orders that play, cash or
        discard each (the other factions' hands stay face down: 2.4)."""
        from hexwar.games.kampen.cards import card_text, timing_marks, use_text

        g, d = self.game, self.data
        sess = self.session
        legal = sess.legal()
        out: list[dict[str, Any]] = []
        for f in FACTIONS:
            if not self.may_see(f) or f not in sess.humans and sess.sees is not None:
                continue
            offered: set[str] = set()  # the cards whose orders are listed under a copy already
            for cid in d.hand[f] + d.pool.get(f, []):  # 7.0: the 9 April cards to choose from too
                cp = g.copies[cid]
                plays = [o for o in legal if isinstance(o, CARD_ORDERS) and o.copy == cid]
                uses = [sess.order_text(o) for o in plays]
                spec = g.cards.cards[cp.card]
                effect = "; ".join(use_text(u) for u in spec.uses[:1]) or "no function: cashed for its symbols (4.3)"
                card = {"faction": f, "id": cid, "name": cp.name + (" (9 April, to choose)" if cid not in d.hand[f] else ""),
                        "symbols": cp.symbols, "text": card_text(g.cards, [cp], cp.card) or cp.name, "orders": uses,
                        "labels": [self.order_line(o) for o in plays],  # the orders as the card's buttons show them
                        # drawn as a card (2.4): the faction's colour, its timing symbols, a
                        # line of what it does, and how many copies of it the hand holds
                        "colour": COLOURS.get(f, "#888"), "effect": effect + (" ..." if len(spec.uses) > 1 else ""),
                        "timing": [{"glyph": gl, "colour": c, "words": w} for gl, c, w in timing_marks(spec)],
                        "copies": sum(1 for x in d.hand[f] if g.copies[x].card == cp.card)}
                if uses:
                    offered.add(cp.card)
                elif cp.card in offered:
                    # two copies of a card play alike, so the orders list only one of them (2.4)
                    card["note"] = "a second copy: this card's orders are under the first, and either copy plays alike"
                out.append(card)
        return out

    def panel_lines(self) -> list[str]:
        d = self.data
        lines = ["the 9 April round" if d.stage else f"Game round {d.turn}", f"{d.faction}: {d.step}"]
        for f in FACTIONS:
            lines.append(f"{SHORT[f]} bns {d.battalions(f)}, deck {max(d.down[f], 0)}")
        names = [place_name(self.game.board, a) for a in self.game.objectives()]
        if d.ships:
            lines.append("at sea: ship cards, 6.1")
        lines.append("objectives:")
        lines += ["  " + ", ".join(names[i:i + 3]) for i in range(0, len(names), 3)]
        return lines

    def explain_order(self, order: Order) -> Said:
        """A card play: the card, what it does (its text, 2.4) and the function it is played
        for, then the attack's odds where it moves battalions into an enemy area (4.2)."""
        if isinstance(order, PlayCard):
            from hexwar.games.kampen.cards import card_text

            cp = self.game.copies[order.copy]
            note = self.order_note(order)[0]
            return "; ".join(x for x in (f"{self.order_line(order)}: {card_text(self.game.cards, [cp], cp.card) or cp.name}",
                                         f"played for its {order.slot} function (2.4)", note) if x)
        return super().explain_order(order)

    def order_line(self, order: Order) -> str:
        """An order with its areas and cards by name, as a person reads them: ``play
        Togtransport move 1 Kongsvinger → Rena → Tynset`` for ``play togtransport#75 move 1
        kongsvinger>rena>tynset`` (its text, which a person may still type, or its number)."""
        from hexwar.games.kampen.orders import KMove

        if isinstance(order, KMove) and len(order.via) > 1:  # on hexes: where it starts, enters from, ends
            return self._words(f"move {order.n} {order.src}>{order.via[-1]}>{order.dst}").replace(" → ", " → … → ", 1)
        return self._words(self.session.order_text(order))

    def order_note(self, order: Order) -> tuple[str, float | None]:
        """A move into an enemy area, on foot or by a card's move, is an attack (4.1): its
        battalion dice, with the groups already attacking there, against the defenders', and
        the exact chance of taking the area and the battalions each side may expect to lose,
        before any card (4.2)."""
        from hexwar.games.kampen.orders import KMove
        from hexwar.games.kampen.state import enemies
        from hexwar.rules.dicecombat import battalion_dice, summary

        if isinstance(order, KMove):  # on hexes it enters from its last hex (4.1, as ``movement.move``)
            last, dst = (order.via[-1] if order.via else order.src), order.dst
        elif isinstance(order, PlayCard) and order.slot == "move" and order.path:
            last, dst = (order.path[-2] if len(order.path) > 1 else order.src), order.path[-1]
        else:
            return "", None
        g, d = self.game, self.data
        if not g.hostile(d, order.side, dst):
            return "", None
        dn = sum(d.bn[f].get(dst, 0) for f in enemies(order.side))
        groups = [(gr.n, gr.crossing) for gr in d.attacks.get(dst, [])]
        groups.append((order.n, (last, dst) in g.water))  # 4.2: across a fjord or lake, dice halved
        a, dd, an = battalion_dice(groups), battalion_dice([(dn, False)]), sum(n for n, _ in groups)
        odds = summary(a, dd, an, dn)
        win = float(odds["attacker_wins"])
        return (f"attack: {an} battalion{'s' if an > 1 else ''} against {dn}, dice {a} against {dd}: takes the area "
                f"{win:.0%} before cards; expected losses {float(odds['attacker_losses']):.1f} yours, "
                f"{float(odds['defender_losses']):.1f} theirs [4.2]"), win

    def explain(self, what: str) -> Said:
        g, d = self.game, self.data
        if what in ("", "last", "combat"):
            c: dict[str, Any] | None
            if d.combat is not None and d.combat.ledger:
                c = {"area": d.combat.area, "ledger": d.combat.ledger, "attacker": d.combat.a_faces, "defender": d.combat.d_faces}
            else:
                c = next((ev for _, ev in self.session.newest_events("combat_roll")), None)
            if not c:
                return "no combat yet"
            led = Ledger(f"combat at {self.place_word(c['area'])}: attacker rolls {c['attacker']}, defender rolls {c['defender']}")
            for ln in c.get("ledger", []):
                led.add(f"{ln['side']}: {ln['what']}", f"{ln['dice']} {'die' if ln['dice'] == 1 else 'dice'}", ln["rule"])
            return led.add("each 6 kills a battalion; the higher total wins, a tie goes to the defender", rule="4.2")
        from hexwar.games.kampen.cards import card_text

        text = card_text(g.cards, g.copies, what)
        if text is not None:
            return text
        what = self.area(what) or what
        if what in g.nbrs:
            name = self.place_word
            lines = [f"{name(what)}: " + ", ".join(f"{f} {d.bn[f].get(what, 0)}" for f in FACTIONS)]
            lines.append("  borders: " + ", ".join(name(n) + (" (fjord/lake: attack dice halved, no German or Allied retreat)"
                                                               if (what, n) in g.water else "") for n in g.nbrs[what]))
            kinds = [k for k in ("point_city", "mobilisation", "airfield") if g.board.is_a(what, k)]
            lines.append(f"  {', '.join(k.replace('_', ' ') for k in kinds) or 'no symbols'}; coasts: {', '.join(sorted(map(name, g.coasts[what]))) or 'none'}"
                         + ("; mined I/II coast" if g.mined_coast[what] else ""))
            lines.append(f"  in German air range now: {'yes' if what in g.air_range(d) else 'no'} [2.3]")
            if what in d.attacks:
                from hexwar.rules.dicecombat import battalion_dice

                groups = [(gr.n, gr.crossing) for gr in d.attacks[what]]
                lines.append(f"  under attack by {sum(n for n, _ in groups)} battalions: {battalion_dice(groups)} battalion dice [4.2]")
            return "\n".join(lines)
        return f"explain what? an area (e.g. Narvik, Mo i Rana), a card (e.g. Panzer) or last (not {what!r})"

    def area(self, words: str) -> str | None:
        """The land area ``words`` name: its id, or its name as a person types it (any case,
        with or without its letters: ``Bjørnfjell``, ``bjornfjell``, ``mo i rana``)."""
        g = self.game
        if words in g.nbrs:
            return words
        want = fold_order(words.replace("_", " "))
        for a in g.nbrs:
            if want in (fold_order(a.replace("_", " ")), fold_order(self.place_word(a))):
                return str(a)
        return None

    def ending(self, data: Any) -> str:
        return f": {data.ended}; {self._words(self.game.result(data).level)}"

    def final_line(self) -> str:
        return f"{self.data.ended}: {self._words(self.s.result().level)}"

    def place_word(self, loc: str) -> str:
        """An area by its name (Gjøvik), as the events say it; a hex of no name of its own by its
        number and the area it was cut from (``1326 (Tysfjord)``)."""
        return self._words(loc)

    def describe(self, e: Mapping[str, Any]) -> str:
        """An event as a sentence, the areas by their names (Bjørnfjell, Mo i Rana)."""
        return self._say(e)

    def __init__(self, session: Any):
        super().__init__(session)
        self._say = say_in(self.game)
        self._words = words_in(self.game)  # the areas' names once: every list names them


#: the ids in an order's text: a card copy or a ship (``togtransport#75``, ``Blücher#2``), a
#: copy cashed (``#3``), an area (``mo_i_rana``), and the steps of a path (``>``); in a
#: result's sentence an area may stand in brackets (``in progress (... occupies bjornfjell)``)
_IDS = re.compile(r"([^\s>,#()]*)#(\d+)|([^\s>,#()]+)|(>)")


def place_names(game: Any, places: Iterable[str]) -> dict[str, str]:
    """The areas among ``places`` whose name is not their id, by id (mo_i_rana: Mo i Rana);
    a hex without a name of its own is named by its number and the area it was cut from
    (``1326 (Tysfjord)``), or not at all on a board drawn as hexes."""
    out = {a: n for a in places if (n := place_name(game.board, a)) != a}
    within = _cut_from(game.board)
    out.update({a: f"{a} ({within[a]})" for a in places if a not in out and a in within})
    return out


def _cut_from(board: Any) -> dict[str, str]:
    """On a hex board cut from the area map (issue 72), each unnamed land hex -> the name of
    the area it was cut from (``1326`` is in Tysfjord): a hex number alone says nothing."""
    if board.kind != "hex" or board.conversion is None:
        return {}
    out: dict[str, str] = {}
    for region, hexes in board.regions.items():
        town = next((p for p in board.places() if p.location in hexes and "unusable" not in p.kinds
                     and "mined" not in p.kinds), None)
        if town is not None and town.name:
            out.update({h: town.name for h in hexes if h != town.location})
        elif region and all(c in "IVX" for c in region):  # a sea area's hexes (2.3)
            out.update({h: f"sea area {region}" for h in hexes})
    return out


def words_in(game: Any) -> Callable[[str], str]:
    """``in_names`` with the game's areas' names looked up once: how Kampen's orders and its
    results' sentences read (``Germany wins: it still occupies Narvik, Bjørnfjell``), for its
    presenter and ``hexwar replay`` (the registry's ``words_in``)."""
    return partial(in_names, game, places=place_names(game, game.board.locations()))


def in_names(game: Any, text: str, places: Mapping[str, str]) -> str:
    """An order's text with its ids in names (``KampenPresenter.order_line``): a card copy by
    its card's name, a ship by its name, an area by its name (``places``: ``place_names``;
    an area or hex without one keeps its id), each step of a path an arrow, a card's
    function in words."""
    def name(m: re.Match[str]) -> str:
        word, copy, token, step = m.groups()
        if step:
            return " → "
        if copy is not None:
            i = int(copy)
            cp = game.copies[i] if 0 <= i < len(game.copies) else None
            return cp.name if cp is not None and word in ("", cp.card) else word  # a ship: its name
        if token in game.board:
            return places.get(token, token)
        return token.replace("_", " ")  # a card's function: sea_defend

    said = _IDS.sub(name, text).replace(",", ", ")
    return " ".join(said.split())


def say_in(game: Any) -> Callable[[Mapping[str, Any]], str]:
    """``say`` with the game's areas and cards by their names (Bjørnfjell, Mo i Rana;
    Gebirgsjäger, as the hand shows the card), as the play loop and ``hexwar replay`` word
    the events."""
    names = place_names(game, game.land)
    names.update({k: c.name for k, c in game.cards.cards.items() if c.name != k})
    ids = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    pattern = re.compile(rf"(?<![\w>])({ids})(?![\w])") if ids else None

    def described(e: Mapping[str, Any]) -> str:
        text = say(e)
        return pattern.sub(lambda m: names[m.group(1)], text) if pattern is not None else text

    return described


def fleet_table(g: Any, d: Any, may_see: Any) -> Table:
    from hexwar.games.kampen.state import RAID, SUNK

    t = Table("sea", *FACTIONS, box=None)
    for sea in (*g.seas, RAID, SUNK):
        row = []
        for f in FACTIONS:
            ships = [x for x in d.ships if x.owner == f and x.at == sea]
            named = [g.fleet[x.id].name for x in ships if x.id >= 0 and (may_see(f) or x.up or sea == SUNK)]
            backs = len(ships) - len(named)
            row.append(", ".join(named + ([f"{backs} face down"] if backs else [])))
        if any(row):
            t.add_row(sea, *row)
    return t


def stacks(g: Any, d: Any) -> dict[str, list[tuple[str, int, str]]]:
    """The battalions of every area as labelled stacks, attacks in red, and each side's ships
    in the sea areas as a count of cards (for the SVG)."""
    out = {a: [(SHORT[f], n, COLOURS[f]) for f in FACTIONS if (n := d.bn[f].get(a, 0))] for a in g.land}
    for a, groups in d.attacks.items():
        out.setdefault(a, []).append((SHORT[d.faction] + "→", sum(gr.n for gr in groups), "#d00000"))
    for sea in getattr(g, "seas", ()) if d.ships else ():
        for f in FACTIONS:
            n = sum(1 for x in d.ships if x.owner == f and x.at == sea)
            if n:
                out.setdefault(sea, []).append((SHORT[f], n, COLOURS[f]))  # at sea: ship cards
    return {a: s for a, s in out.items() if s}


def render(g: Any, d: Any, viewer: str | None = None, title: str = "", panel: list[str] | None = None) -> str:
    """An SVG of the board with the battalions (nothing in it is hidden from any faction)."""
    from hexwar.ui.render import render_svg

    hl = [d.combat.area] if d.combat is not None else []
    if getattr(d, "sea", None) is not None:
        hl.append(d.sea.area)
    return render_svg(g.board, None, highlight=hl, title=title, panel=panel or [], stacks=stacks(g, d), focus=g.land,
                      tints=holders(g, d))


def holders(g: Any, d: Any) -> dict[str, tuple[str, str]]:
    """Each land area with battalions tinted by who holds it (1.3): one faction's colour, or
    Norway's and the Allies' together; an area under attack stays untinted until decided."""
    out = {}
    for a in g.land:
        there = [f for f in FACTIONS if d.bn[f].get(a)]
        if not there or a in d.attacks or len(there) > 2 or (len(there) == 2 and "germans" in there):
            continue
        out[a] = (TINTS[there[0]], f"held by the {there[0]}") if len(there) == 1 else \
            (TINTS["norwegians"], "held by the norwegians and the allies together")
    return out


def _n(d: Mapping[str, int], skip_zero: bool = False) -> str:
    return ", ".join(f"{n} {f}" for f, n in d.items() if n or not skip_zero)


def _via(e: Mapping[str, Any]) -> str:
    via = list(e.get("via", []))
    return f" via {', '.join(via)}" if via else ""


SAY = {
    "move": lambda e: f"{e['faction']} move {e['n']} from {e['from']}{_via(e)} to {e['to']}",
    "attack": lambda e: (f"{e['faction']} attack {e['to']} with {e['n']} from {e['from']}{_via(e)}"
                         + (" across a fjord (dice halved)" if e.get("fjord") else "")),
    "card": lambda e: f"{e['faction']} {e['how']} {e['card']}",
    "combat": lambda e: f"combat at {e['area']}: {e['attackers']} {e['attacker']} attack {_n(e['defenders'])}",
    "combat_roll": lambda e: (f"dice: attacker {e['attacker']} = {e['totals'][0]}, defender {e['defender']} = {e['totals'][1]}; "
                              f"sixes kill {e['kills'][0]} defender(s), {e['kills'][1]} attacker(s)"),
    "combat_result": lambda e: (f"{e['winner']} wins at {e['area']} ({e['totals'][0]} against {e['totals'][1]}; "
                                "a tie goes to the defender)"),
    "withdraw": lambda e: f"{_n(e['battalions'])} withdraw from {e['from']} to {e['to']}",
    "attack_repulsed": lambda e: f"the attack on {e['area']} is repulsed: the attackers go back where they started",
    "cancelled": lambda e: f"{e['by']} cancels {e['card']}",
    "evacuated": lambda e: f"the {e['faction']} evacuate to {e['to']}",
    "escape": lambda e: f"{e['faction']} escape with {e['n']} from {e['from']} to {e['to']}",
    "sabotage_cancelled": lambda e: f"the sabotage ({e['card']}) is cancelled: the attack goes on",
    "sent_back": lambda e: f"sabotage ({e['card']}): the {e['n']} attacking {e['target']} from {e['from']} go back to {e['to']}",
    "diverted": lambda e: f"{e['by']} diverts the paratroopers from {e['from']} to {e['to']}",
    "reinforcements": lambda e: (f"{e['faction']} reinforce: {e['symbols']} symbol(s) cashed buy {e['bought']} battalion(s) "
                                 "(3 symbols a battalion, leftovers lost)"
                                 + (f", and {e['free']} free battalion(s) come" if e["free"] else "")),
    "sunk_reinforcement": lambda e: f"a U-boat sinks one of the {e['faction']}' reinforcements at sea",
    "reshuffle": lambda e: f"the {e['faction']} shuffle their {e['cards']} used cards into a new deck",
    "eliminated": lambda e: (f"removed at {e['area']}: {_n(e['defenders'], skip_zero=True) or 'no defenders'}, "
                             f"{e['attackers']} attacking"),
    "surrounded": lambda e: f"surrounded at {e['area']}: {_n(e['lost'])} lost, no area to withdraw to",
    "draw": lambda e: f"{e['faction']} draw to {e['hand']} cards",
    "phase_end": lambda e: f"end of the {e['faction']}' {e['phase']} phase",
    "discard": lambda e: f"{e['faction']} used no card this round: discard {e['card']} and draw one",
    "deck_exhausted": lambda e: f"the {e['faction']}' deck is used up: the first used card shows on top",
    "allied_withdrawal": lambda e: (f"the Allied deck is used up: the Allies must recall {e['battalions']} "
                                    "battalion(s) of their choice"),
    "recalled": lambda e: f"allies recall 1 battalion from {e['area']}",
    "round": lambda e: f"--- the {e['faction']}' round (game round {e['game_round']})",
    "game_over": lambda e: f"GAME OVER: {e['why']}: {e['level']}",
    "entered": lambda e: f"{e['faction']} enter {e['area']} unopposed",
    "arrive": lambda e: f"{e['faction']} land {e['n']} battalion(s) in {e['to']}",
    "placed": lambda e: f"{e['faction']} place {e['n']} in {e['area']}",
    # the advanced game (rules 5-8)
    "chose": lambda e: f"{e['faction']} keep a 9 April card" + (f": {e['card']}" if "card" in e else ""),
    "ship_placed": lambda e: f"{e['faction']} place {e.get('ship', 'a ship, face down,')} in sea area {e['sea']}",
    "rescue": lambda e: f"{e['faction']} call {e.get('ship', 'another ship')} to the rescue",
    "sighted": lambda e: (f"{e['faction']} reconnoitre sea area {e['sea']}: dice {e['faces']}"
                          + (f", they see {', '.join(e['ships']) or 'nothing'}" if "ships" in e else "")),
    "sail": lambda e: (f"{e['faction']} sail {', '.join(e['ships']) if e.get('ships') else str(e['n']) + ' ship(s)'} "
                       f"from {e['from']} to {e['to']}"),
    "interception": lambda e: (f"{e['faction']} try to intercept in {e['sea']}: "
                               + (f"dice {e['faces']}: " if e["faces"] else "")
                               + (", ".join(e["caught"]) or "nothing") + " intercepted"),
    "smoke": lambda e: f"a German smoke screen: the {e['faction']}' interception in {e['sea']} fails",
    "sea_combat": lambda e: (f"sea combat in {e['sea']}: {', '.join(e['attackers'])} ({e['attacker']}' initiative) "
                             f"against {', '.join(e['defenders'])}"),
    "ship_added": lambda e: f"{e['faction']} add {e['ship']} to the sea combat in {e['sea']}",
    "sea_shot": lambda e: f"{e['by']} rolls {e['face']}: {e['result']}" + (f" ({e['target']})" if e.get("target") else ""),
    "ship_sunk": lambda e: f"{e['ship']} ({e['faction']}) goes down: {e['why']}",
    "cards_lost": lambda e: f"{e['faction']} lose {e['n']} card(s) from their deck ({e['why']})",
    "chased": lambda e: f"{e['ship']} is chased from {e['from']} to {e['to']}",
    "sea_combat_end": lambda e: f"the sea combat in {e['sea']} is over; the survivors turn face down",
    "raiding": lambda e: f"{e['ship']} goes raiding from {e['sea']}",
    "raiders_recalled": lambda e: "Germany recalls its raiders (6 symbols cashed)",
    "no_landing": lambda e: f"no German landings from {', '.join(e['seas'])}: Eidsvoll & Norge was not fought",
    "landing": lambda e: f"{e['ship']} will land a battalion in {e['area']} from {e['sea']}",
    "fort": lambda e: f"the coastal fort at {e['area']} rolls {e['face']}: {e['result']}",
    "resistance": lambda e: (f"Norway's resistance at {e['area']}: {e['face']}, "
                             + ("a battalion mobilises" if e["mobilised"] else "too late")),
    "telegraph": lambda e: f"Germany holds {e['area']}: the telegraph line to Britain is cut",
    "april_end": lambda e: "end of the 9 April round: its cards leave play, the dummy ships go",
    "bluff": lambda e: f"Bløff/trusler at {e['area']}: {e['face']}, " + ("Norway withdraws" if e["works"] else "no effect"),
    "ship_removed": lambda e: f"the Allies withdraw {e['ship']} (their deck is used up)",
}


def say(e: Mapping[str, Any]) -> str:
    """One Kampen event as a sentence, with its rule."""
    from hexwar.ui.words import sentence

    return sentence(e, SAY)
