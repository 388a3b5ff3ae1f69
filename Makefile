# Two commands on a fresh machine: `make report` and `make test` (see README.md).
PYTHON ?= python3
REPORT_ARGS ?=
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: report test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

report: $(STAMP)
	$(BIN)/empires report --out reports $(REPORT_ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) reports/*/ reports/index.html
