# One command per generated artefact. The reports take a few minutes on 2 cores.
.PHONY: reports maps test bench

reports:  ## docs/compare-boards/ and docs/compare-games/ (issue 7)
	hexwar compare --preset boards
	hexwar compare --preset games

maps:  ## maps/narvik.yaml, maps/norway.yaml and maps/europa.yaml from their geography (needs pip install '.[mapbuild]')
	hexwar map build narvik
	hexwar map build norway
	hexwar map build europa

test:
	python -m pytest

bench:
	python bench/bench_movement.py && python bench/bench_supply.py && python bench/bench_crt.py
	python bench/bench_game.py && python bench/bench_choices.py && python bench/bench_kampen.py && python bench/bench_bots.py
	python bench/bench_web.py && python bench/bench_europa.py
