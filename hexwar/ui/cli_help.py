"""The help of the command line as a person reads it: a one-line summary of each command that
fits 80 columns in the list of ``hexwar --help``, and examples under each command's own
``--help``. The examples are made from the games the registry holds (the default game, one
with rule queries, one with several boards), so the command line itself names no game."""

from __future__ import annotations

from typing import Any

import click

#: the width the list of commands must fit: "  name  summary" within a terminal of 80 columns
WIDTH = 80


def examples() -> dict[str, list[tuple[str, str]]]:
    """Per command, its examples: (what to type, what it does)."""
    from hexwar import registry

    first = registry.default()
    games = registry.games()
    queried = next((g for g in [first, *games] if g.queries is not None), first)
    boards = next((g for g in games if len(g.boards) > 1), first)
    two = list(boards.boards)[:2]
    seat = first.default_seat
    other = next((s for s in first.seats if s != seat and s != "all" and len(first.seats[s]) == 1), seat)
    # the other opponent worth naming: the quick rule-based bot where the search bot is the default
    other_bot = next((b for b in first.bots if b != first.default_bot and first.bots[b].fast and b != "random"),
                     first.default_bot)
    return {
        "play": [(f"hexwar play {first.name}", f"{first.title}: you command the {seat}, a bot the rest"),
                 (f"hexwar play {first.name} --web", "the same on the web board, in your browser"),
                 (f"hexwar play {first.name} --side {other} --opponent {other_bot}",
                  f"the {other}' seat, against the {other_bot} bot (it answers at once)"),
                 ("hexwar play --load my.hexwar", "resume a saved game where it stands"),
                 ("hexwar play --from pos.yaml", "play on from a position file (hexwar position writes one)")],
        "games": [("hexwar games", "every game: its scenarios, boards, sides, bots and rule switches")],
        "validate": [("hexwar validate", "check every bundled map, order of battle, scenario and table"),
                     ("hexwar validate mydata/", "check your own data folder (maps/, oob/, tables/)")],
        "reach": [(f"hexwar reach {queried.name} UNIT", "where a unit can move in one action at the start, MP left"),
                  (f"hexwar reach {queried.name} UNIT --to HEX", "the cheapest way to a hex, hex by hex, with its rules"),
                  ("hexwar reach my.hexwar UNIT", "in a saved game as it stands (your side's view)"),
                  ("hexwar reach pos.yaml UNIT", "in a position file, as you set it up")],
        "supply": [(f"hexwar supply {queried.name}", "every unit's line of supply at the start"),
                   ("hexwar supply my.hexwar UNIT UNIT", "those units' lines in a saved game")],
        "fatigue": [(f"hexwar fatigue {queried.name}", "every unit's fatigue and limit at the start"),
                    ("hexwar fatigue my.hexwar UNIT --recover", "a unit's fatigue now and its recovery at the turn's end")],
        "explain": [(f"hexwar explain {first.name} UNIT", "a unit's figures at the start, each with its rule"),
                    ("hexwar explain pos.yaml UNIT HEX", "a unit's way to a hex in a position file, step by step"),
                    ("hexwar explain my.hexwar last", "the last combat of a saved game, as your side saw it")],
        "odds": [(f"hexwar odds {queried.name} --help", "the options of that game's odds"),
                 ("hexwar odds my.hexwar --target HEX --attackers UNIT,UNIT", "an assault's exact chances in a saved game")],
        "position": [("hexwar position my.hexwar -o pos.yaml", "the game as it stands, as a file to check and edit"),
                     ("hexwar position my.hexwar --at 40 -o pos.yaml", "the position after its first 40 orders")],
        "analyse": [(f"hexwar analyse {first.name}", "set up a position from your table on a web page: its figures and flags"),
                    ("hexwar analyse GAME --from pos.yaml", "start from a position file (or a save: --from my.hexwar)"),
                    (f"hexwar analyse {first.name} --no-web", "the flags of the scenario's start, in the terminal")],
        "review": [("hexwar review my.hexwar", "after a game: your decisions that lost the most expected margin"),
                   ("hexwar review my.hexwar --think 2 --top 5", "each decision searched 2 s, the five worst listed")],
        "replay": [("hexwar replay my.hexwar", "the game order by order, with what came of each"),
                   ("hexwar replay my.hexwar --svg frames --per-turn", "one map per turn in the folder frames/")],
        "simulate": [(f"hexwar simulate {first.name} --games 200 --seed 1", "200 bot-vs-bot games, a CSV row each and a summary"),
                     (f"hexwar simulate {first.name} --games 200 --seed 1 --game 7", "game 7 of that batch played again and saved")],
        "compare": [("hexwar compare --preset boards", "the shipped comparison of the boards, as a report"),
                    (f"hexwar compare {boards.name}@{two[0]} {boards.name}@{two[-1]} --games 300",
                     "the same game on two boards: who wins, how often, and is it significant")],
        "ladder": [(f"hexwar ladder {first.name} --playouts 8 --playouts 32 --rounds 2 --out ladder",
                    "rate the bots against each other: Elo with 95% intervals, a page and a plot"),
                   (f"hexwar ladder {first.name} --rounds 0 --out ladder", "the page and the plot again from the games played")],
        "map": [(f"hexwar map show {first.default_board}", "a map's places and borders"),
                (f"hexwar map render {first.default_board} -o map.svg", "draw it as SVG")],
        "native": [("hexwar native build", "compile the engine's hot modules (mypyc) for faster batches")],
    }


#: each command in a line of the list (the full help is under ``hexwar COMMAND --help``)
SHORT = {
    "validate": "Check every map, order of battle, scenario and table",
    "reach": "Where a unit can move in one action, with the MP left",
    "supply": "Lines of supply at a scenario's start or in a saved game",
    "fatigue": "Fatigue, limits and recovery of units",
    "odds": "Exact combat odds, with the rules that make them",
    "explain": "How a figure of a position is reached, with its rules",
    "games": "The games: scenarios, boards, sides, bots, switches",
    "play": "Play a game against the bots, in the terminal or --web",
    "replay": "Step through a saved game; maps as SVG; JSON",
    "position": "Write a moment of a saved game as a position file",
    "review": "After a game: the decisions that lost the most, by the search",
    "analyse": "Set up any position and see its figures (analysis board)",
    "simulate": "Run seeded bot-vs-bot games into a CSV and a summary",
    "compare": "Compare setups over batches: a report with significance",
    "ladder": "Rate a game's bots against each other, with intervals",
    "map": "Show, render and build maps",
    "native": "Compile the engine's hot modules for faster batches",
}


def summary(cmd: click.Command, room: int) -> str:
    """The command's first sentence, cut at a word to fit ``room`` characters."""
    text = (cmd.help or "").strip().split("\n\n", 1)[0].replace("\n", " ")
    first = text.split(". ", 1)[0].split("; ", 1)[0].rstrip(".")
    if len(first) <= room:
        return first
    cut = first[: room - 3].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "..."


def with_help(group: Any) -> Any:
    """The click group of ``hexwar`` with each command's summary fitting the list and its
    examples under its own ``--help``."""
    said = examples()
    names = group.commands
    room = WIDTH - 2 - 2 - max(len(n) for n in names) - 2  # click: a margin of 2, an indent of 2, 2 between
    for name, cmd in names.items():
        cmd.short_help = SHORT[name] if len(SHORT.get(name, "x" * WIDTH)) <= room else summary(cmd, room)
        if name in said:
            # \b: click keeps the lines as they are, unwrapped
            cmd.epilog = "Examples:\n\n\b\n" + "\n".join(f"  {typed}\n      {what}" for typed, what in said[name])
    return group
