"""``hexwar ladder``: the bot ladder of a game, played or extended, and its report written
(issue 57; ``hexwar.sim.ladder``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer

from hexwar.ui.cli_common import JSON, UserError, app, emit, err, in_range, out, output_folder, registry_game


@app.command()
def ladder(game: str = typer.Argument(..., help="The game (hexwar games lists them)"),
           playouts: Optional[List[int]] = typer.Option(None, help="The search bot's playouts a decision, one entrant each (repeat the option)"),
           scenario: Optional[List[str]] = typer.Option(None, help="A scenario to play (repeat the option; default: every scenario)"),
           rounds: int = typer.Option(2, help="Rounds to have played: every pairing of the bots, both ways, in each scenario (0: only write the report)"),
           jobs: int = typer.Option(1, help="Games played at once (one a core)"),
           out_dir: Path = typer.Option(Path("ladder"), "--out", help="The ladder's folder: GAME.jsonl, README.md and ladder.png"),
           force: bool = typer.Option(False, "--force", help="Write README.md and ladder.png even over files the ladder did not write"),
           json_: bool = JSON) -> None:
    """Rate a game's bots against each other: Elo with 95% intervals, resumable."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from hexwar.sim.ladder import LadderError, Plan, entrants, figures, may_write, run, write_report
    from hexwar.sim.report import require_matplotlib
    from hexwar.sim.runner import BatchError

    info = registry_game(game)
    in_range("--rounds", rounds, 0, 10_000)
    in_range("--jobs", jobs, 1, 256)
    for n in playouts or []:
        in_range("--playouts", n, 1, 100_000)
    scenarios = list(scenario or info.scenarios)
    for sc in scenarios:
        if sc not in info.scenarios:
            raise UserError(f"{info.name} has no scenario {sc!r}; scenarios: {', '.join(info.scenarios)}")
    try:
        require_matplotlib()
        plan = Plan(info.name, tuple(scenarios), tuple(entrants(info, playouts or [])), rounds)
    except (LadderError, BatchError) as e:
        raise UserError(str(e)) from None
    output_folder(out_dir)
    how = may_write(out_dir, force)  # before any game: never a README.md of anyone else's
    path = out_dir / f"{info.name}.jsonl"
    try:
        with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err) as bar:
            task = bar.add_task(f"{info.name} ladder", total=None)

            def tick(row: dict[str, Any], done: int, total: int) -> None:
                bar.update(task, completed=done, total=total,
                           description=f"{row['scenario']} r{row['round']}: {row['first']} v {row['second']}")

            rows = run(plan, path, jobs, tick)
        wrote = write_report(out_dir, how)
    except LadderError as e:
        raise UserError(str(e)) from None
    if json_:
        emit({"file": str(path), "games": len(rows), "figures": figures(rows).get(info.name, {}),
              "wrote": [str(p) for p in wrote]})
        return
    out.print(f"{path}: {len(rows)} games; wrote {', '.join(str(p) for p in wrote)}", markup=False)
