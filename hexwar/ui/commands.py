"""The line a person types (or a web page sends) read as a command or an order: ``list``,
``explain``, ``rules``, ``undo``, ``save``, ``map``, ``status``, ``help``, an order by its
number, its text or in short. Shared by the terminal and the web board; the words come from
the game's presenter, the game from its session."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from rich.console import Console
from rich.markup import escape

from hexwar.core.files import Job, Refused
from hexwar.core.game import Event
from hexwar.core.orders import IllegalOrder, Order
from hexwar.ui.presenter import Presenter, briefing
from hexwar.ui.words import SECTION, cites, fold_order, holding, list_examples, said_data, said_text, verb, verb_counts

COMMANDS = (
    ("<number>", "give the order with that number from the list"),
    ("<order text>", "give an order typed as listed, e.g.  pass"),
    ("list [words]", "list the legal orders (all, or those whose text contains every word)"),
    ("<verb> <unit> <place>", "a short order: that unit's cheapest order of the verb that ends there (move <unit> <place>)"),
    ("map", "write an SVG snapshot of the map and print its path"),
    ("explain <what>", "how a number was reached, with its rule; explain <order number> weighs an order first"),
    ("undo [n]", "take back your last order (or n orders)"),
    ("save [file]", "copy the game to another file (it is always saved as you play)"),
    ("wait", "pass, and let pass every decision after it that needs nothing of you, until one does"),
    ("hint [seconds]", "the search bot's three best orders for you now, by expected margin, with win chances (400 playouts, or as long as you say)"),
    ("review [seconds]", "your decisions so far searched again: those that lost the most expected margin, with the order the search preferred and why (0.5 s each)"),
    ("brief", "the briefing: the situation, the aims, your forces, a turn, the decision before you"),
    ("status", "show turn, phase and the game's tracks"),
    ("rules [term]", "what a term or a section number of the rules means"),
    ("help", "this text"),
    ("quit", "leave (the game stays saved; resume with --load)"),
)

MAX_LISTED = 30
#: the most lines a folded list takes (a decision of hundreds of orders, issue 53)
MAX_FOLDED = 38
#: the orders a line that is not understood is shown, at most (those holding all its words)
NEAR_SHOWN = 5
#: the terms ``rules <word>`` defines at once when several have the word (more: their names)
GLOSSARY_SHOWN = 3


def short_path(text: str, most: int = 4) -> str:
    """An order's text with each long path cut to its ends (``harstad>0111>...>1315, 16
    steps``): a list stays a line per order; its number still gives the whole order."""
    words = []
    for w in text.split(" "):
        p = w.split(">")
        words.append(f"{p[0]}>{p[1]}>...>{p[-1]} ({len(p) - 1} steps)" if len(p) > most else w)
    return " ".join(words)


def by_where(shown: list[tuple[int, Order]], where: Mapping[int, str | None],
             line: Callable[[Order], str] | None = None) -> list[str]:
    """One unit's orders of one kind (a fleet's sailings) in at most ``MAX_FOLDED`` lines,
    grouped by where they lead (the presenter's words), the fewest first (a landing's few
    shores before the open sea's many); each group's first orders by number (as ``line``
    shows an order: the presenter's ``order_line``), the rest named by the words that open
    them."""
    line = line or (lambda o: o.text())
    parts: dict[str, list[tuple[int, Order]]] = {}
    for i, o in shown:
        parts.setdefault(where.get(i) or "elsewhere", []).append((i, o))
    ordered = sorted(parts.items(), key=lambda kv: len(kv[1]))
    room = max(MAX_FOLDED - 2 * len(ordered) - 1, len(ordered))
    out: list[str] = []
    for n, (words, items) in enumerate(ordered):
        share = max(1, room // (len(ordered) - n))
        take = items if len(items) <= share else items[:max(share - 1, 1)]
        room -= len(take)
        out.append(f"  {words}: {len(items)} order{'s' if len(items) != 1 else ''}")
        out += [f"  {i:>5}  {short_path(line(o))}" for i, o in take]
        if len(take) < len(items):
            room -= 1
            head = " ".join(items[0][1].text().lower().split()[:2])
            out.append(f"         ... {len(items) - len(take)} more: list {head} <place> opens them "
                       f"(e.g. list {head} {items[len(take)][1].text().split()[-1].split('>')[-1]})")
    return out + ["  a number gives its order; list <words> opens a group"]


def progress_line(side: str, name: str, p: dict[str, Any]) -> str:
    """What a thinking search bot shows the player: time against its budget and playouts,
    never the orders it weighs (they would name its face-down counters, 11.0)."""
    done = ", clear: answered early" if p.get("settled") else ""  # the time it took says as much
    return f"{side} ({name}) is thinking: {p['elapsed']:.1f}/{p['budget']:g} s, {p['iterations']} playouts{done}"


#: the play loop's map snapshots (``map``): each replaces only a snapshot it wrote (issue 70)
SNAPSHOT = Job("map snapshot")


def outcome_lines(outcome: Mapping[str, Any]) -> list[Any]:
    """A line's outcome (``Commands.outcome``) as the terminal says it: the events of an order
    given, the reason and rule of a refusal, the warning of an order to confirm, why a line was
    not understood, an explanation's sentences and ledgers. The web board renders the same
    data on its page."""
    kind = outcome["kind"]
    if kind == "given":
        return list(outcome["events"])
    if kind == "refused":
        return [f"refused: {outcome['reason']}" + (f" ({outcome['rule']})" if outcome["rule"] else "")]
    if kind == "confirm":
        return [f"{outcome['warning']}. Give it again to confirm (type or click it); anything else plays on."]
    if kind == "explained":
        return [said_text([p["text"] if "text" in p else p["ledger"] for p in outcome["parts"]])]
    return [outcome["why"]]


class Commands:
    """Reads lines for one game: ``presenter`` gives the words, ``out`` prints them.
    ``copies_anywhere``: whether ``save FILE`` may name any path (the terminal); a web
    page names only a plain file, put beside the game's save."""

    #: who else hears a search bot's progress line (the web board), besides the console
    on_progress: Callable[[str], None] | None = None

    def __init__(self, presenter: Presenter, out: Console, copies_anywhere: bool = True):
        self.presenter = presenter
        self.session = presenter.session
        self.out = out
        self.copies_anywhere = copies_anywhere
        self._confirm: Order | None = None  # a game-ending order typed once, awaiting its repeat
        self._waiting: tuple[int, int] | None = None  # wait: (the turn it was typed in, passes given)
        #: what came of the last order line or ``explain``, as data (:meth:`give`; None after any other command)
        self.outcome: dict[str, Any] | None = None

    # --- one line ---------------------------------------------------------------------

    def command(self, line: str, legal: list[Order]) -> str | None:
        """Carry out one line; "quit" when the person leaves."""
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        p, sess = self.presenter, self.session
        self.outcome = None
        if word in ("quit", "exit", "q"):
            self.say(f"game saved; resume with: hexwar play {sess.game.name} --load {shlex.quote(str(sess.save_path or ''))}")
            return "quit"
        if word in ("help", "?", "h"):
            self.say(self.help_text())
        elif word in ("list", "ls", "l"):
            self.list_orders(legal, rest)
        elif word == "brief":
            for line in briefing(p):
                self.say(line)
        elif word == "wait":
            self.wait(legal)
        elif word == "hint":
            self.hint(rest)
        elif word == "review":
            from hexwar.ui.coach import review_now

            for said in review_now(sess, rest, line=self.presenter.order_line):
                self.say(said)
        elif word == "status":
            for part in p.status_lines():
                self.say(part)
        elif word == "map":
            try:
                self.say(f"map written to {self.snapshot(rest)}")
            except OSError as e:  # a snapshot folder that cannot be made or written: say so, play on
                self.say(f"cannot write the map: {e.filename or sess.snapshots}: {e.strerror}")
            except Refused as e:
                self.say(f"cannot write the map: {e}")
        elif word == "explain":
            order = self.listed_order(rest, legal)
            if order is None and p.short_orders and len(rest.split()) == 3:  # a short order: "move 7-Alta 2306"
                order = self.short_order(rest.lower(), legal)
                if order is None:  # none such now: the unit and the place, which says why not
                    rest = rest.split(" ", 1)[1]
            if isinstance(order, str):  # why the number or the order named is none listed
                self.say(order)
            else:
                answer = p.explain(rest) if order is None else p.explain_order(order)
                # the answer as data (the web board draws each ledger with its rules), said as text here
                self.outcome = {"kind": "explained", "asked": rest, "parts": said_data(answer)}
                for line in outcome_lines(self.outcome):
                    self.say(line)
        elif word == "rules":
            self.say(self.rules_text(rest))
        elif word == "undo":
            self.undo(rest)
        elif word == "save":
            self.save_copy(rest)
        else:
            self.give(line, legal)
        return None

    def say(self, part: Any) -> None:
        """Print a line of text (never read as markup) or a rich renderable."""
        if isinstance(part, str):
            self.out.print(part, markup=False)
        else:
            self.out.print(part)

    def give(self, line: str, legal: list[Order]) -> None:
        """Give the order a line means, once confirmed where it must be; else say why not.
        What came of it is :attr:`outcome` (data: the web board's answer), said as text here."""
        self.outcome = self._give(line, legal)
        for said in outcome_lines(self.outcome):
            self.say(said)

    def _give(self, line: str, legal: list[Order]) -> dict[str, Any]:
        order = self.parse(line, legal)
        if order is None:
            return {"kind": "not understood", "line": line, "why": self.not_understood(line, legal)}
        label = self.presenter.order_line(order)
        confirmed, self._confirm = order == self._confirm, None
        if not confirmed and (warning := self.presenter.think_twice(order)) is not None:
            self._confirm = order
            return {"kind": "confirm", "order": label, "warning": warning}
        try:
            events = self.session.s.apply(order)
        except IllegalOrder as e:
            return {"kind": "refused", "order": label, "reason": e.reason, "rule": e.rule}
        return {"kind": "given", "order": label, "events": self.presenter.event_lines(events)}

    def hint(self, rest: str) -> None:
        """The coach's hint (``hexwar.ui.coach``): the search's best orders for the person now."""
        from hexwar.ui.coach import HINT_PLAYOUTS, hint

        try:
            think = float(rest) if rest else None  # none given: a fixed number of playouts
        except ValueError:
            think = -1.0
        if think is not None and not 0.05 <= think <= 60:
            self.say(f"hint takes the seconds the search may think, from 0.05 to 60 (not {rest!r})")
            return
        if len(self.session.legal()) > 1:  # a search to wait for: say so first
            self.say(f"the search bot weighs your decision ({f'{think:g} s' if think else f'{HINT_PLAYOUTS} playouts'}) ...")
        advice, said = hint(self.session, self.presenter, think)
        self.say(said)
        for rank, a in enumerate(advice, 1):
            self.say("  " + a.line(rank))
        if len(advice) > 1:
            self.say("  (give one by its order number; these are the search's estimates, from playouts of a turn or so)")

    def wait(self, legal: list[Order]) -> None:
        """Pass now, then pass every decision of the person's after it that needs nothing of
        them (the presenter's ``waits``), until one does, the turn ends or the game does: the
        loop that shows the person their decisions asks :meth:`keep_waiting` at each."""
        first = next((o for o in legal if o.kind == "pass"), None)
        if first is None:
            self.say("wait: this decision has no pass; it needs an order of yours (list shows them)")
            return
        self._waiting = (self.session.s.data.turn, 0)
        self.keep_waiting(legal, first)

    def keep_waiting(self, legal: list[Order], order: Order | None = None) -> bool:
        """At a decision of the person's while ``wait`` is on: give its pass (True), or end the
        wait and say how many decisions it let pass (False, and nothing given)."""
        if self._waiting is None:
            return False
        s = self.session.s
        turn, n = self._waiting
        if order is None and s.data.turn == turn and not s.is_over():
            order = self.presenter.waits(legal)
        if order is None:
            self._waiting = None
            self.say(f"waited: you passed {n} time{'s' if n != 1 else ''}; " + ("the game is over" if s.is_over() else
                     "this decision needs you" if s.data.turn == turn else "a new turn has begun"))
            return False
        self._waiting = (turn, n + 1)
        self.show_events(s.apply(order))
        return True

    def undo(self, rest: str) -> None:
        """Take back the person's last order, or their last ``rest`` orders (the bots' answers too)."""
        if rest and not rest.isdigit():
            self.say(f"undo takes a number of your orders (undo, undo 3), not {rest!r}")
            return
        n = int(rest) if rest else 1
        if n < 1:
            self.say("undo takes a number of your orders from 1 up")
            return
        n = self.session.undo_count(n)
        if n == 0:
            self.say("nothing of yours to undo")
            return
        self.session.undo(n)
        self.say(f"took back {n} order(s)")

    def save_copy(self, name: str) -> None:
        """Write a copy of the game to a file (it is saved as it is played anyway)."""
        from hexwar.core.log import SaveError, SaveFile

        if not name:
            self.say(f"every order is saved to {self.session.save_path} as you play; save FILE writes a copy")
            return
        dest = self.copy_path(name)
        if isinstance(dest, str):
            self.say(f"not saved: {dest}")
            return
        try:
            SaveFile(dest).create(self.session.s.log)
        except SaveError as e:
            self.say(f"not saved: {e}")
            return
        self.say(f"saved to {dest}")

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
        save = self.session.save_path
        folder = save.resolve().parent if save else Path.cwd()
        return folder / (name if Path(name).suffix else f"{name}.hexwar")

    def snapshot(self, layer: str = "") -> Path:
        """Write an SVG of the board as the person may see it (with a game's ``layer``); return
        its path: the next free name where a file it did not write has the one it would take."""
        from hexwar.core.files import write_text
        from hexwar.ui.cli_common import free_name

        path = self.session.snapshot_path(f"{self.presenter.turn_word}{self.session.s.data.turn:02d}")
        if path.exists() and not SNAPSHOT.wrote(path):
            path = free_name(path)
        write_text(path, self.presenter.map_svg(layer), SNAPSHOT)
        return path

    def bot_move(self) -> Order:
        """The bot whose decision it is gives its order; print it and its events as the
        person may see them (a search bot's progress shows while it thinks)."""
        side = self.session.s.current_side()
        name = self.session.bots[side].name
        with self.out.status(f"{side} ({name}) is thinking...") as status:
            def show(p: dict[str, Any]) -> None:  # time and playouts only (progress_line)
                line = progress_line(side, name, p)
                status.update(line)
                if self.on_progress is not None:
                    self.on_progress(line)  # the web board's thinking line
            side, order, events = self.session.bot_move(show)
        self.out.print(f"[bold]{side}[/]: " + escape(self.presenter.order_line(order)))
        self.show_events(events)
        return order

    def show_events(self, events: Iterable[Event]) -> None:
        for line in self.presenter.event_lines(events):
            self.say(line)

    # --- orders ---------------------------------------------------------------------------

    def parse(self, line: str, legal: list[Order]) -> Order | None:
        """An order by its number, its text as listed, or in short: ``VERB UNIT PLACE`` gives
        the cheapest of the unit's orders of that verb that end there (``move 7-I/16 2505``
        picks the path with the fewest MP, ``sail LC-1 2408`` the shortest voyage); else one
        the game reads beyond its list."""
        got = self.listed(line, legal)
        return got if got is not None else self.presenter.read_order(line, legal)

    def listed(self, line: str, legal: list[Order]) -> Order | None:
        """An order of the list, by its number, its text or in short."""
        if line.isdigit():
            i = int(line)
            return legal[i - 1] if 1 <= i <= len(legal) else None
        low = " ".join(line.lower().split())
        for o in legal:
            if o.text().lower() == low:
                return o
        # without copy numbers and accents: "ship gneisenau vii", "choose bloff_trusler"
        typed = fold_order(line)
        folded = [o for o in legal if typed in (fold_order(o.text()), fold_order(self.presenter.order_line(o)))]
        if len(folded) == 1:
            return folded[0]
        return self.short_order(low, legal)

    def short_order(self, low: str, legal: list[Order]) -> Order | None:
        w = low.split()
        if len(w) != 3 or ">" in w[2]:
            return None
        verb, who, dest = w
        hits = []
        p = self.presenter
        view = self.session.view()
        for o in legal:
            if o.text().lower().split(" ", 1)[0] != verb:
                continue
            m = p.order_marks(o, view)
            if m["t"] is not None and m["t"].lower() == dest and ",".join(m["u"]).lower() == who:
                hits.append(o)
        if not hits:
            return None

        def cost(o: Order) -> tuple[float, int]:
            c = p.order_note(o)[1]
            return (c if c is not None else 0.0, len(o.text()))
        return min(hits, key=cost)

    def listed_order(self, arg: str, legal: list[Order]) -> Order | str | None:
        """The listed order ``explain`` names: by its number (a number that is a place of the
        board names the place: explain 2215 is the hex), or by its text as listed or in short
        (``explain assault 2215 with 1IG``). A number past the list gets a reason; anything
        else (a unit, a place, a card, last) is None, for the game's own explain."""
        if arg.isdigit():
            if arg in self.session.game.board:
                return None
            if not 1 <= int(arg) <= len(legal):
                return f"no order {int(arg)}: the list has {len(legal)} (list shows them)"
        elif len(arg.split()) < 2:
            return None
        return self.listed(arg, legal)  # by number, by text, or in short

    def not_understood(self, line: str, legal: list[Order]) -> str:
        """What a line that is no command and no order gets: why a short order the person
        means is none (the game says), or the listed orders that hold every word of it,
        numbered as listed, in the order typed where some do (``move bardufoss narvik`` finds
        ``move 1 bardufoss>narvik``), the first few of them; or where to look when none does."""
        why = self.presenter.why_no_order(line, legal)
        if why:
            return why
        words = line.lower().replace(">", " ").split()
        said = self.presenter.order_line
        near = holding(words, legal, in_order=True, line=said) or holding(words, legal, line=said)
        if not words or not near:
            kinds = verb_counts(legal)
            if words and legal:  # the kinds of order there are now ('pass' typed at a retreat)
                return (f"not understood: {line!r}; the orders now: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
                        + " (list shows them)")
            return f"not understood: {line!r} (type help, or list to see orders)"
        shown = [f"{i:>5}  {self.presenter.order_line(o)}" for i, o in near[:NEAR_SHOWN]]
        more = len(near) - NEAR_SHOWN
        those = "those words" if len(words) > 1 else "that word"
        tail = [f"  ... and {more} more; 'list {' '.join(words)}' shows every order with {those}"] if more > 0 else []
        return "\n".join([f"not understood: {line!r}; the orders with {those} (type a number):"] + shown + tail)

    def list_orders(self, legal: list[Order], word: str = "") -> None:
        words = word.lower().split()
        shown = holding(words, legal, line=self.presenter.order_line)
        if words and not shown:
            self.say(f"no match: no legal order contains {word!r} ({len(legal)} orders; list shows them all)")
            return
        if not words and len(shown) > MAX_LISTED:
            kinds = verb_counts(legal)  # by the word the orders begin with, as typed
            self.say(f"{len(legal)} legal orders: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
            for line in self.folded(shown):
                self.say(line)
            return
        if words and len(shown) > MAX_FOLDED:  # a group opened: a fleet's sailings by where they lead
            view = self.session.view()
            where = {i: self.presenter.order_marks(o, view).get("w") for i, o in shown}
            if any(where.values()):
                for line in by_where(shown, where, self.presenter.order_line):
                    self.say(line)
                return
        cap = MAX_LISTED if not words else 200
        for i, o in shown[:cap]:
            self.say(f"  {i:>3}  {self.presenter.order_line(o)}")
        if len(shown) > cap:
            self.say(f"  ... {len(shown) - cap} more: add a word to narrow the list")

    def folded(self, shown: list[tuple[int, Order]]) -> list[str]:
        """A long list in at most ``MAX_FOLDED`` lines: the orders grouped by their first word
        and unit, a group of one or two shown whole, a bigger one folded to a line saying how
        many and the words that open it (``list move 1sg``); if that is still too long, the
        biggest kinds folded whole (``list sail``)."""
        view = self.session.view()
        groups: dict[tuple[str, str], list[tuple[int, Order]]] = {}
        where: dict[int, str | None] = {}
        for i, o in shown:
            marks = self.presenter.order_marks(o, view)
            units, where[i] = marks["u"], marks.get("w")
            groups.setdefault((verb(o), units[0] if units else ""), []).append((i, o))

        def lines_of(key: tuple[str, str], items: list[tuple[int, Order]]) -> list[str]:
            if len(items) <= 2:
                return [f"  {i:>3}  {self.presenter.order_line(o)}" for i, o in items]
            shown_as = " ".join(w for w in (key[0], key[1]) if w)
            return [f"  {len(items):>4} orders: {shown_as} ...  (list {shown_as.lower()})"]

        if len(groups) == 1 and any(where.values()):  # one unit's orders, by where they lead
            return by_where(shown, where, self.presenter.order_line)
        if len(groups) == 1:  # one unit's orders of one kind: its first ones, and words that narrow them
            examples = ", ".join(f"list {w}" for w in list_examples([o for _, o in shown]))
            return [f"  {i:>3}  {self.presenter.order_line(o)}" for i, o in shown[:MAX_LISTED]] + [
                f"  ... {len(shown) - MAX_LISTED} more: list <words> narrows them" + (f" (e.g. {examples})" if examples else "")]
        verbs: dict[str, list[tuple[str, str]]] = {}
        for key in groups:
            verbs.setdefault(key[0], []).append(key)
        folded_verbs: set[str] = set()
        while True:
            out: list[str] = []
            for v, keys in verbs.items():
                if v in folded_verbs:
                    n = sum(len(groups[k]) for k in keys)
                    out.append(f"  {n:>4} orders: {v} ... of {len(keys)} units  (list {v} <unit>)")
                else:
                    for k in keys:
                        out += lines_of(k, groups[k])
            open_verbs = [v for v in verbs if v not in folded_verbs and len(verbs[v]) > 1]
            if len(out) <= MAX_FOLDED or not open_verbs:
                return out + ["  a number gives its order; list <words> opens a group"]
            folded_verbs.add(max(open_verbs, key=lambda v: len(verbs[v])))

    def completions(self, line: str) -> list[str]:
        """What may come next on a line being typed: the next word of every legal order or
        command that starts so (Tab completion)."""
        done, _, part = line.rpartition(" ")
        head = (done + " ") if done else ""
        texts = [o.text() for o in self.session.legal()] + [c.split()[0] for c, _ in COMMANDS
                                                             if not c.startswith("<") and self.offers(c)]
        out = set()
        for t in texts:
            if t.startswith(head + part):
                out.add(t[len(head):].split(" ", 1)[0])
        return sorted(out)

    # --- help and the rules' words ---------------------------------------------------------

    def offers(self, command: str) -> bool:
        """Whether this game has a command of the shared list: ``rules`` needs a glossary, a
        short order needs orders that name their units."""
        key = command.split()[0]
        if key == "rules":
            return bool(self.presenter.glossary)
        return key != "<verb>" or self.presenter.short_orders

    def help_text(self) -> str:
        """The commands this game has, the game's own wording first where it has one; the
        ``rules`` line names two of the game's own terms."""
        p = self.presenter
        own = {c.split()[0]: (c, t) for c, t in p.commands}
        lines = ["Commands"]
        done = set()
        for c, t in COMMANDS:
            key = c.split()[0]
            if not self.offers(c):
                continue
            if key in own and key not in done:
                done.add(key)
                lines += [_help_line(oc, ot) for oc, ot in p.commands if oc.split()[0] == key]
            elif key not in own:
                if key == "rules":
                    t += " (" + ", ".join(f"rules {k}" for k in (p.glossary_examples or tuple(p.glossary)[:2])) + ")"
                lines.append(_help_line(c, t))
        return "\n".join(lines)

    def rules_text(self, term: str) -> str:
        """What a term of the rules means, with its section; all terms when none is asked."""
        glossary = {**self.presenter.glossary, **scenario_terms(self.session.game)}
        if not glossary:
            return "this game has no glossary of terms yet"
        if not term:
            return "terms: " + ", ".join(sorted(glossary, key=str.lower)) + "  (rules <term>)"
        low = " ".join(term.lower().split())
        key = next((k for k in glossary if k.lower() == low), None)
        # else part of a term's name: "rules mobilisation"; up to three terms: "rules supply"; a
        # plural finds its singular: "rules dummies", "rules sixes"
        forms = [low] + [low[:-n] + end for tail, n, end in (("ies", 3, "y"), ("s", 1, ""), ("es", 2, ""))
                         if low.endswith(tail) and len(low) > n + 1]
        near = [key] if key is not None else next(
            (hit for f in forms if (hit := [k for k in glossary if f in k.lower()])), [])
        head = f"no term {term!r}; terms:"  # named by the term's name: the definitions alone
        said_by_name = bool(near)
        if not near and SECTION.fullmatch(low):  # a section, as explain cites them: "rules 19.4"
            near = [k for k, (_m, secs) in glossary.items() if cites(secs, low)]
            head = f"section {term} is cited by:"
        if not near:  # a word of the definitions: "rules ridge"
            near = next((hit for f in forms if (hit := [k for k, (m, _s) in glossary.items()
                                                        if re.search(rf"\b{re.escape(f)}", m.lower())])), [])
            head = f"no term {term!r}; it comes up in:"
        if not near:
            return f"no term {term!r}; terms: {', '.join(sorted(glossary, key=str.lower))}"
        if len(near) > GLOSSARY_SHOWN:
            return f"{head} {', '.join(sorted(near, key=str.lower))}"
        said = [f"{k}: {glossary[k][0]}  [{glossary[k][1]}]" for k in sorted(near, key=str.lower)]
        return "\n".join(said if said_by_name else [head] + said)


def scenario_terms(game: Any) -> dict[str, tuple[str, str]]:
    """A game's scenario names as terms ``rules`` knows: (what the scenario is, "scenario"),
    the one played under the name its saves give it too."""
    from hexwar.registry import get

    info = get(game.name)
    names = [*info.scenarios, str(game.save_meta().get("scenario") or "")]
    return {name: (f"a scenario of this game: {about}", "scenario") for name in names if name and (about := info.scenario_about(name))}


def _help_line(command: str, text: str) -> str:
    return f"  {command:<20}{text}" if len(command) < 20 else f"  {command}   {text}"
