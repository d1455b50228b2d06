# Set-up and entry points. `make run` opens the app on the bundled sample,
# `make test` runs the whole suite (on every core: a test file's tests run in one worker,
# which keeps its module's fixtures); both create .venv on first use. Apache Beam pins
# protobuf below 7 and Pillow below 13, so its tests run in a second environment,
# .venv-beam, with the [beam] extra.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
BEAM_VENV ?= .venv-beam
BEAM_PY := $(BEAM_VENV)/bin/python
SAMPLE := resources/samples
# The checkout is installed as a plain path entry: the default editable mode's import
# hook costs every Python process here about 10 ms of start-up, which an installed wheel
# does not pay (and the benchmarks time whole processes).
EDITABLE := --config-settings editable_mode=compat

.PHONY: run test lint bench fuzz bundle samples clean

NATIVE := setup.py $(wildcard native/*.c native/*.h)

$(VENV)/.run-installed: pyproject.toml $(NATIVE)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q $(EDITABLE) -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml $(NATIVE)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q $(EDITABLE) -e '.[test]'
	touch $@ $(VENV)/.run-installed

$(BEAM_VENV)/.installed: pyproject.toml $(NATIVE)
	$(PYTHON) -m venv $(BEAM_VENV)
	$(BEAM_PY) -m pip install -q $(EDITABLE) -e '.[beam]' pytest pytest-timeout tensorflow-cpu
	touch $@

run: $(VENV)/.run-installed
	$(VENV)/bin/tfr-viewer $(SAMPLE)

test: $(VENV)/.test-installed $(BEAM_VENV)/.installed
	$(PY) -m ruff check tfr_viewer tests packaging
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache
	$(PY) tests/tools/import_cycles.py tfr_viewer
	$(PY) tests/tools/key_reads.py
	$(PY) -m pytest -n auto --dist loadfile
	$(BEAM_PY) -m pytest -p no:cacheprovider tests/beam

lint: $(VENV)/.test-installed
	$(PY) -m ruff check tfr_viewer tests packaging
	$(PY) -m ruff format --check tfr_viewer tests packaging
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache
	$(PY) tests/tools/import_cycles.py tfr_viewer
	$(PY) tests/tools/key_reads.py

bench: $(VENV)/.test-installed $(BEAM_VENV)/.installed
	$(PY) -m pip install -q $(EDITABLE) -e '.[bench]'
	$(PY) tests/benchmarks/run_benchmarks.py
	$(PY) tests/benchmarks/columnar_benchmarks.py
	$(PY) tests/benchmarks/verify_benchmarks.py
	$(PY) tests/benchmarks/qa_benchmarks.py
	$(PY) tests/benchmarks/convert_benchmarks.py
	$(PY) tests/benchmarks/remote_benchmarks.py
	$(PY) tests/benchmarks/crc_benchmarks.py
	$(PY) tests/benchmarks/scale_benchmarks.py
	$(BEAM_PY) tests/benchmarks/beam_benchmarks.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/gui_benchmarks.py
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/episode_benchmarks.py
	$(PY) tests/benchmarks/episode_check_benchmarks.py
	$(PY) tests/benchmarks/event_benchmarks.py
	$(PY) tests/benchmarks/message_benchmarks.py
	$(PY) tests/benchmarks/sql_benchmarks.py

fuzz: $(VENV)/.test-installed
	$(PY) -m tests.fuzz.run --cases 100000 --seed 1
	$(PY) -m tests.hostile.commands --inputs 2000 --seed 1

bundle:
	packaging/build.sh

samples: $(VENV)/.run-installed
	$(PY) -m tfr_viewer.samples $(SAMPLE)

clean:
	rm -rf $(VENV) $(BEAM_VENV) build dist *.egg-info .pytest_cache .ruff_cache
