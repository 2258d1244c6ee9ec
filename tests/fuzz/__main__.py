"""python -m tests.fuzz --count N --seed S [--keep DIR] [--jobs 2] [--lang fortran] ...

Generates programs (C, or Fortran with --lang fortran) for seeds S .. S+N-1, checks each (in parallel, in worker
processes: tests/fuzz/runner.py), prints one line per problem and the summary line `N passed, M failed, K skipped`.
With --keep DIR, each distinct failure (one per primary kind, or all with --minimize-all) is
minimized and written to DIR/fuzz_<seed>.c (.f90), its first line a comment naming the constructs
it exercises and the failure; every failing program as generated, with the checker's
message, goes to DIR/raw/.  Exit status 1 if anything failed.

Modes: harness (default when tests/harness.py exists): adgen + the harness;
primal: the harness without adgen, plus gcc/sanitizer self-check (validates the
generator; Fortran: gfortran -std=f2008 -Wall -Werror, and the primal run with
-fcheck=all); self: that self-check only.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import (distributed, fortran_generator, fortran_minimize, generator, minimize, runner,
               selfcheck, trust)


def set_test_seed(text: str, seed: int) -> str:
    return re.sub(r"^(! )?seed: \d+$", rf"\g<1>seed: {seed}", text, count=1, flags=re.M)


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.work = Path(args.workdir or tempfile.mkdtemp(prefix="adgen-fuzz-"))
        self.work.mkdir(parents=True, exist_ok=True)
        self.cfg = generator.Config()
        if args.extra_funcs:
            self.cfg.funcs = generator.CORE_FUNCS + generator.EXTRA_FUNCS
        self.cfg.infer_sizes = args.infer_share
        self.fortran = args.lang == "fortran"
        self.suffix = ".f90" if self.fortran else ".c"

    def generate(self, seed: int) -> str:
        if self.args.lang == "trust":
            return trust.generate(seed)
        if self.args.lang == "mpi":
            return distributed.generate(seed)
        return fortran_generator.generate(seed) if self.fortran else generator.generate(seed, self.cfg)

    def check_text(self, text: str, tag: str) -> dict:
        d = self.work / tag
        d.mkdir(parents=True, exist_ok=True)
        src = d / f"{tag}{self.suffix}"
        src.write_text(text)
        res = runner.check(src, d / "work", self.args.mode, self.args.timeout)
        if res["status"] == "pass" and not self.args.keep_work:
            shutil.rmtree(d, ignore_errors=True)
        return res

    def check_seed(self, seed: int) -> dict:
        if time.time() > self.deadline:
            return {"status": "notrun", "seed": seed, "kinds": [], "message": ""}
        text = self.generate(seed)
        res = self.check_text(text, f"fuzz_{seed}")
        if res["status"] == "fail" and set(res["kinds"]) <= runner.FD_KINDS:
            # judged by finite differences only: a kink next to the inputs can fake it;
            # if other input seeds pass, call it input-sensitive and skip it
            alt = [self.check_text(set_test_seed(text, 1000 + seed * 7 + k), f"fuzz_{seed}_alt{k}")
                   for k in (1, 2)]
            if all(a["status"] == "pass" for a in alt):
                res = dict(res, status="skip", kinds=["fd-input-sensitive"] + res["kinds"])
        res["seed"], res["text"] = seed, text
        return res

    def still_fails(self, kind: str, tag: str):
        def test(text: str) -> bool:
            # the candidate must stay a clean program (the harness compiles it without
            # optimisation only; -O3 also runs gcc's flow-sensitive warnings)
            src = self.work / tag / f"o3check{self.suffix}"
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_text(text)
            try:
                if self.fortran:
                    fortran_minimize.compiles(src)
                else:
                    selfcheck.compile_only(src, "-O3")
            except AssertionError:
                return False
            res = self.check_text(text, tag)
            return res["status"] == "fail" and kind in res["kinds"]
        return test

    def minimize_one(self, res: dict) -> Path:
        seed, kind = res["seed"], res["kinds"][0]
        keep = Path(self.args.keep)
        if self.fortran:
            mini, prog = fortran_minimize, fortran_generator.generate_program(seed)
        else:
            mini, prog = minimize, generator.generate_program(seed, self.cfg)
        t0 = time.time()
        if not self.still_fails(kind, f"min_{seed}")(mini.render(prog)):
            # adgen or the harness changed since the check, or the failure is flaky
            print(f"seed {seed} no longer fails with [{kind}]: not minimized", flush=True)
            return None
        best = mini.minimize(prog, self.still_fails(kind, f"min_{seed}"),
                                 max_tests=self.args.max_tests, max_seconds=self.args.max_minutes * 60,
                                 log=(print if self.args.verbose else None))
        text = mini.render(best)
        best.comment = (f"fuzz seed {seed}, minimized: {mini.describe(text)}; "
                        f"fails with: {kind}")
        out = keep / f"fuzz_{seed}{self.suffix}"
        out.write_text(mini.render(best))
        print(f"minimized seed {seed} [{kind}] in {time.time() - t0:.0f} s: "
              f"{res['text'].count(chr(10))} -> {out.read_text().count(chr(10))} lines: {out}",
              flush=True)
        return out

    def run(self) -> int:
        a = self.args
        seeds = range(a.seed, a.seed + a.count)
        t0 = time.time()
        self.deadline = t0 + (a.max_seconds or float("inf"))
        counts = {"pass": 0, "fail": 0, "skip": 0, "notrun": 0}
        failures = []
        with ThreadPoolExecutor(a.jobs) as ex:
            for res in ex.map(self.check_seed, seeds):
                st = res["status"]
                if st == "invalid":  # a generator bug counts as a failure
                    st = "fail"
                counts[st] += 1
                if st == "fail":
                    failures.append(res)
                    first = res["message"].strip().splitlines()
                    print(f"FAIL seed {res['seed']} [{'; '.join(res['kinds'])}]"
                          + (" (bad program from the generator)" if res["status"] == "invalid" else ""),
                          flush=True)
                    if a.verbose and first:
                        print("    " + "\n    ".join(first[:12]))
                elif st == "skip" and a.verbose:
                    print(f"skip seed {res['seed']} [{'; '.join(res['kinds'])}]")
        elapsed = time.time() - t0
        kinds: dict = {}
        for res in failures:
            kinds.setdefault(res["kinds"][0], []).append(res["seed"])
        if failures:
            print("failures by kind:")
            for k, ss in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
                print(f"  {len(ss):4d}  {k}  (seeds {', '.join(map(str, ss[:8]))}{' ...' if len(ss) > 8 else ''})")
        if a.keep and failures:
            # DIR gets the minimized programs only (it may be a test directory);
            # the programs as generated and the checker's messages go to DIR/raw
            raw = Path(a.keep) / "raw"
            raw.mkdir(parents=True, exist_ok=True)
            for res in failures:
                (raw / f"fuzz_{res['seed']}{self.suffix}").write_text(res["text"])
                (raw / f"fuzz_{res['seed']}.txt").write_text(
                    "kinds: " + "; ".join(res["kinds"]) + "\n\n" + res["message"])
            if not a.no_minimize and a.lang not in ("trust", "mpi"):   # short programs
                todo = failures if a.minimize_all else \
                    [r for r in failures if r["status"] == "fail" and r["seed"] == kinds[r["kinds"][0]][0]]
                with ThreadPoolExecutor(a.jobs) as ex:
                    list(ex.map(self.minimize_one, todo))
        if counts["notrun"]:
            print(f"time budget of {a.max_seconds:g} s spent: {counts['notrun']} programs not checked")
        print(f"checked {a.count - counts['notrun']} programs (seeds {a.seed}..{a.seed + a.count - 1}, mode {a.mode}) "
              f"in {elapsed:.0f} s; work files in {self.work}")
        print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
        return 1 if counts["fail"] else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20, help="number of programs")
    ap.add_argument("--lang", choices=("c", "fortran", "trust", "mpi"), default="c",
                    help="language of the generated programs (trust: C programs of the "
                         "shapes of tests/fuzz/trust.py; mpi: MPI programs of "
                         "tests/fuzz/distributed.py, run on 2 ranks)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--keep", help="directory for failing programs and their minimized forms")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mode", choices=("harness", "primal", "self"),
                    default="harness" if runner.harness_available() else "self")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per check")
    ap.add_argument("--max-seconds", type=float, help="start no check after this many seconds")
    ap.add_argument("--workdir", help="work files (default: a new temporary directory)")
    ap.add_argument("--keep-work", action="store_true", help="keep work files of passing programs")
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--minimize-all", action="store_true",
                    help="minimize every failure, not one per kind")
    ap.add_argument("--max-tests", type=int, default=300, help="checks per minimization")
    ap.add_argument("--max-minutes", type=float, default=15, help="time per minimization")
    ap.add_argument("--extra-funcs", action="store_true",
                    help="also tan sinh cosh asin acos log10 log1p expm1 cbrt")
    ap.add_argument("--infer-share", type=float, default=generator.Config.infer_sizes,
                    help="share of programs that let adgen infer array lengths (sizes: infer)")
    ap.add_argument("--print", type=int, metavar="SEED", help="print the program of SEED and exit")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.print is not None and args.lang == "fortran":
        sys.stdout.write(fortran_generator.generate(args.print))
        return 0
    if args.print is not None and args.lang in ("trust", "mpi"):
        sys.stdout.write((trust if args.lang == "trust" else distributed).generate(args.print))
        return 0
    if args.print is not None:
        cfg = generator.Config(infer_sizes=args.infer_share)
        if args.extra_funcs:
            cfg.funcs = generator.CORE_FUNCS + generator.EXTRA_FUNCS
        sys.stdout.write(generator.generate(args.print, cfg))
        return 0
    return Fuzzer(args).run()


if __name__ == "__main__":
    sys.exit(main())
