"""A stand-in for adgen used by tests/test_harness.py: copies hand-written derivatives.

Usage: python fake_adgen.py IMPL_DIR --reverse|--forward FILE --head HEAD -o OUT [...]
Copies IMPL_DIR/<func>_b.c or <func>_d.c to OUT; if IMPL_DIR/error.txt exists, prints it
to stderr and exits 1 instead (to test expect_error).
"""
import re
import shutil
import sys
from pathlib import Path

impl, args = Path(sys.argv[1]), sys.argv[2:]
if (impl / "error.txt").exists():
    sys.stderr.write((impl / "error.txt").read_text())
    sys.exit(1)
mode = "b" if "--reverse" in args else "d"
func = re.match(r"\s*(\w+)", args[args.index("--head") + 1]).group(1)
shutil.copy(impl / f"{func}_{mode}.c", args[args.index("-o") + 1])
