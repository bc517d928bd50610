"""The terminal's help offers, in every game, only commands that work there: a short order
where orders name their units, ``rules`` where the game has a glossary (and the terms the
help names are in it), each term citing a section of its rules."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from hexwar import registry
from hexwar.ui.words import cites
from hexwar.ui.play import terminal
from hexwar.ui.words import said_text

COVERAGE = (Path(__file__).resolve().parents[2] / "docs" / "rules-coverage.md").read_text()


def _player(info, seed=3):
    g = info.build()
    s = g.new_state(seed)
    return s, terminal(info.presenter, s, set(info.sides), {}, Console(file=io.StringIO()), None, lambda _: "quit")


def _named_orders(s, p, decisions=150):
    """Orders of a random game that name a unit and a place (what a short order picks from)."""
    rng = random.Random(5)
    for _ in range(decisions):
        if s.is_over():
            return
        legal = s.legal_orders()
        for o in legal:
            m = p.presenter.order_marks(o)
            if len(m["u"]) == 1 and m["t"]:
                yield o, m, legal
        s.apply(rng.choice(legal))


@pytest.mark.parametrize("name", registry.names())
def test_help_offers_a_short_order_only_where_one_can_be_given(name):
    s, p = _player(registry.get(name))
    offered = "<verb> <unit> <place>" in p.help_text()
    found = next(_named_orders(s, p), None)
    assert offered == (found is not None), (name, offered, found)
    if found:
        o, m, legal = found
        verb = o.text().split()[0]
        picked = p.parse(f"{verb} {m['u'][0]} {m['t']}", legal)
        assert picked is not None and picked.text().split()[0] == verb
        mk = p.presenter.order_marks(picked)
        assert mk["u"] == m["u"] and mk["t"] == m["t"]


@pytest.mark.parametrize("name", registry.names())
def test_help_offers_rules_only_with_a_glossary_and_names_terms_it_has(name):
    _s, p = _player(registry.get(name))
    help_ = p.help_text()
    line = next((ln for ln in help_.splitlines() if ln.strip().startswith("rules [term]")), None)
    assert (line is not None) == bool(p.presenter.glossary)
    if line is None:
        assert "rules" not in p.completions("")
        return
    assert "rules" in p.completions("")
    named = [t.removeprefix("rules ") for t in re.search(r"\((rules [^)]*)\)$", line).group(1).split(", ")]
    assert len(named) == 2
    for term in named:
        assert p.rules_text(term).startswith(f"{term}: ") and re.search(r"\[[\w., ]+\]$", p.rules_text(term))


def test_kampen_glossary_cites_its_sections_and_finds_a_term_by_one_word():
    """Every term of Kampen om Norge cites sections of its rules (rows K<section> of the
    coverage table); a word that only one term has finds it; an unknown one lists them."""
    _s, p = _player(registry.get("kampen"))
    assert len(p.presenter.glossary) >= 20
    for term, (meaning, section) in p.presenter.glossary.items():
        assert meaning and not meaning.endswith(".")
        for sec in section.split(", "):
            assert re.search(rf"\| K{re.escape(sec)}\b|\| K[\d.]+, K{re.escape(sec)}\b", COVERAGE), (term, sec)
    assert p.rules_text("mobilisation").startswith("mobilisation point: ") and "[2.3, 4.3]" in p.rules_text("mobilisation")
    assert p.rules_text("Point  City").startswith("point city: ")
    both = p.rules_text("victory").splitlines()  # a word of two terms: both defined
    assert [ln.split(":")[0] for ln in both] == ["clear victory", "narrow victory"] and both[1].endswith("[1.3]")
    assert p.rules_text("o").startswith("no term 'o'; terms: ")  # a letter of many: their names
    assert p.rules_text("zzz").startswith("no term 'zzz'; terms: 9 April round, advanced, air range")  # the scenarios are terms too
    assert p.rules_text("").startswith("terms: 9 April round, advanced, air range, basic, battalion")


def _covered(section):
    """Whether a row of the coverage table names an Assault on Narvik section (its first
    cell: ``| 9.1, 9.1.1 Actions``, ``| 11.0-11.2 Concealment``)."""
    for row in COVERAGE.splitlines():
        cell = row.split("|")[1] if row.startswith("| ") else ""
        nums = re.findall(r"(?<![\w.])\d+(?:\.\d+)+(?:-\d+(?:\.\d+)+)?", cell)
        if nums and cites(", ".join(nums), section):
            return True
    return False


def test_narvik_glossary_has_the_rules_words_and_cites_covered_sections():
    """A player looks up the rules' words, not only their abbreviations (rules supply, rules
    dummy): every term cites sections of the rulebook that the coverage table names."""
    _s, p = _player(registry.get("narvik"))
    for word in ("supply", "Base", "fatigue", "dummy", "retreat", "advance", "initiative", "reaction",
                 "artillery", "tank", "formation", "landing", "amphibious assault", "Harstad", "Sweden", "stacking"):
        assert word in p.presenter.glossary, word
    for term, (meaning, section) in p.presenter.glossary.items():
        assert meaning and not meaning.endswith("."), term
        for sec in section.split(", "):
            assert _covered(sec), (term, sec)
    assert not _covered("99.9") and _covered("11.1") and _covered("23.3")  # the check itself: a range, a gap


def test_cites_reads_a_glossary_entrys_sections_ranges_and_subsections():
    assert cites("19.2, 19.3", "19.3") and cites("19.2, 19.3", "19")  # the section, or one under it
    assert not cites("19.2, 19.3", "19.4") and not cites("19.2", "1") and not cites("19.2", "19.2.1")
    assert cites("8.0-8.3", "8.2.1") and cites("8.0-8.3", "8.3") and not cites("8.0-8.3", "8.4")
    assert cites("E1, E6", "e6") and not cites("E1", "1") and not cites("E1-E3", "2")
    assert cites("0", "0") and not cites("authored", "1")


def test_rules_finds_a_term_by_section_plural_or_a_word_of_its_meaning():
    """rules 19.4 (as explain cites it) gives the terms that cite the section; a plural finds
    its term; a word no term is named by gives the terms whose meaning uses it; a word no
    term has lists them all."""
    _s, p = _player(registry.get("narvik"))
    base = p.rules_text("19.4").splitlines()
    assert base[0] == "section 19.4 is cited by:" and base[1].startswith("Base: ") and base[1].endswith("[19.4]")
    assert len(base) == 2
    assert p.rules_text("19") == "section 19 is cited by: Base, German supply, LoS, supply"
    assert p.rules_text("8.2.1").splitlines()[1].startswith("Führer Orders: ")
    assert p.rules_text("dummies").startswith("dummy: ") and p.rules_text("tanks").startswith("tank: ")
    assert p.rules_text("bases").startswith("Base: ")
    ridge = p.rules_text("ridge").splitlines()
    assert ridge[0] == "no term 'ridge'; it comes up in:"
    assert [ln.split(":")[0] for ln in ridge[1:]] == ["artillery", "bombardment"]
    assert p.rules_text("99.9").startswith("no term '99.9'; terms: action, AD, advance")  # by name, any case
    k = _player(registry.get("kampen"))[1]
    assert k.rules_text("sixes").startswith("six: ")
    assert k.rules_text("4.2") == "section 4.2 is cited by: card type, combat dice, fjord, six, tie, withdraw"


def test_a_line_not_understood_shows_the_listed_orders_holding_its_words_by_their_numbers():
    """Kampen om Norge has no short order; ``move <from> <to>`` is answered with the listed
    orders that hold those words in that order, by their numbers, and a number gives its
    order. Words in another order still find orders holding them all; a line matching many
    shows the first five and how to list the rest; one matching none says where to look.
    Nothing is applied."""
    s, p = _player(registry.get("kampen"), seed=11)
    legal = s.legal_orders()
    before = s.data.to_json()
    move = next(o for o in legal if type(o).__name__ == "KMove")
    text = p.not_understood(f"move {move.src} {move.dst}", legal)
    assert text.startswith(f"not understood: 'move {move.src} {move.dst}'; the orders with those words (type a number):")
    rows = [ln.split() for ln in text.splitlines()[1:]]
    want = [o for o in legal if o.text().startswith("move ") and o.text().endswith(f" {move.src}>{move.dst}")]
    said = p.presenter.order_line  # the orders by their names (Mosjøen → Mo i Rana), not their ids
    assert [r[1:] for r in rows] == [said(o).split() for o in want[:5]] and move in want
    assert all(p.parse(r[0], legal) == o for r, o in zip(rows, want))
    back = p.not_understood(f"{move.dst} {move.src} move", legal).splitlines()[1:]  # no order has them so
    holding_all = [said(o) for o in legal if all(w in o.text() for w in (move.dst, move.src, "move"))]
    assert said(move) in holding_all and [ln.split(None, 1)[1] for ln in back[:5]] == holding_all[:5]
    many = p.not_understood("Move", legal).splitlines()
    holding = [o for o in legal if "move" in o.text()]
    assert len(holding) > 5 and "with that word" in many[0]
    assert [ln.split(None, 1)[1] for ln in many[1:6]] == [said(o) for o in holding[:5]]
    assert many[6] == f"  ... and {len(holding) - 5} more; 'list move' shows every order with that word" and len(many) == 7
    verbs = {}
    for o in legal:
        verbs[o.text().split()[0]] = verbs.get(o.text().split()[0], 0) + 1
    assert len(verbs) == 2  # a line of no order's words is told the few kinds of order there are now
    assert p.not_understood("bogus words", legal) == \
        f"not understood: 'bogus words'; the orders now: {', '.join(f'{k} {n}' for k, n in sorted(verbs.items()))} (list shows them)"
    assert s.data.to_json() == before


def test_a_line_not_understood_prefers_the_orders_with_its_words_in_the_order_typed():
    """``move a b`` shows the moves from a to b, not those from b to a (found in a random
    game of Kampen om Norge at a decision that has both)."""
    import random

    s, p = _player(registry.get("kampen"), seed=4)
    rng = random.Random(2)
    for _ in range(400):
        legal = s.legal_orders()
        texts = [o.text() for o in legal]
        both = next((o for o in legal if type(o).__name__ == "KMove"
                     and any(t.endswith(f" {o.dst}>{o.src}") and t.startswith("move ") for t in texts)), None)
        if both is not None:
            break
        s.apply(rng.choice(legal))
    assert both is not None
    rows = p.not_understood(f"move {both.src} {both.dst}", legal).splitlines()[1:]
    name = p.presenter.place_word  # the list says the areas by their names
    assert any(r.endswith(f" {name(both.src)} → {name(both.dst)}") for r in rows)
    assert not any(r.endswith(f" {name(both.dst)} → {name(both.src)}") for r in rows)


@pytest.mark.parametrize("name", ["narvik", "europa", "konflikt"])
def test_a_short_move_a_unit_cannot_make_says_why_and_changes_nothing(name):
    """``move UNIT PLACE`` with no such listed move says why, as ``explain UNIT PLACE`` does:
    the unit cannot get there (14.1 / E4), or is there already, or may not move now (E4: moved
    already this phase); typed in any case. Assault on Narvik no longer reads it as a path of
    one hex ('a move starts at ... and enters at least one hex'). A short move it can make
    is still given."""
    info = registry.get(name)
    s = info.build().new_state(3)
    rng = random.Random(1)
    far = here = moved = 0
    for _ in range(400):
        if s.is_over() or (far and here and (moved or name != "europa")):
            break
        legal = s.legal_orders()
        me = s.current_side()
        p = terminal(info.presenter, s, {me}, {}, Console(file=io.StringIO(), width=250), None, lambda _: "quit")
        d = p.session.view()
        moves = [o for o in legal if type(o).__name__ == "Move" and len(o.path) > 1]
        if moves:
            before = s.data.to_json()
            o = moves[0]
            u = d.units[o.unit]
            listed = {m.path[-1] for m in moves if m.unit == o.unit}
            out = next((x for x in sorted(s.game.board.locations()) if x not in listed and x != u.loc
                        and said_text(p.presenter.explain_move(o.unit, x)).startswith(f"{o.unit} cannot reach {x} ")), None)
            if out is not None:
                assert p.parse(f"move {o.unit.lower()} {out}", legal) is None
                why = said_text(p.presenter.explain_move(o.unit, out)).split("\n", 1)[0]  # the reason; its ledger at explain
                assert p.not_understood(f"move {o.unit.lower()} {out}", legal).startswith(f"no move of {o.unit} to {out}: {why}")
                far += 1
            assert p.not_understood(f"move {o.unit} {u.loc}", legal) == f"no move of {o.unit} to {u.loc}: {o.unit} is at {u.loc} already"
            assert p.parse(f"move {o.unit} {o.path[-1]}", legal).path[-1] == o.path[-1]  # a short move it can make
            here += 1
            assert s.data.to_json() == before
            if name == "europa":
                from hexwar.games.europa.phases.movement import destinations

                g = s.game
                gone = next((u for u in d.on_map(me) if u.id in d.moved and u.id not in d.carried
                             and destinations(g, d, u, d.phase == "exploitation")), None)
                if gone is not None:
                    x = sorted(destinations(g, d, gone, d.phase == "exploitation"))[0]
                    assert p.not_understood(f"move {gone.id} {x}", legal) == \
                        f"no move of {gone.id} to {x} now: it has moved already this phase (E4)"
                    moved += 1
        s.apply(rng.choice([o for o in legal if type(o).__name__ == "Move"] or legal))
    assert far and here and (moved or name != "europa"), (far, here, moved)


def test_an_order_of_another_decision_is_told_the_orders_there_are_now():
    """'pass' typed where the Norwegians must choose their retreat (E1) names the kind of
    orders there are now, not only 'not understood'."""
    info = registry.get("europa")
    s = info.build().new_state(5)
    rng = random.Random(1)
    for _ in range(400):
        legal = s.legal_orders()
        if all(o.text().startswith("retreat ") for o in legal):
            break
        s.apply(rng.choice([o for o in legal if o.text().startswith("attack ")] or legal))
    p = terminal(info.presenter, s, {s.current_side()}, {}, Console(file=io.StringIO()), None, lambda _: "quit")
    assert p.not_understood("pass", legal) == f"not understood: 'pass'; the orders now: retreat {len(legal)} (list shows them)"
    assert p.not_understood("", legal) == "not understood: '' (type help, or list to see orders)"


def test_konflikt_glossary_cites_its_sections():
    """Every term of the Konflikt '47 scenario rules cites sections that are rows K47 <section>
    of the coverage table, none of them a rule the game leaves out (3.2, 3.7)."""
    _s, p = _player(registry.get("konflikt"))
    assert len(p.presenter.glossary) >= 10
    for term, (meaning, section) in p.presenter.glossary.items():
        assert meaning and not meaning.endswith(".")
        for sec in section.split(", "):
            row = re.search(rf"^\| K47 {re.escape(sec)} [^|]*\| (\w+) \|", COVERAGE, flags=re.M)
            assert row and row.group(1) == "done", (term, sec)
    assert p.rules_text("outflank").startswith("outflanking: ") and p.rules_text("outflank").endswith("[3.5]")


def test_europa_glossary_cites_its_sections_and_reads_its_numbers_from_the_charts():
    """Every term of the Europa variant cites sections that are rows E<n> of the coverage
    table. The numbers it quotes are the charts' (tables/europa/rules.yaml, the unit types),
    marked ours where their provenance is authored; a player's own chart, dropped in with
    the rules as its source, is quoted as it stands and not called ours."""
    from hexwar.games.europa.play import glossary

    _s, p = _player(registry.get("europa"))
    assert len(p.presenter.glossary) >= 10
    for term, (meaning, section) in p.presenter.glossary.items():
        assert meaning and not meaning.endswith(".")
        for sec in section.split(", "):
            assert re.search(rf"^\| {re.escape(sec)} ", COVERAGE, flags=re.M), (term, sec)
    said = {k: m for k, (m, _) in p.presenter.glossary.items()}
    assert "at most 6 hexes (ours) from" in said["general supply"] and "within 3 hexes (ours)" in said["attack supply"]
    assert "on a die of 1-4 (ours);" in said["retreat before combat"] and "on 1-3 (ours) it" in said["retreat before combat"]
    assert "keeps 0 (ours) of its attack, 1/2 (ours) of its defence" in said["disrupted"]
    assert "at most 2 (ours))" in said["absorb"] and "a port, 1 (ours) a turn" in said["interdict"]
    assert "2 ground units" in said["stacking"] and "(ours)" not in said["stacking"]  # E5 states it

    g = p.presenter.game
    rules = g.rules.model_copy(update={
        "general_supply": g.rules.general_supply.model_copy(update={"hexes": 5, "source": "rules E1"}),
        "turn1_retreat": [b.model_copy(update={"hi": 3, "source": "rules E1"}) if b.result == "retreat" else b
                          for b in g.rules.turn1_retreat]})
    theirs = {k: m for k, (m, _) in glossary(type("G", (), {"rules": rules, "types": g.types})()).items()}
    assert "at most 5 hexes from" in theirs["general supply"] and "on a die of 1-3;" in theirs["retreat before combat"]


@pytest.mark.parametrize("name", registry.names())
def test_a_long_list_folds_into_lines_a_person_reads_each_opened_by_its_own_words(name):
    """Issue 53: a list of hundreds of orders shows in at most ``MAX_FOLDED`` lines, grouped by
    kind and unit; every order is shown or counted in a group, and each group's ``list``
    words (taken from its own orders, never another game's) keep its orders and fewer than all."""
    import re

    from hexwar.ui.commands import MAX_FOLDED, MAX_LISTED
    from hexwar.ui.words import holding

    s, p = _player(registry.get(name))
    rng = random.Random(7)
    seen = 0
    for _ in range(300):
        if s.is_over():
            break
        legal = s.legal_orders()
        if len(legal) > MAX_LISTED:
            buf = io.StringIO()
            p.out = Console(file=buf, width=300)
            p.list_orders(legal)
            lines = buf.getvalue().splitlines()
            assert len(lines) <= MAX_FOLDED + 2, (name, len(lines))
            counted = 0
            for line in lines[1:] if "more: list <words>" in lines[-1] else lines[1:-1]:
                m = re.match(r"\s+(\d+) orders: .*\(list (.+?)( <unit>)?\)$", line)
                more = re.match(r"\s+\.\.\. (\d+) more: list <words> narrows them", line)
                if more:  # one group's orders listed, the rest counted
                    counted += int(more.group(1))
                elif m:
                    counted += int(m.group(1))
                    kept = holding(m.group(2).split(), legal)
                    assert 0 < len(kept) < len(legal) and len(kept) >= int(m.group(1)), (name, line)
                else:
                    assert re.match(r"\s+\d+  \S", line), (name, line)
                    counted += 1
            assert counted == len(legal), name
            seen += 1
            if seen == 8:  # eight long lists of hundreds of orders each: the folding is one code path
                break
        s.apply(rng.choice(legal))
    assert seen > 0, name
