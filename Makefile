# adgen: common tasks. `make demo` and `make test` work on a fresh machine.
PYTHON ?= python3
PIP_ENV = PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1

.PHONY: setup demo test test-static fuzz-long fuzz-long-fortran fuzz-long-trust bench sanitize

# Install adgen (editable) with the test dependencies; safe to run again.
setup:
	$(PIP_ENV) $(PYTHON) -m pip install --quiet -e '.[test]'

# Differentiate the bundled example, build it and check its gradient.
demo: setup
	$(PYTHON) examples/demo.py

test: setup
	$(PYTHON) -m pytest -q tests/

# The test programs (C and Fortran) with adjoints on a static stack only (`make test` runs
# them with both stacks); a C program that allocates nothing is checked to call no
# allocator in its adjoint.
test-static: setup
	ADGEN_TEST_STACK=static $(PYTHON) -m pytest -q tests/test_testsuite.py tests/test_fortran.py

# Long fuzzing campaign; failing programs are kept under testsuite/c/regress.
fuzz-long: setup
	$(PYTHON) -m tests.fuzz --count 10000 --seed 1 --keep testsuite/c/regress

# Long fuzzing campaign on Fortran programs (gfortran needed); failing programs are
# minimized into fuzz-failures/fortran (with the programs as generated in raw/).
fuzz-long-fortran: setup
	$(PYTHON) -m tests.fuzz --lang fortran --count 5000 --seed 100000 --keep fuzz-failures/fortran

# Long fuzzing campaign on programs of the shapes of tests/fuzz/trust.py (long
# recurrences, clamps at singular points, f2c offsets); failing programs go to
# fuzz-failures/trust/raw.
fuzz-long-trust: setup
	$(PYTHON) -m tests.fuzz --lang trust --count 10000 --seed 5000000 --keep fuzz-failures/trust

bench: setup
	$(PYTHON) bench/run.py

# The test programs (C and Fortran) with the generated code and drivers built with
# ASan/UBSan, LeakSanitizer on: memory the program or the derivative code loses is
# reported (the drivers' own buffers, kept to the end on purpose, are not).
sanitize: setup
	ADGEN_TEST_SANITIZE=1 $(PYTHON) -m pytest -q tests/test_testsuite.py tests/test_fortran.py
