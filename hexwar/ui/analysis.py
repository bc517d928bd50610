"""The analysis board (issue 54): a position set up by hand, as a player copies their table,
and every figure the rules give on it.

A game offers it through an :class:`Analyst` (``GameInfo.analysis``): the pieces a person may
put on the board and take off it, each piece's fields (a counter's fatigue, its flags), the
tracks (turn, weather, points), the figures the map shows for a pick (where a unit can go, its
line of supply, the zone of control) and the odds of a fight. The :class:`AnalysisBoard` keeps
the position, applies each edit to a copy (a refused edit leaves the position as it was), and
asks the game's presenter for the rest: the hover, ``explain`` of a unit, a place or a unit's
way to a place, and the orders open from the position with what each costs or risks.

Nothing here knows a game: its words are its analyst's and its presenter's. An illegal
position (too many counters in a place, a counter where it may not stand) is flagged, not
refused: a player checks a table that went wrong.
"""

from __future__ import annotations

import copy
from hexwar.ui.words import said_text
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping

#: the position's edits kept for an undo
UNDO = 200
#: orders open from a position that the page lists for a pick
MAX_OPEN = 40


@dataclass(frozen=True)
class Field:
    """One value a person may set: ``kind`` int, bool or choice (``choices``), within ``lo``
    and ``hi``; ``rule``: the section that defines it."""

    key: str
    label: str
    kind: str
    value: Any
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    rule: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def parse(self, value: Any) -> Any:
        """``value`` as this field holds it; a one-line ``ValueError`` when it cannot be."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{self.label}: yes or no (true or false), not {value!r}")
            return value
        if self.kind == "int":
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{self.label}: a whole number, not {value!r}")
            if self.lo is not None and value < self.lo or self.hi is not None and value > self.hi:
                raise ValueError(f"{self.label}: {value} is outside {self.lo} to {self.hi}"
                                 + (f" ({self.rule})" if self.rule else ""))
            return value
        if value not in self.choices:
            raise ValueError(f"{self.label}: {value!r} is not one of {', '.join(map(str, self.choices)) or 'nothing'}")
        return value


@dataclass
class Piece:
    """A piece of the tray or the map: a counter (``count`` 1), or a number of like pieces in
    a place (a game that counts battalions per area). ``loc`` None: off the map."""

    id: str
    label: str
    side: str
    loc: str | None
    count: int = 1
    kind: str = ""
    hidden: bool = False  # face down on the table (the board's player set it up, and sees it)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Figure:
    """A figure of the rules for a pick: its lines (a ledger, rule-cited), and what the map
    shows of it: ``marks`` (place -> what it is: reach, zoc, path, block, target, source) and
    ``labels`` (place -> a short text drawn on it, such as the MP left)."""

    title: str
    lines: list[str]
    marks: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Pick:
    """What the person has picked: a piece, a place, the attackers and the cards of a fight."""

    piece: str | None = None
    loc: str | None = None
    attackers: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    defend_cards: tuple[str, ...] = ()


class Analyst:
    """What a game offers the analysis board (``GameInfo.analysis(game)`` makes one). The
    defaults serve a game of counters (``UnitState``): every counter a piece, placed at a
    location or taken off to a pool, with no fields, tracks or figures of its own."""

    #: the pool a counter taken off the map goes to
    off_pool = "reinforcements"
    #: what the tray calls the pieces off the map
    tray_word = "off the map"
    #: the presenter's ``explain`` names a piece by its id (a counter), and a piece and a place
    explain_pieces = True

    def __init__(self, game: Any):
        self.game = game

    # --- the pieces -----------------------------------------------------------------------

    def pieces(self, data: Any) -> list[Piece]:
        return [Piece(u.id, self.piece_label(data, u), u.side, u.loc, kind=u.type, hidden=bool(u.concealed))
                for u in sorted(data.units.values(), key=lambda u: (u.side, u.id))]

    def piece_label(self, data: Any, unit: Any) -> str:
        return f"{unit.id} {unit.name}".strip()

    def fields(self, data: Any, piece: str) -> list[Field]:
        """The values of a piece a person may set (its menu)."""
        return []

    def tracks(self, data: Any) -> list[Field]:
        """The position's values a person may set: turn, weather, points."""
        return [Field("turn", "turn", "int", data.turn, lo=0, hi=99)]

    def place(self, data: Any, piece: str, loc: str | None) -> str | None:
        """Put a piece at ``loc`` (None: off the map); a ``ValueError`` if it cannot be.
        Returns the piece now at ``loc`` (a game counting pieces per place names it anew)."""
        u = self.unit(data, piece)
        if loc is None:
            if u.loc is not None:
                data.remove(u.id, self.off_pool)
            return None
        data.place(u.id, loc)
        return piece

    def set(self, data: Any, piece: str | None, key: str, value: Any) -> None:
        """Set a piece's field, or a track (``piece`` None)."""
        fields = self.fields(data, piece) if piece else self.tracks(data)
        f = next((f for f in fields if f.key == key), None)
        if f is None:
            raise ValueError(f"{piece or 'the position'} has no value {key!r} to set; it has: "
                             f"{', '.join(x.key for x in fields) or 'none'}")
        self.apply(data, piece, key, f.parse(value))

    def apply(self, data: Any, piece: str | None, key: str, value: Any) -> None:
        """Write a value already checked against its field."""
        if piece is None and key == "turn":
            data.turn = value
            return
        raise ValueError(f"{key!r} cannot be set here")

    @staticmethod
    def flag(unit: Any, name: str, on: bool) -> None:
        """Put a flag on a counter or take it off (a counter's menu's yes-or-no fields)."""
        if on and not unit.has(name):
            unit.flags.append(name)
        elif not on and unit.has(name):
            unit.flags.remove(name)

    def unit(self, data: Any, piece: str) -> Any:
        if piece not in data.units:
            raise ValueError(f"no counter {piece!r} in this game")
        return data.units[piece]

    # --- the figures --------------------------------------------------------------------

    def figures(self, data: Any, pick: Pick) -> list[Figure]:
        """What the rules say of a pick, with what the map shows of it."""
        return []

    def card_choices(self, data: Any) -> list[tuple[str, str]]:
        """The cards a fight's odds may count (id, what it is): none in a game without cards."""
        return []

    def problems(self, data: Any) -> list[str]:
        """What the position breaks, each as a sentence with its rule (flagged, not refused)."""
        return []


class AnalysisBoard:
    """One position being set up: the game's analyst, its presenter for the words, the edits
    made (for an undo), and where a saved position goes."""

    def __init__(self, info: Any, game: Any, data: Any, head: Mapping[str, Any], folder: Path, name: str = "position"):
        self.info = info
        self.game = game
        self.data = data
        self.head = dict(head)
        self.folder = folder
        self.name = name
        self.analyst: Analyst = info.analysis(game)
        self.undone: list[Any] = []
        self._presenter: Any = None
        #: the piece the last placement put on the map (the page picks it)
        self.placed: str | None = None

    # --- the presenter of the position (the map, the hover, explain, the open orders) --------

    @property
    def presenter(self) -> Any:
        if self._presenter is None:
            from hexwar.core.play import PlayState
            from hexwar.core.log import EventLog
            from hexwar.ui.session import Session

            state = PlayState(self.game, self.data, EventLog(dict(self.head)))
            # no side plays here, so no counter is face down to the person who set them up (a
            # position read from a save in progress holds only what its seat saw: ``head``)
            self._presenter = self.info.presenter(Session(state, set(), {}))
        return self._presenter

    # --- edits ----------------------------------------------------------------------------

    def edit(self, op: Mapping[str, Any]) -> str:
        """Apply one edit to a copy; the position changes only if the whole edit holds. Returns
        what was done, in a line; a ``ValueError`` (one line) leaves everything as it was."""
        do = op.get("do")
        if do == "undo":
            if not self.undone:
                raise ValueError("nothing to take back")
            self.data = self.undone.pop()
            self._presenter = None
            return "took back the last change"
        work = copy.deepcopy(self.data)
        a = self.analyst
        piece = op.get("piece")
        if piece is not None and not isinstance(piece, str):
            raise ValueError("piece: a piece's id")
        if do == "place":
            loc = op.get("loc")
            if loc is not None and (not isinstance(loc, str) or loc not in self.game.board):
                raise ValueError(f"no place {loc!r} on this board")
            if not piece:
                raise ValueError("place what? give a piece")
            self.placed = a.place(work, piece, loc)
            said = f"{piece} placed at {self.game.board.label(loc)}" if loc else f"{piece} taken off the map"
        elif do == "set":
            key = op.get("key")
            if not isinstance(key, str):
                raise ValueError("set what? give a key")
            a.set(work, piece or None, key, op.get("value"))
            said = f"{piece + ' ' if piece else ''}{key} set to {op.get('value')}"
        else:
            raise ValueError(f"unknown edit {do!r}: place, set or undo")
        self.undone = (self.undone + [self.data])[-UNDO:]
        self.data = work
        self._presenter = None
        return said

    # --- what the page shows ------------------------------------------------------------

    def problems(self, of_file: bool = True) -> list[str]:
        """What the position breaks: what its file gave twice (``of_file``: YAML kept the
        later), the game's own flags, then the engine's guarantees and the game's invariants
        (each once)."""
        out = list(self.head.get("twice") or []) if of_file else []
        out += self.analyst.problems(self.data)
        try:
            out += self.info.broken(self.game, self.data)
        except Exception as e:  # noqa: BLE001 - a hand-made position may confuse a check; say so
            out.append(f"a check could not read this position ({type(e).__name__}: {e})")
        return list(dict.fromkeys(out))

    def figures(self, pick: Pick) -> list[Figure]:
        """The analyst's figures, then the presenter's explanations of the pick, then the
        orders open from the position that act on it, each with what it costs or risks."""
        out = []
        try:
            out += self.analyst.figures(self.data, pick)
        except ValueError as e:
            out.append(Figure("this pick", [str(e)]))
        p = self.presenter
        asks = []
        at = {x.id: x.loc for x in self.analyst.pieces(self.data)} if self.analyst.explain_pieces else {}
        if pick.piece in at:
            asks.append(pick.piece if not pick.loc or pick.loc == at[pick.piece] else f"{pick.piece} {pick.loc}")
        elif pick.loc:
            asks.append(pick.loc)
        shown = {ln for f in out for ln in f.lines}
        for what in asks:
            lines = said_text(p.explain(what)).splitlines()
            if not set(lines) <= shown:  # what the analyst's figures say already is not said twice
                out.append(Figure(f"explain {self.label(what)}", lines))
        opened = self.open_orders(pick)
        if opened:
            out.append(Figure("orders open from this position", opened))
        return out

    def label(self, what: str) -> str:
        parts = what.split()
        return " ".join(self.game.board.label(x) if x in self.game.board else x for x in parts)

    def open_orders(self, pick: Pick) -> list[str]:
        """The orders the position offers that act on the pick, with their notes."""
        if not (pick.piece or pick.loc):
            return []
        p = self.presenter
        s = p.s
        try:
            if s.is_over():
                return []
            orders = s.legal_orders()
        except Exception as e:  # noqa: BLE001 - a position set up by hand may stop the sequence
            return [f"the game cannot go on from this position ({type(e).__name__}: {e})"]
        view = p.session.view()
        out = []
        kinds: dict[str, int] = {}
        for o in orders:
            kinds[o.kind] = kinds.get(o.kind, 0) + 1
        for o in sorted(orders, key=lambda o: kinds[o.kind]):  # the rarer kinds first: a fight among many moves
            m = p.order_marks(o, view)
            if (pick.piece and pick.piece in m["u"]) or (pick.loc and pick.loc in (m["f"], m["t"])):
                note = p.order_note(o)[0]
                out.append(p.order_line(o) + (f": {note}" if note else ""))
                if len(out) >= MAX_OPEN:
                    out.append(f"... and more ({s.current_side()} to decide)")
                    break
        return out

    def snapshot(self, pick: Pick = Pick()) -> dict[str, Any]:
        """Everything the page shows: the map, the tray, the tracks, the flags and the figures."""
        a, p = self.analyst, self.presenter
        pieces = a.pieces(self.data)
        return {
            "title": f"analysis: {p.title}",
            "svg": p.map_svg(),
            "pieces": [x.to_dict() for x in pieces],
            "tray_word": a.tray_word,
            "sides": list(self.info.sides),
            "seats": [s for s in self.info.seats if self.info.seats[s]],
            "seat": self.info.default_seat,
            "tracks": [f.to_dict() for f in a.tracks(self.data)],
            "fields": [f.to_dict() for f in a.fields(self.data, pick.piece)] if pick.piece else [],
            "cards": [{"id": c, "text": t} for c, t in a.card_choices(self.data)],
            "problems": self.problems(),
            "figures": [f.to_dict() for f in self.figures(pick)],
            "panel": list(p.tracks()),
            "undo": len(self.undone),
            "name": self.name,
        }

    # --- save and play on ---------------------------------------------------------------

    def save(self, name: str | None = None, note: str = "") -> Path:
        """Write the position beside the others (a file name, never a path), whole or not at
        all; a file of that name is replaced only if hexwar wrote it as a position and nobody
        changed it since (issue 70): anything else is a ``ValueError`` in one line."""
        from hexwar.core.files import check, write_text
        from hexwar.core.position import WRITER, dump

        path = self.file_for(name)
        how = check(path, WRITER, hint="")  # the page has no --force: another name
        write_text(path, dump(self.head, self.data, str(self.head.get("seen_by") or "all"), note), WRITER, checked=how)
        self.head["twice"] = []  # the file written gives each value once
        return path

    def file_for(self, name: str | None) -> Path:
        """The position file a name given on the page means: a plain file name in the board's
        folder, ending in .yaml; a ``ValueError`` in one line for a path or a name that is no
        file name."""
        name = (name or self.name).strip()
        if not name or "/" in name or "\\" in name or name.startswith(".") or "\0" in name or not name.isprintable():
            raise ValueError(f"{name[:60]!r}: give a file name (it goes in {self.folder}), not a path")
        if not name.endswith((".yaml", ".yml")):
            name += ".yaml"
        return self.folder / name


def pick_of(query: Mapping[str, Any]) -> Pick:
    """A :class:`Pick` from the page's question (``piece``, ``loc``, and ``attackers`` and
    ``cards`` as comma-separated ids); what is not a string is no pick."""
    def one(key: str) -> str | None:
        v = query.get(key)
        return v.strip() or None if isinstance(v, str) else None

    def ids(key: str) -> tuple[str, ...]:
        v = query.get(key)
        return tuple(x for x in (s.strip() for s in v.split(",")) if x)[:40] if isinstance(v, str) else ()

    return Pick(one("piece"), one("loc"), ids("attackers"), ids("cards"), ids("defend_cards"))
