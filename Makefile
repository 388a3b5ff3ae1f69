# Two commands on a fresh machine: `make report` and `make test` (see README.md).
PYTHON ?= python3
REPORT_ARGS ?=
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the compiled copies of sim.compiled.MODULES, rebuilt (only what changed) when their sources change;
# all of them when setup.py (the Cython directives) changed
COMPILED := sim/_compiled.json
COMPILED_SOURCES := setup.py sim/compiled.py $(wildcard sim/*/*.py)

.PHONY: report test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(COMPILED): $(COMPILED_SOURCES) | $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace $(if $(filter setup.py,$?),--force)

report: $(STAMP) $(COMPILED)
	$(BIN)/empires report --out reports $(REPORT_ARGS)

test: $(STAMP) $(COMPILED)
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

bench: $(STAMP) $(COMPILED)
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) reports/*/ reports/index.html build $(COMPILED) $(wildcard sim/*/*.so sim/*/*.c)
