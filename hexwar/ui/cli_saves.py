"""The commands that read a saved game: ``hexwar replay`` steps through it (its events in
words, a map per order or per turn, JSON), ``hexwar position`` writes one moment of it as a
position file, and ``hexwar analyse`` sets a position up on the analysis board (issue 54). A
game in progress is read with its seat's eyes (issue 51)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any, List, Optional

import typer

from hexwar.core.files import Job, check
from hexwar.ui.cli_common import (JSON, UserError, app, emit, may_write, named_head, out, output_folder, read_position,
                                  read_save, read_seen, write_text)


@app.command()
def position(file: Path = typer.Argument(..., help="A saved game (.hexwar)"),
             at: Optional[int] = typer.Option(None, help="The position after the save's first N orders (default: all of them)"),
             output: Path = typer.Option(..., "-o", "--output", help="The position file to write (.yaml); an existing file only if hexwar wrote it as a position and it is unchanged"),
             force: bool = typer.Option(False, "--force", help="Replace the file even if hexwar did not write it"),
             show_secrets: bool = typer.Option(False, "--show-secrets", help="Write what the other side hid too (its face-down counters, its cards), so that the position plays on (hexwar play --from); it shows you those secrets"),
             json_: bool = JSON) -> None:
    """Write one moment of a saved game as a position file (YAML) to check or play on from. An
    unfinished game's position is written as its seat saw it, unless --show-secrets."""
    from hexwar.core.position import WRITER, dump

    if output.suffix.lower() not in (".yaml", ".yml"):
        raise UserError(f"-o {output}: a position is a YAML file: give a name ending in .yaml")
    how = may_write(output, WRITER, force)  # before any work: never a save, notes or a file edited since
    log = read_save(file)
    n = len(log) if at is None else at
    if not 0 <= n <= len(log):
        raise UserError(f"{file}: --at {n}: the save holds {len(log)} orders (0 to {len(log)})")
    _, info, g, data, seat, sees = read_seen(file, n, whole=show_secrets)  # a game in progress: what its seat was shown
    seat = "all" if sees is None else seat  # a hot seat's, a watched or a finished game: nothing was hidden
    meta = dict(log.meta, game=g.name)
    did = write_text(output, dump(meta, data, seat, note=f"{file.name} after {n} orders"), WRITER, checked=how)
    if json_:
        emit({"position": str(output), "game": g.name, "orders": n, "seen_by": seat, "wrote": did})
    else:
        out.print(f"{did}: {info.title} after {n} orders, as "
                  + ("everyone sees it" if seat == "all" else f"the {seat} see it"), markup=False)


@app.command()
def replay(file: Path = typer.Argument(..., help="A saved game (.hexwar)"),
           svg: Optional[Path] = typer.Option(None, help="Folder for one SVG map per action (or per turn with --per-turn)"),
           per_turn: bool = typer.Option(False, "--per-turn", help="One SVG per turn instead of per action"),
           switch: Optional[List[str]] = typer.Option(None, help="The rules switches the game was played with (saves before they were recorded)"),
           side: Optional[str] = typer.Option(None, help="Whose eyes: a side as in hexwar play --side, or all (default: the side the save was played by while the game is unfinished, all once it is over)"),
           upto: Optional[int] = typer.Option(None, help="Only the save's first N orders (a save that stops replaying at a later one)"),
           force: bool = typer.Option(False, "--force", help="With --svg: replace frames of the same names even if hexwar did not write them"),
           json_: bool = JSON) -> None:
    """Step through a saved game from its log, optionally writing SVG snapshots."""
    from hexwar.core.play import seen_by
    from hexwar.core.replay import ReplayError, replay, replay_entry, replay_start
    from hexwar.core.log import EventLog
    from hexwar.registry import UnknownGame, from_meta
    from hexwar.ui.render import EVERYONE

    log = read_save(file)
    if upto is not None:
        if not 0 <= upto <= len(log):
            raise UserError(f"{file}: --upto {upto}: the save holds {len(log)} orders (0 to {len(log)} may be shown)")
        log = EventLog(log.meta, log.entries[:upto])

    def refused(e: ReplayError) -> UserError:  # the orders before the one to blame still replay
        hint = f"; hexwar replay {shlex.quote(str(file))} --upto {e.seq} shows the orders before it" if e.seq else ""
        return UserError(f"{file}: {e}{hint}")

    try:
        info, g = from_meta(log.meta, switch or [])
        recorded = log.meta.get("switches")
        if switch:
            info.check(switches=switch)
            if isinstance(recorded, list) and sorted(recorded) != sorted(switch):
                raise UserError(f"{file}: the save records the switches it was played with "
                                f"({', '.join(recorded) or 'none'}); --switch is for saves from before they were recorded")
        if side is None:
            side = info.reader_seat(log.meta, replay(g, log).is_over())
        if side != "all":
            info.check(seat=side)
        _may_replay_as(info, g, log, side, file)
        st = replay_start(g, log.meta)
    except ReplayError as e:
        raise refused(e) from None
    except UnknownGame as e:
        raise UserError(f"{file}: {e}") from None
    sees = info.sees(side)
    rows = []
    # the eyes the frames are drawn for: everyone's (every counter face up) or one side's
    eyes = EVERYONE if sees is None else next(iter(sees)) if len(sees) == 1 else None
    framed: list[str] = []  # what each frame's writer said
    if svg is not None:
        _frames_may_go(output_folder(svg), force)
    last_turn = st.data.turn
    describe = info.describer(g)  # the events in the words the play loop used
    line = info.wording(g)  # and the orders and the result, as its lists and its end said them
    for entry in log.entries:
        before = st.data.clone() if svg is not None and per_turn else None  # the turn as it ended, to draw
        given_in = st.data.turn  # the turn the order was given in (an order that ends a turn leaves the next)
        try:
            events = replay_entry(st, entry)
        except ReplayError as e:
            raise refused(e) from None
        except ValueError as e:
            raise UserError(f"{file}: {e}") from None
        order = g.orders.from_dict(entry.order)
        if sees is not None:
            events = g.visible_events(st.data, events, sees)
        text = g.visible_order(st.data, order, sees) if sees is not None else order.text()
        rows.append({"seq": entry.seq, "turn": given_in, "order": text, "side": order.side, "events": events})
        if not json_:
            out.print(f"{entry.seq:>5} t{given_in} {order.side:>8}: {line(text)}", markup=False, highlight=False)
            for ev in events:
                out.print("        " + describe(ev), markup=False, highlight=False)
        if svg is not None and not per_turn:
            title = f"turn {given_in}, order {entry.seq}: {line(text)}"
            drawing = info.render(g, seen_by(g, st.data, sees), viewer=eyes, title=title)
            framed.append(write_text(svg / f"{entry.seq:05d}-turn{given_in:02d}.svg", drawing, FRAMES, force))
        elif svg is not None:  # a frame per turn, named by the turn it shows: each turn as it ended
            ends = [(last_turn, before)] if st.data.turn != last_turn and before is not None else []
            if entry is log.entries[-1]:
                ends.append((st.data.turn, st.data))
            for turn, data in ends:
                title = f"the end of turn {turn}" + (" (the game's end)" if data is st.data and st.is_over() else "")
                drawing = info.render(g, seen_by(g, data, sees), viewer=eyes, title=title)
                framed.append(write_text(svg / f"turn{turn:02d}-end.svg", drawing, FRAMES, force))
        last_turn = st.data.turn
    res = st.result()
    if json_:
        emit({"orders": len(rows), "result": {"level": res.level, "vp": res.vp, "over": res.over}, "log": rows})
    else:
        tally = ", ".join(f"{side} {n}" for side, n in res.vp.items())
        out.print(f"{len(rows)} orders; {line(res.level)}; {info.tally}: {tally}", markup=False)
        if svg is not None:
            out.print(f"wrote {len(framed)} frames in {svg}", markup=False)


#: replay's frames: each replaces only a frame replay wrote and nobody changed since (issue 70)
FRAMES = Job("replay frames")
#: the names replay gives its frames (per order, per turn)
FRAME_NAME = re.compile(r"(\d{5}-turn\d{2}|turn\d{2}-end)\.svg")


def _frames_may_go(folder: Path, force: bool) -> None:
    """Refuse, before any frame is drawn, a folder holding a file of a frame's name that
    replay did not write (frames are named by order and turn: any of them may be written)."""
    for p in sorted(folder.iterdir()):
        if FRAME_NAME.fullmatch(p.name):
            check(p, FRAMES, force)


def _may_replay_as(info: Any, game: Any, log: Any, side: str, file: Path, what: str = "a replay") -> None:
    """Refuse, in one line, eyes that would show an unfinished game's person what their seat
    did not see (issue 51): until the game is over, a replay shows what the seats they held
    saw (every side's for a hot seat, a game only watched, a batch's game)."""
    from hexwar.core.replay import replay

    seen = info.seen_in(log.meta)
    eyes = info.sees(side) if side != "all" else None
    if seen is None or (eyes is not None and eyes <= seen):
        return
    if replay(game, log).is_over():
        return
    held = info.seats_held(log.meta)
    raise UserError(f"{file}: an unfinished game played as the {' and the '.join(held)}: until it is over, {what} "
                    f"shows only what they were shown (--side {held[0]}, or no --side), not --side {side}")


@app.command()
def analyse(game: str = typer.Argument(..., help="The game (hexwar games lists them)"),
            from_: Optional[Path] = typer.Option(None, "--from", help="Start from a position file (.yaml) or a saved game (.hexwar) as it stands"),
            scenario: Optional[str] = typer.Option(None, help="Scenario (default: the game's)"),
            board: Optional[str] = typer.Option(None, help="Board (default: the game's)"),
            switch: Optional[List[str]] = typer.Option(None, help="A rules switch (repeatable)"),
            web: bool = typer.Option(True, "--web/--no-web", help="Set the position up on a local web page (default); --no-web prints its flags"),
            port: int = typer.Option(0, help="Port for the page (default: a free one)"),
            folder: Path = typer.Option(Path("."), help="Where the page saves positions"),
            json_: bool = JSON) -> None:
    """The analysis board: set up any position from your table and see its figures and flags."""
    from hexwar.registry import UnknownGame, get
    from hexwar.ui.analysis import AnalysisBoard

    try:
        info = get(game)
        if info.analysis is None:
            raise UserError(f"{info.title} has no analysis board")
        head, data, name, g = _analysed(info, from_, scenario, board, list(switch or []))
    except UnknownGame as e:
        raise UserError(str(e)) from None
    if not folder.is_dir():
        raise UserError(f"--folder {folder}: no such folder")
    b = AnalysisBoard(info, g, data, head, folder, name)
    if not web:
        problems = b.problems()
        if json_:
            emit({"game": info.name, "scenario": head["scenario"], "problems": problems,
                  "pieces": [p.to_dict() for p in b.analyst.pieces(data)]})
            return
        out.print(f"{info.title}, {head['scenario']}: " + (f"{len(problems)} flagged" if problems else "nothing flagged"),
                  markup=False)
        for p in problems:
            out.print(f"  {p}", markup=False, soft_wrap=True)
        return
    from hexwar.web.analysis import serve_analysis
    from hexwar.web.server import PortInUse, listen

    try:
        sock = listen(port)
    except PortInUse as e:
        raise UserError(str(e)) from None
    serve_analysis(b, sock, say=lambda text: out.print(text, markup=False, soft_wrap=True))


def _analysed(info: Any, src: Optional[Path], scenario: Optional[str], board: Optional[str],
              switches: list[str]) -> tuple[dict[str, Any], Any, str, Any]:
    """The head, the state, a name and the game for the analysis board: a scenario's start, a
    position file, or a saved game as it stands (as the seat that played it sees it, while
    unfinished). A save's or a position's names are read as a save's are (``from_meta``)."""

    if src is None:
        sc, bd = scenario or info.default_scenario, board or info.default_board
        info.check(sc, bd, switches)
        g = info.build(sc, bd, switches)
        head = {"game": info.name, "scenario": sc, "board": bd, "switches": sorted(switches), "seed": 0, "seen_by": "all"}
        return head, g.new_state(0).data, f"{info.name}-{sc}", g
    if src.suffix in (".yaml", ".yml"):
        head, data, g = read_position(src, info, "analyse")
        return head, data, src.stem, g
    log, info2, g, data, seat, _ = read_seen(src)
    if info2.name != info.name:
        raise UserError(f"{src}: a saved game of {info2.name!r}: hexwar analyse {info2.name} --from {src}")
    return named_head(info, dict(log.meta, seen_by=seat)), data, src.stem, g



@app.command()
def review(file: Path = typer.Argument(..., help="A saved game (.hexwar)"),
           side: Optional[str] = typer.Option(None, help="Whose decisions: a side as in hexwar play --side (default: the seat the game was played from; every side for a game only watched)"),
           think: float = typer.Option(0.5, help="Seconds the search thinks on each decision (0.05 to 10)"),
           top: Optional[int] = typer.Option(None, help="The N worst decisions, whatever their size (1 to 100; default: up to 10 above the noise)"),
           floor: Optional[float] = typer.Option(None, help="The least loss of expected margin named, in the game's own score (default: any above the search's noise)"),
           json_: bool = JSON) -> None:
    """After a game: the decisions where the order played lost the most expected margin, each
    with the order the search bot preferred and why (issues 57, 74)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from hexwar.core.replay import ReplayError
    from hexwar.registry import UnknownGame, from_meta
    from hexwar.ui.coach import REVIEW_FLOOR, explainer, review_lines
    from hexwar.ui.coach import review as review_game

    if not 0.05 <= think <= 10:
        raise UserError("--think is seconds per decision, from 0.05 to 10")
    if top is not None and not 1 <= top <= 100:
        raise UserError("--top is a number of decisions, from 1 to 100")
    if floor is not None and floor < 0:
        raise UserError("--floor is a loss of expected margin, 0 or more")
    # --top N: the N worst whatever their size, unless a floor is given too
    least = floor if floor is not None else None if top is not None else REVIEW_FLOOR
    log = read_save(file)
    try:
        info, g = from_meta(log.meta)
    except UnknownGame as e:
        raise UserError(f"{file}: {e}") from None
    if "search" not in info.bots:
        raise UserError(f"{file}: {info.title} has no search bot to review a game with")
    seat = side or str(log.meta.get("seat") or info.default_seat)
    if seat != "all":
        try:
            info.check(seat=seat)
        except UnknownGame as e:
            raise UserError(f"{file}: {e}") from None
    _may_replay_as(info, g, log, seat, file, "a review")  # an unfinished game: only the seat that played it
    sides = list(info.seats[seat]) if seat != "all" and info.seats[seat] else list(info.sides)
    shown = Progress(TextColumn("reviewing"), BarColumn(), TextColumn("{task.completed}/{task.total} orders"),
                     TimeRemainingColumn(), console=out, transient=True, disable=json_)
    with shown:
        task = shown.add_task("review", total=len(log.entries))
        try:
            slips, searched = review_game(g, log, sides, think, top or 10, lambda done, of: shown.update(task, completed=done),
                                          floor=least, why=explainer(g.name, sides))
        except ReplayError as e:
            raise UserError(f"{file}: {e}") from None
    if json_:
        emit({"sides": sides, "think": think, "decisions": searched, "floor": least,
              "slips": [dict(seq=x.seq, turn=x.turn, side=x.side, played=x.played, preferred=x.preferred,
                             played_chance=round(x.played_chance, 3), preferred_chance=round(x.preferred_chance, 3),
                             played_margin=round(x.played_margin, 3), preferred_margin=round(x.preferred_margin, 3),
                             loss=round(x.loss, 3), noise=round(x.noise, 3), why=x.why,
                             played_playouts=x.played_playouts, preferred_playouts=x.preferred_playouts) for x in slips]})
        return
    for i, line in enumerate(review_lines(slips, searched, sides, think, least)):
        out.print(f"{info.title}: {line}" if i == 0 else line, markup=False, highlight=False)
