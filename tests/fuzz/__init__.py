"""Random differential testing of adgen.

generator.py  seeded random C99 programs carrying an `adgen-test` block
selfcheck.py  checks a generated program on its own (gcc -Werror, sanitizers, finite outputs)
runner.py     runs checks in subprocesses (harness or self-check), classifies failures
minimize.py   delta debugging over the generator's AST while a failure persists
__main__.py   command line: python -m tests.fuzz --count N --seed S [--keep DIR]
"""
