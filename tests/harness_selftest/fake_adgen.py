"""A stand-in for adgen used by tests/test_harness.py: copies hand-written derivatives.

Usage: python fake_adgen.py IMPL_DIR --reverse|--forward FILE --head HEAD -o OUT [...]
Copies IMPL_DIR/<func>_b.c or <func>_d.c to OUT (with --stack=static, IMPL_DIR/static/
<func>_b.c where there is one); if IMPL_DIR/error.txt exists, prints it to stderr and exits
1 instead (to test expect_error). With FAKE_ADGEN_LOG=FILE, each run appends its mode,
stack and function to FILE.
"""
import os
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
stack = "static" if "--stack=static" in args else "heap"
chosen = impl / f"{func}_{mode}.c"
if mode == "b" and stack == "static" and (impl / "static" / chosen.name).exists():
    chosen = impl / "static" / chosen.name
if os.environ.get("FAKE_ADGEN_LOG"):
    with open(os.environ["FAKE_ADGEN_LOG"], "a") as log:
        log.write(f"{mode} {stack if mode == 'b' else '-'} {func}\n")
shutil.copy(chosen, args[args.index("-o") + 1])
