# Quickstart targets: each creates the project virtualenv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export MUJOCO_GL ?= egl

.PHONY: demo test bench lint install clean-venv

$(BIN)/activate:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'

install: $(BIN)/activate

demo: $(BIN)/activate
	$(BIN)/tpsrl-eval-study episodes=3 scenarios=tidy_house agents=tp_spa,tp_srl videos=1

test: $(BIN)/activate
	$(BIN)/python -m pytest -q

bench: $(BIN)/activate
	$(BIN)/tpsrl-bench sim --quick
	$(BIN)/tpsrl-bench engine --quick
	$(BIN)/tpsrl-bench train --quick
	$(BIN)/tpsrl-bench skills --quick
	$(BIN)/tpsrl-bench planner

lint: $(BIN)/activate
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

clean-venv:
	rm -rf $(VENV)
