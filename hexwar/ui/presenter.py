"""How a game meets a person: its presenter.

Each game has one (``GameInfo.presenter``): its title, its words for events and orders, what
each order costs or risks before it is given, its explanations, its map, its cards, the
terms of its rules. The terminal (``hexwar.ui.play``) and the web board (``hexwar.web``)
ask the presenter for every word they show, and the session (``hexwar.ui.session``) for the
game itself; neither knows a game. The defaults are honest for a game that has little to
say: a base presenter lists orders and explains nothing of its own.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from hexwar.core.game import Event
from hexwar.core.orders import Order
from hexwar.ui.session import Session
from hexwar.ui.words import Said, describe

#: fields by which an order names the places it acts on, in the order a mark reads them
#: (``hexwar.core.orders``' conventions, which the games' orders keep)
_TARGETS = ("target", "hex", "dst", "area", "port")

#: how a presenter's ``explain`` begins an answer that refuses what it was asked
NOT_EXPLAINED = "explain what?"


class Presenter:
    """A game's words and pictures for a person, over one :class:`Session`."""

    title = "a game"
    #: the game's own lines of the help text, by command (they replace the generic ones)
    commands: tuple[tuple[str, str], ...] = ()
    #: terms of the rules a player may ask about: term -> (meaning, section)
    glossary: Mapping[str, tuple[str, str]] = {}
    #: the terms the help's ``rules`` line names (default: the glossary's first two)
    glossary_examples: tuple[str, ...] = ()
    #: whether orders name their units, so ``move <unit> <place>`` can pick one (a game
    #: whose orders move battalions by number, like Kampen om Norge, has no short orders)
    short_orders = True
    #: the game's own order verbs in the past tense, for the bots' turn in a sentence (the
    #: verbs of the engine's own orders are in ``hexwar.ui.words.PAST``)
    past: Mapping[str, str] = {}
    #: what each kind of order does, in the game's words with its section (``explain``); a
    #: game's own kinds that it leaves out are told by their order's description
    order_words: Mapping[str, str] = {}
    #: what a game's turn is called in the names of its map snapshots ("turn03")
    turn_word = "turn"

    def __init__(self, session: Session):
        self.session = session
        self.s = session.s
        self.game: Any = session.game

    # --- the game as it stands ------------------------------------------------------

    def heading(self, side: str) -> str:
        """A line saying where the game stands and whose decision it is."""
        return f"turn {self.s.data.turn} · {self.s.data.phase} · {side} decides"

    def status_lines(self) -> list[Any]:
        """What ``status`` shows: lines and tables (a game's presenter says more)."""
        return [self.s.result().level]

    def final_line(self) -> str:
        """How the game ended, in a line."""
        return self.s.result().level

    def tracks(self) -> list[str]:
        """The game's tracks for the side panel (turn, points, decks)."""
        return [f"turn {self.s.data.turn}", f"{self.s.data.phase}"]

    def hand(self) -> list[dict[str, Any]]:
        """The cards the person holds, if the game has cards: name, text and the orders that play each."""
        return []

    def map_svg(self, layer: str = "") -> str:
        """The board as the person may see it, as an SVG (the terminal's snapshot and the web
        board); ``layer``: a game's extra (Assault on Narvik's lines of ``supply``)."""
        from hexwar.registry import get

        sess = self.session
        return str(get(self.game.name).render(self.game, sess.view(), viewer=sess.viewer,
                                              title=f"turn {self.s.data.turn}, {self.s.data.phase}"))

    # --- events and orders in words ---------------------------------------------------

    def describe(self, e: Mapping[str, Any]) -> str:
        """One event as a line of text (a game's presenter words its own events)."""
        return describe(e)

    def event_lines(self, events: Iterable[Event]) -> list[str]:
        """The lines an order's events print as, for the person."""
        return ["  " + self.describe(e) for e in self.session.visible_events(list(events))]

    def place_word(self, loc: str) -> str:
        """A place as the summaries name it (a hex by its number; a game may use names)."""
        return loc

    def order_marks(self, order: Order, view: Any = None) -> dict[str, Any]:
        """Where an order acts on the map: its units (``u``), the place it starts from (``f``)
        and the place it ends at or aims at (``t``), read from the order's own fields by the
        engine's conventions (``unit``/``units``, ``path``, ``target`` ...). ``view``: the
        person's view, when the caller marks many orders (made once, not per order)."""
        fields = vars(order)
        units: list[str] = []
        for key in ("unit", "ship"):
            if isinstance(v := fields.get(key), str) and v:
                units.append(v)
        for key in ("units", "ships"):
            units += [x for x in fields.get(key) or () if isinstance(x, str)]
        path = tuple(fields.get("path") or ())
        # ``then``: where ships sail on to after the order's own act (a landing's or an
        # unloading's way home), which starts where that act takes place
        then = tuple(fields.get("then") or ())
        to = path[-1] if path else next((v for k in _TARGETS if isinstance(v := fields.get(k), str) and v), None) \
            or (then[0] if then else None)
        frm = path[0] if path else (then[0] if then else fields.get("src") or None)
        if frm is None and units:
            frm = self.unit_place(units[0], view if view is not None else self.session.view())
        return {"u": units, "f": frm, "t": to}

    def unit_place(self, uid: str, view: Any) -> str | None:
        """Where a unit the person sees stands (a game of counters says; none here)."""
        return None

    def order_line(self, order: Order) -> str:
        """An order as a list, a card or a bot's turn shows it to the person: its text as they
        may see it (``Session.order_text``), which is also what they may type. A game whose
        texts name places or cards by ids a person does not read says them in names here
        (the order's number, or its text, still gives it)."""
        return self.session.order_text(order)

    def order_note(self, order: Order) -> tuple[str, float | None]:
        """What an order costs or risks, for the web board (MP, odds); and a number to pick
        the cheapest of several orders to one place by (None: no preference)."""
        return "", None

    def read_order(self, line: str, legal: list[Order]) -> Order | None:
        """An order typed beyond the list (the game checks it in full), or None: none here."""
        return None

    def why_no_order(self, line: str, legal: list[Order]) -> str:
        """Why a typed short order the person means is no order now (a unit that cannot get
        there), in a line; "" when the game has nothing to say of it."""
        return ""

    def think_twice(self, order: Order) -> str | None:
        """Why an order is given only when typed twice (None: at once): an order that ends
        the game whatever the dice; a game's presenter adds its own."""
        after = self.session.ends_the_game(order)
        return None if after is None else f"this order ends the game{self.ending(after)}"

    def ending(self, data: Any) -> str:
        """How a finished game ended, for the warning before a game-ending order (": ..." or "")."""
        return ""

    # --- the briefing and waiting -------------------------------------------------------

    def brief(self) -> list[tuple[str, list[str]]]:
        """The game's sections of the briefing, (heading, lines) each: none by default."""
        return []

    def waits(self, legal: list[Order]) -> Order | None:
        """The order ``wait`` gives at a decision of the person's that needs nothing of them
        (a reaction they let pass), or None when this decision needs them: by default every
        decision does, so ``wait`` passes once."""
        return None

    # --- explanations -----------------------------------------------------------------

    def about(self, loc: str, unit: str | None = None) -> list[str]:
        """A location as the hover shows it: name, terrain, features, what stands there."""
        b = self.game.board
        lines = [f"{b.label(loc)}: {b.terrain(loc)}"]
        p = b.place(loc)
        kinds = sorted((p.kinds if p else frozenset()) - {"edge_north", "edge_south", "edge_east", "edge_west"})
        if kinds:
            lines.append("  " + ", ".join(k.replace("_", " ") for k in kinds))
        feats = sorted({f for n in b.neighbours(loc) for f in b.border(loc, n).features} - {"box_link"})
        if feats:
            lines.append("  borders: " + ", ".join(feats))
        return lines

    def sees_unit(self, uid: str) -> bool:
        """Whether the person may name this unit (a web page's pick): none in a game without counters."""
        return False

    def units_at(self, loc: str, view: Any) -> set[str]:
        """The units standing at a place in the person's view: none in a game without counters."""
        return set()

    def explain(self, what: str) -> Said:
        """How a number was reached, with its rule (a game's presenter explains its own): a
        sentence, a ledger or parts of both (:data:`~hexwar.ui.words.Said`).
        An answer that begins with :data:`NOT_EXPLAINED` refuses ``what`` (nothing of that
        name to explain) and says what may be asked: ``hexwar explain`` exits with it as an
        error, play shows it as the answer."""
        return f"{NOT_EXPLAINED} this game explains nothing yet (not {what!r})"

    def explain_order(self, order: Order) -> Said:
        """An order before it is given: what it does, with its section (the game's
        ``order_words``, else its own order's description), and what it costs or risks (a
        game's presenter says more)."""
        note = self.order_note(order)[0]
        said = [w for w in (self.order_words.get(order.kind) or own_words(order), note) if w]
        line = self.order_line(order)
        return f"{line}: " + "; ".join(said) if said else f"{line}: nothing to weigh before it is given"


def briefing(p: Presenter) -> list[str]:
    """What the person reads when the game opens and at ``brief``: the scenario, whom
    they command, then the game's own sections (``p.brief()``): the situation, each
    side's aim and victory, the game's length, their forces and what they know of the
    enemy's, a turn's sequence, and what the decision before them means."""
    from hexwar.registry import get

    info = get(p.game.name)
    scenario = str(p.game.save_meta().get("scenario") or info.default_scenario)
    about = info.scenario_about(scenario)
    mine = sorted(p.session.humans)
    others = [s for s in info.sides if s not in p.session.humans]
    lines = [f"{p.title}, scenario {scenario}" + (f": {about}" if about else ""),
             f"You command the {' and the '.join(mine) or 'nobody (you watch)'}"
             + (f"; hexwar's bots play the {' and the '.join(others)}." if others else ".")]
    for heading, body in p.brief():
        lines.append(f"{heading}:")
        lines += ["  " + line for line in body]
    lines.append("Type help for the commands, brief to read this again, rules <term> for a term.")
    return lines


def own_words(order: Order) -> str:
    """What a game's own kind of order does, from its description (the first paragraph of its
    class's docstring, which cites the game's section); "" for the engine's shared kinds
    (``Pass``, ``Move``, ``Assault``), which each game words itself (``order_words``)."""
    cls = type(order)
    if cls.__module__ == "hexwar.core.orders" or not cls.__doc__:
        return ""
    first = cls.__doc__.strip().split("\n\n", 1)[0]
    return " ".join(first.replace("``", "").split()).rstrip(".")
