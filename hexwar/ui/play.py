"""Solitaire play in the terminal: a person commands one side (or several), bots the rest.

``Player`` is the loop every game shares: it lists the legal orders, reads commands, applies
orders (every one goes to a crash-safe save as it is made), undoes by replaying the log
minus its tail, and hands the bots their turns. A game adds its own status, map snapshot
and explanations by subclassing it (``hexwar.games.<game>.play``); the registry names the
subclass.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from rich.console import Console
from rich.markup import escape

from hexwar.core.engine import PlayState, seen_by
from hexwar.core.orders import IllegalOrder, Order
from hexwar.ui.render import EVERYONE
from hexwar.ui.words import (
    PAST,
    SECTION,
    cites,
    describe,
    fold_order,
    holding,
    list_examples,
    verb,
    verb_counts,
)

COMMANDS = (
    ("<number>", "give the order with that number from the list"),
    ("<order text>", "give an order typed as listed, e.g.  pass"),
    ("list [words]", "list the legal orders (all, or those whose text contains every word)"),
    ("<verb> <unit> <place>", "a short order: that unit's cheapest order of the verb that ends there (move <unit> <place>)"),
    ("map", "write an SVG snapshot of the map and print its path"),
    ("explain <what>", "how a number was reached, with its rule; explain <order number> weighs an order first"),
    ("undo [n]", "take back your last order (or n orders)"),
    ("save [file]", "copy the game to another file (it is always saved as you play)"),
    ("status", "show turn, phase and the game's tracks"),
    ("rules [term]", "what a term or a section number of the rules means"),
    ("help", "this text"),
    ("quit", "leave (the game stays saved; resume with --load)"),
)

MAX_LISTED = 30
#: the orders a line that is not understood is shown, at most (those holding all its words)
NEAR_SHOWN = 5
#: the terms ``rules <word>`` defines at once when several have the word (more: their names)
GLOSSARY_SHOWN = 3
def progress_line(side: str, name: str, p: dict[str, Any]) -> str:
    """What a thinking search bot shows the player: time against its budget and playouts,
    never the orders it weighs (they would name its face-down counters, 11.0)."""
    done = ", clear: answered early" if p.get("settled") else ""  # the time it took says as much
    return f"{side} ({name}) is thinking: {p['elapsed']:.1f}/{p['budget']:g} s, {p['iterations']} playouts{done}"


class Player:
    """The interactive loop over one game; ``humans`` are the sides the person commands."""

    title = "a game"
    game_name = ""
    #: the game's own lines of the help text, by command (they replace the generic ones)
    commands: tuple[tuple[str, str], ...] = ()
    #: who else hears a search bot's progress line (the web board), besides the console
    on_progress: Callable[[str], None] | None = None
    #: whether ``save FILE`` may name any path (the terminal); the web board's page may not
    copies_anywhere = True

    def __init__(self, state: PlayState, humans: set[str], bots: Mapping[str, Any], console: Console,
                 save_path: Path | None, read: Callable[[str], str], snapshots: Path | None = None):
        self.s = state
        self.humans = humans
        self.bots = bots
        self.out = console
        self.save_path = save_path
        self.read = read
        self.snapshots = snapshots  # the folder map snapshots go to (None: beside the save)
        sides = set(humans) | set(bots)
        # what the person may see: their own sides' secrets, not the bots' (all: hot seat, none: watching)
        self._sees: frozenset[str] | None = frozenset(humans) if humans and humans != sides else None
        # the map's eyes: the one side played; every side's for a game only watched (nothing
        # is secret from nobody), an onlooker's (no face-down counter turned) in a hot seat
        self._viewer = next(iter(humans)) if len(humans) == 1 else None if humans else EVERYONE
        self.game: Any = state.game  # the game object (board, tables, scenario)
        self._confirm: Order | None = None  # a game-ending order typed once, awaiting its repeat
        self._bot_turn: list[Order] = []  # the bots' orders since the person's last decision

    @property
    def sees(self) -> frozenset[str] | None:
        """The sides whose secrets the person may see (None: every side's); once the game is
        over, every side's: the counters are turned up, the hands shown."""
        return None if self.s.is_over() else self._sees

    @property
    def viewer(self) -> str | None:
        """The side the map is drawn for (None: an onlooker); once the game is over, everyone."""
        return EVERYONE if self.s.is_over() else self._viewer

    # --- display --------------------------------------------------------------------

    def status(self) -> None:
        """Show the game's tracks (a game's player says more)."""
        self.out.print(self.s.result().level, markup=False)

    def visible(self, u: Any) -> bool:
        return self.sees is None or u.side in self.sees or not u.concealed

    def view(self) -> Any:
        """The state as the person may see it (everything only when they play every side, or none)."""
        return seen_by(self.game, self.s.data, self.sees)

    def order_text(self, order: Order) -> str:
        """An order just applied, as the person may see it."""
        return order.text() if self.sees is None else self.game.visible_order(self.s.data, order, self.sees)

    def visible_events(self, events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """An order's events as the person may see them."""
        return list(events) if self.sees is None else self.game.visible_events(self.s.data, list(events), self.sees)

    def newest_events(self, *types: str) -> Iterator[tuple[Any, dict[str, Any]]]:
        """The log's events of these types as the person may see them, newest first, each with
        its entry (``explain last``'s combat; a game's last fight)."""
        for entry in reversed(self.s.log.entries):
            for ev in reversed(self.visible_events(entry.events)):
                if ev.get("type") in types:
                    yield entry, ev

    def show_events(self, events: Iterable[dict[str, Any]]) -> None:
        for e in self.visible_events(events):
            self.out.print("  " + self.describe(e), markup=False)

    def describe(self, e: Mapping[str, Any]) -> str:
        """One event as a line of text (a game's player words its own events)."""
        return describe(e)

    def list_orders(self, legal: list[Order], word: str = "") -> None:
        words = word.lower().split()
        shown = holding(words, legal)
        if words and not shown:
            self.out.print(f"no match: no legal order contains {word!r} ({len(legal)} orders; list shows them all)", markup=False)
            return
        if not words and len(shown) > MAX_LISTED:
            kinds = verb_counts(legal)  # by the word the orders begin with, as typed
            self.out.print(f"{len(legal)} legal orders: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())), markup=False)
            examples = ", ".join(f"list {w}" for w in list_examples(legal, kinds))
            self.out.print("showing the first ones; 'list <words>' filters" + (f" (e.g. {examples})" if examples else ""),
                           markup=False)
        cap = MAX_LISTED if not words else 200
        for i, o in shown[:cap]:
            self.out.print(f"  {i:>3}  {o.text()}", markup=False)
        if len(shown) > cap:
            self.out.print(f"  ... {len(shown) - cap} more: add a word to narrow the list", markup=False)

    # --- the loop -------------------------------------------------------------------

    def run(self) -> int:
        self.out.print(f"{self.title}: you command {', '.join(sorted(self.humans)) or 'nobody'}; type help for commands.")
        if self.save_path:
            self.out.print(f"saving every order to {self.save_path}", markup=False)
        last_listed_for = None
        while not self.s.is_over():
            side = self.s.current_side()
            legal = self.s.legal_orders()
            if side not in self.humans:
                self._bot_turn.append(self.bot_move())
                continue
            if self._bot_turn:
                self.out.print(self.bot_summary(self._bot_turn), markup=False)
                self._bot_turn = []
            key = (len(self.s.log), side)
            if key != last_listed_for:
                self.out.rule(self.heading(side))
                self.list_orders(legal)
                last_listed_for = key
            line = self.read(f"{side}> ").strip()
            if not line:
                continue
            if self.command(line, legal) == "quit":
                return 0
        self.out.rule("game over")
        self.out.print(self.final_line(), markup=False)
        return 0

    def bot_move(self) -> Order:
        """The bot whose decision it is gives its order, from its own side's view."""
        side = self.s.current_side()
        bot = self.bots[side]
        with self.out.status(f"{side} ({bot.name}) is thinking...") as status:
            if bot.thinks:  # a search bot says how its search stands as it goes
                # time and playouts only: its candidate orders name its own counters, which
                # may be face down to the player watching (11.0)
                def show(p: dict[str, Any]) -> None:
                    line = progress_line(side, bot.name, p)
                    status.update(line)
                    if self.on_progress is not None:
                        self.on_progress(line)  # the web board's thinking line
                bot.progress = show
            order = bot.choose(self.s.view_for((side,)), self.s.legal_orders())
        events = self.s.apply(order)
        self.out.print(f"[bold]{side}[/]: " + escape(self.order_text(order)))
        self.show_events(events)
        return order

    def bot_summary(self, orders: list[Order]) -> str:
        """The bots' turn in a sentence per side: how many orders of each kind, and where."""
        by_side: dict[str, dict[str, list[str]]] = {}
        view = self.view()
        for o in orders:
            m = self.order_marks(o, view)
            where = m["t"] or m["f"] or ""
            by_side.setdefault(o.side, {}).setdefault(verb(o), []).append(where)
        parts = []
        for side, kinds in by_side.items():
            said = []
            for first, places in kinds.items():
                at = sorted({self.place_word(p) for p in places if p})
                n = len(places)
                word = self.past.get(first) or PAST.get(first, first)
                said.append(f"{word}{f' {n} times' if n > 1 else ''}"
                            + (f" ({', '.join(at[:6])}{' ...' if len(at) > 6 else ''})" if at else ""))
            parts.append(f"the {side} " + ", ".join(said))
        return "while you waited: " + "; ".join(parts)

    def place_word(self, loc: str) -> str:
        """A place as the summaries name it (a hex by its number; a game may use names)."""
        return loc

    def final_line(self) -> str:
        return self.s.result().level

    def heading(self, side: str) -> str:
        return f"turn {self.s.data.turn} · {self.s.data.phase} · {side} decides"

    @property
    def resume(self) -> str:
        """The command that resumes this game."""
        return f"hexwar play {self.game_name or self.game.name} --load "

    def command(self, line: str, legal: list[Order]) -> str | None:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            self.out.print("game saved; resume with: " + self.resume + shlex.quote(str(self.save_path or "")), markup=False)
            return "quit"
        if word in ("help", "?", "h"):
            self.out.print(self.help_text(), markup=False)
            return None
        if word in ("list", "ls", "l"):
            self.list_orders(legal, rest.strip())
            return None
        if word == "status":
            self.status()
            return None
        if word == "map":
            try:
                self.out.print(f"map written to {self.snapshot(supply=rest.strip() == 'supply')}", markup=False)
            except OSError as e:  # a snapshot folder that cannot be made or written: say so, play on
                self.out.print(f"cannot write the map: {e.filename or self.snapshots}: {e.strerror}", markup=False)
            return None
        if word == "explain":
            arg = rest.strip()
            order = self.listed_order(arg, legal)
            said = order if isinstance(order, str) else self.explain(arg) if order is None else self.explain_order(order)
            self.out.print(said, markup=False)
            return None
        if word == "rules":
            self.out.print(self.rules_text(rest.strip()), markup=False)
            return None
        if word == "undo":
            if rest.strip() and not rest.strip().isdigit():
                self.out.print(f"undo takes a number of your orders (undo, undo 3), not {rest.strip()!r}", markup=False)
                return None
            n = int(rest) if rest.strip() else 1
            if n < 1:
                self.out.print("undo takes a number of your orders from 1 up", markup=False)
                return None
            n = self.undo_count(n)
            if n == 0:
                self.out.print("nothing of yours to undo")
                return None
            self.s.undo(n)
            self.out.print(f"took back {n} order(s)")
            return None
        if word == "save":
            from hexwar.core.log import SaveError, SaveFile

            if not rest.strip():
                self.out.print(f"every order is saved to {self.save_path} as you play; save FILE writes a copy", markup=False)
                return None
            dest = self.copy_path(rest.strip())
            if isinstance(dest, str):
                self.out.print(f"not saved: {dest}", markup=False)
                return None
            try:
                SaveFile(dest).create(self.s.log)
            except SaveError as e:
                self.out.print(f"not saved: {e}", markup=False)
                return None
            self.out.print(f"saved to {dest}", markup=False)
            return None
        order = self.parse(line, legal)
        if order is None:
            self.out.print(self.not_understood(line, legal), markup=False)
            return None
        confirmed, self._confirm = order == self._confirm, None
        if not confirmed and (warning := self.think_twice(order)) is not None:
            self._confirm = order
            self.out.print(f"{warning}. Give it again to confirm (type or click it); anything else plays on.", markup=False)
            return None
        try:
            self.show_events(self.s.apply(order))
        except IllegalOrder as e:
            self.out.print(f"refused: {e}", markup=False)
        return None

    def copy_path(self, name: str) -> Path | str:
        """Where ``save NAME`` writes its copy, or why it may not. The terminal's person names
        any path; the web board's page only a plain file name, put beside the game's save
        (nothing a page sends names a path: issue 51)."""
        if self.copies_anywhere:
            return Path(name)
        if name in (".", "..") or name.startswith(".") or any(c in name for c in "/\\\0") or not name.isprintable():
            return f"the board saves a copy by a plain file name, beside the game's save (not {name[:60]!r})"
        if len(name.encode("utf-8")) > 200:
            return "a file name is at most 200 bytes"
        folder = self.save_path.resolve().parent if self.save_path else Path.cwd()
        return folder / (name if Path(name).suffix else f"{name}.hexwar")

    def completions(self, line: str) -> list[str]:
        """What may come next on a line being typed: the next word of every legal order or
        command that starts so (Tab completion)."""
        done, _, part = line.rpartition(" ")
        head = (done + " ") if done else ""
        legal = self.s.legal_orders() if not self.s.is_over() and self.s.current_side() in self.humans else []
        texts = [o.text() for o in legal] + [c.split()[0] for c, _ in COMMANDS if not c.startswith("<") and self.offers(c)]
        out = set()
        for t in texts:
            if t.startswith(head + part):
                out.add(t[len(head):].split(" ", 1)[0])
        return sorted(out)

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th completion of the current word."""
        import readline

        options = self.completions(readline.get_line_buffer()[: readline.get_endidx()])
        return options[state] if state < len(options) else None

    def no_such_move(self, line: str, legal: list[Order]) -> str:
        """Why a short move (``move UNIT PLACE``) of a unit the person sees, to a place of the
        board, is no listed order: the unit cannot get there (the game's ``explain_move`` says
        so in one line, where a way there is a ledger), or may not move now (``why_not_move``);
        "" for any other line."""
        w = line.split()
        explain_move = getattr(self, "explain_move", None)
        if len(w) != 3 or w[0].lower() != "move" or ">" in w[2] or explain_move is None or w[2] not in self.game.board:
            return ""
        units = getattr(self.view(), "units", {})
        uid = next((x for x in units if x.lower() == w[1].lower()), None)
        if uid is None or any(getattr(o, "unit", None) == uid and o.text().lower().startswith("move ") for o in legal
                              if (getattr(o, "path", None) or ("",))[-1] == w[2]):
            return ""
        said = str(explain_move(uid, w[2]))
        mine = any(getattr(o, "unit", None) == uid for o in legal)
        if "\n" not in said:  # one line: the reason it cannot get there
            return f"no move of {uid} to {w[2]}: {said}"
        if why := self.why_not_move(uid):
            return f"no move of {uid} to {w[2]} now: {why}"
        return (f"no move of {uid} to {w[2]} is listed now" + ("" if mine else f" ({uid} has no order now)")
                + f"; its way there: explain {uid} {w[2]}")

    def why_not_move(self, uid: str) -> str:
        """Why a unit that could get somewhere may not move now, in words with the rule ("" if
        it may, or if the game has no such reason): a game's player asks its game."""
        return ""

    def not_understood(self, line: str, legal: list[Order]) -> str:
        """What a line that is no command and no order gets: the listed orders that hold
        every word of it, numbered as listed, in the order typed where some do (``move
        bardufoss narvik`` finds ``move 1 bardufoss>narvik``), the first few of them; or
        where to look when none does."""
        why = self.no_such_move(line, legal)
        if why:
            return why
        words = line.lower().replace(">", " ").split()
        near = holding(words, legal, in_order=True) or holding(words, legal)
        if not words or not near:
            kinds = verb_counts(legal)
            if words and legal:  # the kinds of order there are now ('pass' typed at a retreat)
                return (f"not understood: {line!r}; the orders now: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
                        + " (list shows them)")
            return f"not understood: {line!r} (type help, or list to see orders)"
        shown = [f"{i:>5}  {o.text()}" for i, o in near[:NEAR_SHOWN]]
        more = len(near) - NEAR_SHOWN
        those = "those words" if len(words) > 1 else "that word"
        tail = [f"  ... and {more} more; 'list {' '.join(words)}' shows every order with {those}"] if more > 0 else []
        return "\n".join([f"not understood: {line!r}; the orders with {those} (type a number):"] + shown + tail)

    def offers(self, command: str) -> bool:
        """Whether this game has a command of the shared list: ``rules`` needs a glossary, a
        short order needs orders that name their units."""
        key = command.split()[0]
        if key == "rules":
            return bool(self.glossary)
        return key != "<verb>" or self.short_orders

    def help_text(self) -> str:
        """The commands this game has, the game's own wording first where it has one; the
        ``rules`` line names two of the game's own terms."""
        own = {c.split()[0]: (c, t) for c, t in self.commands}
        lines = ["Commands"]
        done = set()
        for c, t in COMMANDS:
            key = c.split()[0]
            if not self.offers(c):
                continue
            if key in own and key not in done:
                done.add(key)
                lines += [_help_line(oc, ot) for oc, ot in self.commands if oc.split()[0] == key]
            elif key not in own:
                if key == "rules":
                    t += " (" + ", ".join(f"rules {k}" for k in (self.glossary_examples or tuple(self.glossary)[:2])) + ")"
                lines.append(_help_line(c, t))
        return "\n".join(lines)

    def think_twice(self, order: Order) -> str | None:
        """Why an order is given only when typed twice (None: at once): here, an order that
        ends the game whatever the dice; a game's player adds its own."""
        why = self.ends_the_game(order)
        return None if why is None else f"this order ends the game{why}"

    def ends_the_game(self, order: Order) -> str | None:
        """If ``order`` ends the game whatever the dice: how (``": why"`` or ``""``); else None.

        The order is tried on a copy with dice that refuse to roll, so an order whose outcome
        rests on a die is never flagged and no die is drawn or shown before it is given."""
        from hexwar.core.dice import Dice, DiceExhausted

        work = self.s.data.clone()
        try:
            self.game.apply(work, order, Dice.replaying([]))
        except (DiceExhausted, IllegalOrder, TypeError, ValueError, KeyError, IndexError, AttributeError):
            return None  # a die asked for, or an order the real apply refuses with its reason (as PlayState._apply)
        if not work.over:
            return None
        return self.ending(work)

    #: terms of the rules a player may ask about: term -> (meaning, section)
    glossary: Mapping[str, tuple[str, str]] = {}
    #: the terms the help's ``rules`` line names (default: the glossary's first two)
    glossary_examples: tuple[str, ...] = ()
    #: whether orders name their units, so ``move <unit> <place>`` can pick one (a game
    #: whose orders move battalions by number, like Kampen om Norge, has no short orders)
    short_orders = True
    #: the game's own order verbs in the past tense, for the bots' turn in a sentence
    #: (``bot_summary``); the verbs several games share are in ``PAST``
    past: Mapping[str, str] = {}

    def rules_text(self, term: str) -> str:
        """What a term of the rules means, with its section; all terms when none is asked."""
        if not self.glossary:
            return "this game has no glossary of terms yet"
        if not term:
            return "terms: " + ", ".join(sorted(self.glossary, key=str.lower)) + "  (rules <term>)"
        low = " ".join(term.lower().split())
        key = next((k for k in self.glossary if k.lower() == low), None)
        # else part of a term's name: "rules mobilisation"; up to three terms: "rules supply"; a
        # plural finds its singular: "rules dummies", "rules sixes"
        forms = [low] + [low[:-n] + end for tail, n, end in (("ies", 3, "y"), ("s", 1, ""), ("es", 2, ""))
                         if low.endswith(tail) and len(low) > n + 1]
        near = [key] if key is not None else next(
            (hit for f in forms if (hit := [k for k in self.glossary if f in k.lower()])), [])
        head = f"no term {term!r}; terms:"  # named by the term's name: the definitions alone
        said_by_name = bool(near)
        if not near and SECTION.fullmatch(low):  # a section, as explain cites them: "rules 19.4"
            near = [k for k, (_m, secs) in self.glossary.items() if cites(secs, low)]
            head = f"section {term} is cited by:"
        if not near:  # a word of the definitions: "rules ridge"
            near = next((hit for f in forms if (hit := [k for k, (m, _s) in self.glossary.items()
                                                        if re.search(rf"\b{re.escape(f)}", m.lower())])), [])
            head = f"no term {term!r}; it comes up in:"
        if not near:
            return f"no term {term!r}; terms: {', '.join(sorted(self.glossary, key=str.lower))}"
        if len(near) > GLOSSARY_SHOWN:
            return f"{head} {', '.join(sorted(near, key=str.lower))}"
        said = [f"{k}: {self.glossary[k][0]}  [{self.glossary[k][1]}]" for k in sorted(near, key=str.lower)]
        return "\n".join(said if said_by_name else [head] + said)

    def ending(self, data: Any) -> str:
        """How a finished game ended, for the warning before a game-ending order (a game's player says more)."""
        return ""

    def undo_count(self, n: int) -> int:
        """Return how many log entries to drop so that the player's last n orders go (bots' too)."""
        entries = self.s.log.entries
        mine = 0
        for k in range(len(entries) - 1, -1, -1):
            if entries[k].order.get("side") in self.humans:
                mine += 1
                if mine == n:
                    return len(entries) - k
        return 0

    def parse(self, line: str, legal: list[Order]) -> Order | None:
        """An order by its number, its text as listed, or in short: ``VERB UNIT PLACE`` gives
        the cheapest of the unit's orders of that verb that end there (``move 7-I/16 2505``
        picks the path with the fewest MP, ``sail LC-1 2408`` the shortest voyage)."""
        if line.isdigit():
            i = int(line)
            return legal[i - 1] if 1 <= i <= len(legal) else None
        low = " ".join(line.lower().split())
        for o in legal:
            if o.text().lower() == low:
                return o
        # without copy numbers and accents: "ship gneisenau vii", "choose bloff_trusler"
        folded = [o for o in legal if fold_order(o.text()) == fold_order(line)]
        if len(folded) == 1:
            return folded[0]
        return self.short_order(low, legal)

    def short_order(self, low: str, legal: list[Order]) -> Order | None:
        w = low.split()
        if len(w) != 3 or ">" in w[2]:
            return None
        verb, who, dest = w
        hits = []
        view = self.view()
        for o in legal:
            if o.text().lower().split(" ", 1)[0] != verb:
                continue
            m = self.order_marks(o, view)
            if m["t"] is not None and m["t"].lower() == dest and ",".join(m["u"]).lower() == who:
                hits.append(o)
        if not hits:
            return None

        def cost(o: Order) -> tuple[float, int]:
            c = self.order_note(o)[1]
            return (c if c is not None else 0.0, len(o.text()))
        return min(hits, key=cost)

    # --- what the web board asks (a game's player says more) -----------------------

    def order_marks(self, order: Order, view: Any = None) -> dict[str, Any]:
        """Where an order acts on the map: its units (``u``), the place it starts from (``f``)
        and the place it ends at or aims at (``t``), read from the order's own fields.
        ``view``: the person's view, when the caller marks many orders (made once, not per order)."""
        units: list[str] = []
        for key in ("unit", "ship"):
            if isinstance(v := getattr(order, key, None), str) and v:
                units.append(v)
        for key in ("units", "ships"):
            units += [x for x in getattr(order, key, ()) or () if isinstance(x, str)]
        path = tuple(getattr(order, "path", ()) or ())
        # ``then``: where ships sail on to after the order's own act (a landing's or an
        # unloading's way home), which starts where that act takes place
        then = tuple(getattr(order, "then", ()) or ())
        to = path[-1] if path else next((v for k in ("target", "hex", "dst", "area", "port")
                                         if isinstance(v := getattr(order, k, None), str) and v), None) \
            or (then[0] if then else None)
        frm = path[0] if path else (then[0] if then else getattr(order, "src", None) or None)
        if frm is None and units:
            u = getattr(view if view is not None else self.view(), "units", {}).get(units[0])
            frm = getattr(u, "loc", None)
        return {"u": units, "f": frm, "t": to}

    def order_note(self, order: Order) -> tuple[str, float | None]:
        """What an order costs or risks, for the web board (MP, odds); and a number to pick
        the cheapest of several orders to one place by (None: no preference)."""
        return "", None

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

    def tracks(self) -> list[str]:
        """The game's tracks for the side panel (turn, points, decks)."""
        return [f"turn {self.s.data.turn}", f"{self.s.data.phase}"]

    def map_svg(self) -> str:
        """The board as the person may see it, as an SVG (the terminal's snapshot and the web board)."""
        from hexwar.games.registry import get

        return str(get(self.game.name).render(self.game, self.view(), viewer=self.viewer,
                                              title=f"turn {self.s.data.turn}, {self.s.data.phase}"))

    def hand(self) -> list[dict[str, Any]]:
        """The cards the person holds, if the game has cards: name, text and the orders that play each."""
        return []

    # --- what a game adds ------------------------------------------------------------

    def snapshot(self, supply: bool = False) -> Path:
        """Write an SVG of the board as the player may see it; return its path."""
        path = self.snapshot_path(f"turn{self.s.data.turn:02d}")
        path.write_text(self.map_svg(), encoding="utf-8")
        return path

    def snapshot_path(self, when: str) -> Path:
        """Where the next snapshot goes: the snapshot folder (made if need be), named after the save."""
        stem = (self.save_path or Path(f"{self.game.name}-game.hexwar")).name
        folder = self.snapshots if self.snapshots is not None else (self.save_path or Path(stem)).resolve().parent
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{stem}.{when}.{len(self.s.log):04d}.svg"

    def explain(self, what: str) -> str:
        return f"this game explains nothing yet (not {what!r})"

    def listed_order(self, arg: str, legal: list[Order]) -> Order | str | None:
        """The listed order ``explain`` names: by its number (a number that is a place of the
        board names the place: explain 2215 is the hex), or by its text as listed or in short
        (``explain assault 2215 with 1IG``). A number past the list gets a reason; anything
        else (a unit, a place, a card, last) is None, for the game's own explain."""
        if arg.isdigit():
            if arg in self.game.board:
                return None
            if not 1 <= int(arg) <= len(legal):
                return f"no order {int(arg)}: the list has {len(legal)} (list shows them)"
        elif len(arg.split()) < 2:
            return None
        return Player.parse(self, arg, legal)  # by number, by text, or in short

    def explain_order(self, order: Order) -> str:
        """An order before it is given: what it costs or risks (a game's player says more)."""
        note = self.order_note(order)[0]
        return f"{order.text()}: {note}" if note else f"{order.text()}: no cost or odds worked out for it before it is given"


def _help_line(command: str, text: str) -> str:
    return f"  {command:<20}{text}" if len(command) < 20 else f"  {command}   {text}"
