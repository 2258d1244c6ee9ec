"""Random differential testing of adgen.

generator.py  seeded random C99 programs carrying an `adgen-test` block
fortran_generator.py  the same for free-form Fortran programs (--lang fortran)
selfcheck.py  checks a generated program on its own (gcc -Werror, sanitizers, finite outputs;
              gfortran -std=f2008 -Wall -Werror for Fortran)
runner.py     runs checks in subprocesses (harness or self-check), classifies failures
minimize.py   delta debugging over the generator's AST while a failure persists
fortran_minimize.py  statement deletion over a generated Fortran program
__main__.py   command line: python -m tests.fuzz --count N --seed S [--keep DIR]
"""
