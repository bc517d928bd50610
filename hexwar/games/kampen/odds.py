"""Exact odds of one Kampen om Norge land combat (4.2), by enumerating every die."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Optional

import typer

from hexwar.registry import Answer
from hexwar.rules.dicecombat import outcomes

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.game import KampenGame


def combat_odds(game: KampenGame, attack: int, defend: int, fjord: bool = False,
                attack_cards: Iterable[str] = (), defend_cards: Iterable[str] = (),
                groups: list[tuple[int, bool]] | None = None) -> dict[str, Any]:
    """Exact odds of one land combat (4.2) by enumeration: dice, cancellations, P(win), losses.

    ``groups``: the attacking battalions by the border they cross (number, across a fjord or
    lake), for an attack from several areas; ``attack`` and ``fjord`` then go unread.

    Cards are card ids, ``panzer=2`` for a copy with 2 dice. Cancels apply both ways as the
    8-step sequence allows (Speidertropp cancels Bakhold, Panservernkanon Panzer, ...).
    """
    from hexwar.games.kampen.cards import Copy
    from hexwar.games.kampen.phases.combat import lay_card, pool
    from hexwar.games.kampen.state import AttackGroup, CardPlay, Combat

    copies: dict[int, Copy] = {}

    def parse(names: Iterable[str], owner: str, slots: tuple[str, ...], against: set[str]) -> list[CardPlay]:
        """Each card named as a copy of its own (``panzer=2``: a copy with 2 dice), played in the
        slot where it counters one of the other side's cards, else its first of ``slots``."""
        out = []
        seen: set[str] = set()
        for raw in names:
            name, _, val = raw.partition("=")
            name, _, slot = name.strip().partition("@")
            if name not in game.cards.cards:
                raise ValueError(f"unknown card {name!r}; cards: {', '.join(sorted(game.cards.cards))}")
            spec = game.cards.cards[name]
            uses = [u for u in spec.uses if u.slot in ((slot,) if slot else slots)]
            # a card that can counter one of the other side's cards is played to counter it
            use = next((u for u in uses if set(u.cancels) & against), None) or next(iter(uses), None)
            if val and not (val.strip().isdigit() and 0 <= int(val) <= 20):
                raise ValueError(f"{raw.strip()!r}: a card's dice are a whole number from 0 to 20 (panzer=2)")
            if spec.type in seen:
                raise ValueError(f"two cards of the type {spec.type!r} on one side: one card per type (4.2 step 1)")
            seen.add(spec.type)
            if use is None:
                continue  # no function in these slots: it adds nothing to this combat
            cid = -1 - len(copies)
            copies[cid] = Copy(cid, name, spec.type, spec.name, 0, int(val) if val else None, tuple(spec.uses))
            out.append(CardPlay(cid, owner, use.slot))
        return out

    def types(names: Iterable[str]) -> set[str]:
        out = set()
        for raw in names:
            n = raw.partition("=")[0].partition("@")[0].strip()
            if n in game.cards.cards:
                out.add(game.cards.cards[n].type)
        return out

    attack_cards, defend_cards = list(attack_cards), list(defend_cards)
    att = parse(attack_cards, "attacker", ("attack", "react"), types(defend_cards))
    dfn = parse(defend_cards, "defender", ("defend",), types(attack_cards))
    if groups is None:
        groups = [(attack, fjord)]
    attack = sum(n for n, _ in groups)
    # the combat as the combat phase holds it, its cards laid in the order of 4.2's steps 1-3
    # (attack, defence, reaction), each cancelling what it counters (``lay_card``), and its
    # dice counted as the phase counts them (``pool``)
    c = Combat("", "attacker", [AttackGroup("", n, crossing) for n, crossing in groups], {"defender": defend})
    for play in [p for p in att if p.slot == "attack"] + dfn + [p for p in att if p.slot != "attack"]:
        lay_card(copies, c, play)
    a, d, pooled = pool(copies, c)
    ledger = [f"{x['side']}: {x['what']}: {_counted(x['dice'], 'die', 'dice')} [{x['rule']}]" for x in pooled]
    dist = outcomes(a, d)
    win = sum((p for (w, _, _), p in dist.items() if w), Fraction(0))
    def_loss: dict[int, Fraction] = {}
    att_loss: dict[int, Fraction] = {}
    for (_, kd, ka), p in dist.items():
        def_loss[min(kd, defend)] = def_loss.get(min(kd, defend), Fraction(0)) + p
        att_loss[min(ka, attack)] = att_loss.get(min(ka, attack), Fraction(0)) + p
    return {"attacker_dice": a, "defender_dice": d, "attacker_wins": win, "defender_wins": 1 - win,
            "defender_losses": dict(sorted(def_loss.items())), "attacker_losses": dict(sorted(att_loss.items())),
            "ledger": ledger}


def _counted(n: int, one: str, many: str = "") -> str:
    """``n`` of a thing, in the singular for one: "1 die", "3 battalions"."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def odds_command(attack: int | None = None, defend: int | None = None, fjord: bool = False, cards: str | None = None,
                 defend_cards: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """The JSON result and the lines to print of ``hexwar odds kampen``; bad input raises ``ValueError``."""
    from hexwar.games.kampen.game import kampen_game

    if attack is None or defend is None:
        raise ValueError("hexwar odds kampen needs --attack N and --defend M (battalions)")
    if not (1 <= attack <= 100 and 1 <= defend <= 100):
        raise ValueError("--attack and --defend count battalions: 1 to 100 each")

    def split(option: str, v: str | None) -> list[str]:
        """The card names of a comma-separated option; an empty name is refused."""
        if v is None:
            return []
        names = [c.strip() for c in v.split(",")]
        if not all(names):
            raise ValueError(f"{option} {v!r}: an empty card name; give card names separated by commas "
                             "(e.g. --cards panzer,speidertropp)")
        return names

    r = combat_odds(kampen_game("basic"), attack, defend, fjord, split("--cards", cards),
                    split("--defend-cards", defend_cards))
    js = {k: ({str(a): str(b) for a, b in v.items()} if isinstance(v, dict) else str(v) if not isinstance(v, (int, list)) else v)
          for k, v in r.items()}
    lines = list(r["ledger"])
    lines.append(f"dice: attacker {r['attacker_dice']}, defender {r['defender_dice']}")
    lines.append(f"attacker wins the area: {r['attacker_wins']} = {float(r['attacker_wins']) * 100:.1f}%  (ties go to the defender)")
    lines.append("losses (each 6 kills one) [4.2]")
    lines.append(f"  {'battalions lost':>15}  {'defender':>8}  {'attacker':>8}")
    for k in sorted(set(r["defender_losses"]) | set(r["attacker_losses"])):
        d, a = r["defender_losses"].get(k), r["attacker_losses"].get(k)
        lines.append(f"  {k:>15}  {f'{float(d) * 100:.1f}%' if d else '-':>8}  {f'{float(a) * 100:.1f}%' if a else '-':>8}")
    return js, lines


#: ``hexwar odds kampen [OPTIONS]``
odds = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)


@odds.command()
def kampen_odds(attack: Optional[int] = typer.Option(None, help="Attacking battalions"),
                defend: Optional[int] = typer.Option(None, help="Defending battalions"),
                fjord: bool = typer.Option(False, "--fjord", help="The attack crosses a fjord or lake (4.2)"),
                cards: Optional[str] = typer.Option(None, help="Attacker's cards, comma-separated (panzer=2, speidertropp ...)"),
                defend_cards: Optional[str] = typer.Option(None, help="Defender's cards, comma-separated (bakhold ...)")) -> Answer:
    """Exact odds of one land combat of Kampen om Norge (4.2): battalions, a fjord, the cards played."""
    data, lines = odds_command(attack, defend, fjord, cards, defend_cards)
    return Answer(data, list(lines))
