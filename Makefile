# One command per generated artefact. `make reports` took 6 min 18 s on 2 cores in a clean clone installed with `pip install ".[report]"` (its figures need matplotlib) (2026-11-27, at 4ff74ee; 7 min 56 s at 130a73b with every cached row played again, the rows now naming their build, and every figure as it was; 6 min 8 s at a4b6576, 5 min 45 s at 31fb0a0, 8 min 2 s at 3280967; 9 min 50 s at cb3e440 with HEXWAR_NATIVE=1 and every row played again, the compiled engine's marker comments having changed the build fingerprint; 8 min 12 s at 70925b1 with every row played again, the machine partly busy with tests, 70% of it the 2000 Assault on Narvik priority games; 61 min 45 s of wall clock and 45 min 11 s of CPU at 20db4b6 with every row played again and the two switches reports and the boards report's search bot pairing added, on a machine busy with the bot ladder and tests: about 23 min on 2 quiet cores; 21 min 21 s at 8134ac7 on 2 quiet cores with the compiled engine and every row played again, 39 min of CPU, the boards report's search pairing now other games since the search keeps its priors (2212a36); 15 min 13 s at 4783433 on 2 quiet cores, compiled, every row played again, 27 min 38 s of CPU, with the faster Europa, Konflikt and Kampen bots and the search's unchecked rollouts: every report, figure and summary byte for byte as committed; 13 min 46 s at 630290d on 2 cores, compiled, every row played again, 24 min 33 s of CPU with the engine's build, the presets sharing docs/rows/ so that a setup two reports share is played once: every figure and summary as committed), and wrote every report into the clone's docs/ byte for byte as committed (the boards report's words at d72699c written again from the same rows, robust.py's wording changed since).
.PHONY: reports reports-konflikt ladder maps test bench native

# The reports' and the ladder's games are played by the compiled engine where it can be built
# here (the same games, faster: hexwar/native.py); NATIVE=0 plays them in pure Python.
NATIVE ?= 1
reports reports-konflikt ladder: export HEXWAR_NATIVE = $(NATIVE)
reports reports-konflikt ladder: native

# HEXWAR_NATIVE=0 for the build, which plays nothing: the reports' export of 1 reaches their prerequisite,
# and a first build began by saying it would play pure Python
native:  ## the compiled engine for these sources (hexwar native build), once; without mypyc or a C compiler the games stay pure Python
	-HEXWAR_NATIVE=0 hexwar native build

reports: reports-konflikt  ## docs/compare-boards/, docs/sweep-kampen/ (issue 72), docs/compare-games/ (issue 7), docs/compare-konflikt/ (issue 16), docs/switches-narvik/ and docs/switches-europa/ (issue 58)
	hexwar compare --preset boards
	hexwar compare --preset sweep-kampen
	hexwar compare --preset games
	hexwar compare --preset switches-narvik
	hexwar compare --preset switches-europa

KONFLIKT = envelopment maximum_attrition point_defence hold_until_relieved top_secret demolition
reports-konflikt:  ## docs/compare-konflikt/: each Konflikt '47 template on the hex table and on its areas (issue 16)
	for s in $(KONFLIKT); do hexwar compare konflikt/$$s@table:priority konflikt/$$s@table-areas:priority \
	  --games 100 --out docs/compare-konflikt/$$s --title "Konflikt '47 $$s: 3-inch hexes against the areas cut from them"; done

LADDER_ROUNDS ?= 4
LADDER_JOBS ?= 2
LADDER = hexwar ladder --rounds $$r --jobs $(LADDER_JOBS) --out docs/ladder
ladder:  ## docs/ladder/: every game's bots rated against each other (issue 57), round by round across the games; resumable, LADDER_ROUNDS=N extends it
	for r in $$(seq 1 $(LADDER_ROUNDS)); do \
	  $(LADDER) kampen --playouts 8 --playouts 32 && \
	  $(LADDER) konflikt $(foreach s,$(KONFLIKT),--scenario $(s)) --playouts 2 --playouts 8 && \
	  $(LADDER) narvik --playouts 8 --playouts 32 && \
	  $(LADDER) europa --playouts 2 --playouts 8 || exit 1; done

maps:  ## maps/narvik.yaml, maps/norway.yaml and maps/europa.yaml from their geography (needs pip install '.[mapbuild]')
	hexwar map build narvik
	hexwar map build norway
	hexwar map build europa

test:
	python -m pytest

bench:
	python bench/bench_movement.py && python bench/bench_supply.py && python bench/bench_crt.py
	python bench/bench_game.py && python bench/bench_choices.py && python bench/bench_kampen.py && python bench/bench_hex_steps.py && python bench/bench_bots.py
	python bench/bench_web.py && python bench/bench_europa.py
