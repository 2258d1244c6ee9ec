# adgen: common tasks. `make demo` and `make test` work on a fresh machine.
# Everything runs in a virtual environment in the checkout (.venv): the system's python3
# may refuse to install packages (Debian and Ubuntu: PEP 668, "externally-managed-environment").
PYTHON ?= python3
VENV ?= .venv
PY = $(VENV)/bin/python
PIP_ENV = PIP_DISABLE_PIP_VERSION_CHECK=1

.PHONY: setup demo test test-static fuzz-long fuzz-long-fortran fuzz-long-trust bench bench-gen bench-omp bench-mpi sanitize

# The virtual environment; python3's venv module comes with Debian's python3-venv, which is
# installed with apt-get when it is missing and this is root.
$(PY):
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { rm -rf $(VENV); \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: $(PYTHON) -m venv needs python3-venv: apt-get install python3-venv"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv && \
	    $(PYTHON) -m venv $(VENV); \
	  else echo "make: $(PYTHON) -m venv failed: install python3-venv (apt-get install python3-venv)" >&2; \
	    exit 1; fi; }

# adgen (editable) with the test dependencies, installed again when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP_ENV) $(PY) -m pip install --quiet -e '.[test]'
	@touch $@

# adgen's modules compiled to bytecode as pip does for an installed package (an editable
# install is not compiled, and PYTHONDONTWRITEBYTECODE keeps Python from doing it itself):
# each adgen run would otherwise compile them again.
setup: $(VENV)/.installed
	@$(PY) -m compileall -q adgen >/dev/null

# Differentiate the bundled example, build it and check its gradient.
demo: setup
	$(PY) examples/demo.py

# The tools the tests need from Debian (gfortran) first, installed where missing and
# possible; then the tests on every core.
test: setup
	$(PY) tests/tools.py
	$(PY) -m pytest -q -n auto --dist worksteal tests/

# The test programs (C and Fortran) with adjoints on a static stack only (`make test` runs
# them with both stacks); a C program that allocates nothing is checked to call no
# allocator in its adjoint.
test-static: setup
	ADGEN_TEST_STACK=static $(PY) -m pytest -q tests/test_testsuite.py tests/test_fortran.py

# Long fuzzing campaign; failing programs are kept under testsuite/c/regress.
fuzz-long: setup
	$(PY) -m tests.fuzz --count 10000 --seed 1 --keep testsuite/c/regress

# Long fuzzing campaign on Fortran programs (gfortran needed); failing programs are
# minimized into fuzz-failures/fortran (with the programs as generated in raw/).
fuzz-long-fortran: setup
	$(PY) -m tests.fuzz --lang fortran --count 5000 --seed 100000 --keep fuzz-failures/fortran

# Long fuzzing campaign on programs of the shapes of tests/fuzz/trust.py (long
# recurrences, clamps at singular points, f2c offsets); failing programs go to
# fuzz-failures/trust/raw.
fuzz-long-trust: setup
	$(PY) -m tests.fuzz --lang trust --count 10000 --seed 5000000 --keep fuzz-failures/trust

bench: setup
	$(PY) bench/run.py

# How adgen's own time and memory grow with its input (synthetic programs of growing size);
# the table goes to docs/generation-time.md.
bench-gen: setup
	$(PY) bench/gen_time.py --out docs/benchmarks.md

# The adjoint of an OpenMP parallel loop on one thread and on two (bench/openmp.py).
bench-omp: setup
	$(PY) bench/openmp.py --out docs/benchmarks.md

# The adjoint of a distributed solver on 1, 2 and 4 ranks (bench/mpi.py; Open MPI).
bench-mpi: setup
	$(PY) bench/mpi.py --out docs/benchmarks.md

# The test programs (C and Fortran) with the generated code and drivers built with
# ASan/UBSan, LeakSanitizer on: memory the program or the derivative code loses is
# reported (the drivers' own buffers, kept to the end on purpose, are not).
sanitize: setup
	ADGEN_TEST_SANITIZE=1 $(PY) -m pytest -q tests/test_testsuite.py tests/test_fortran.py
