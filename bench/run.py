#!/usr/bin/env python3
"""Speed benchmark of adgen's generated adjoints (not a unit test).

For each model (bench/gmm, bench/lstm) this script
  1. runs adgen (`sys.executable -m adgen --reverse`) to produce the adjoint;
  2. builds a sanitizer (ASan/UBSan) binary at a tiny size and checks every gradient
     component against central finite differences there; a memory error in adgen's adjoint
     is a failure; if it is a use-after-free, the timing builds defer the adjoint's free()
     calls until it returns (bench/common/model_hooks.h) so that it can still be measured;
  3. compiles primal, adgen's adjoint, the hand-written adjoint (GMM) and a C timing driver
     with `gcc -O3 -std=c99` (portable: no -march=native);
  4. checks the gradient at the benchmark size: adgen against the hand-written adjoint
     (GMM, 1e-8 componentwise relative) and against finite differences on a few components;
  5. times primal and gradients (best of several rounds, each >= 50 ms of repeated calls)
     and measures the peak heap of one call;
  6. prints a markdown table and writes it to docs/benchmarks.md.

Exit status: 0 when every gradient check passes, 1 when one fails (wrong gradient, crash,
memory error, adgen refusing the model), 2 on usage errors.  Slowness never fails: the
targets are reported as PASS/MISS.

    python bench/run.py            # full sizes (GMM d=64 k=50 n=1000, LSTM l=4 b=14 c=1024)
    python bench/run.py --quick    # small sizes, under a minute
Options: --no-write, --out FILE, --workdir DIR (keep the build), --models gmm,lstm,
--repeats N, --min-time S, --no-mem.  CC overrides the compiler (default gcc).

Standard library only.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
COMMON = BENCH / "common"
HOOKS = COMMON / "model_hooks.h"

CC = os.environ.get("CC", "gcc")
CFLAGS = ["-O3", "-std=c99"]
SANFLAGS = ["-O1", "-g", "-std=c99", "-fsanitize=address,undefined",
            "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]

# Tolerances of the gradient checks.
TOL_ADGEN_VS_HAND = 1e-8      # componentwise relative (floor 1e-6 |g|_inf), see bench.h
TOL_FD = 1e-6                 # 4th-order central differences, relative to
                              # max(|g_i|, 1e-3 |g|_inf)
TOL_PRIMAL = 1e-12            # primal outputs computed by the adjoints

ADGEN_TIMEOUT = 600
RUN_TIMEOUT = 3600


@dataclass
class Model:
    key: str
    name: str
    source: str                       # relative to bench/
    head: str
    driver: str
    hand: Optional[str]
    full: Tuple[int, ...]
    quick: Tuple[int, ...]
    tiny: Tuple[int, ...]
    size_names: Tuple[str, ...]
    target_ratio: float               # gradient / primal
    target_vs_hand: Optional[float]   # adgen / hand
    # --size options adgen is given only if it refuses the model without them
    fallback_sizes: List[str] = field(default_factory=list)

    def size_label(self, size):
        return ", ".join(f"{n}={v}" for n, v in zip(self.size_names, size))


MODELS = [
    Model(key="gmm", name="GMM", source="gmm/gmm.c",
          head="gmm_objective(err)/(alphas means icf)",
          driver="gmm/driver.c", hand="gmm/gmm_hand_b.c",
          full=(64, 50, 1000), quick=(20, 10, 1000), tiny=(3, 4, 5),
          size_names=("d", "k", "n"), target_ratio=4.5, target_vs_hand=1.5),
    Model(key="lstm", name="LSTM", source="lstm/lstm.c",
          head="lstm_objective(loss)/(main_params extra_params)",
          driver="lstm/driver.c", hand=None,
          full=(4, 14, 1024), quick=(4, 14, 256), tiny=(2, 4, 5),
          size_names=("layers", "hidden", "steps"), target_ratio=3.0, target_vs_hand=None,
          fallback_sizes=["state=2*l*b"]),
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Failed(Exception):
    """A step that makes the rest of a model's benchmark impossible."""


def run(cmd, cwd=None, timeout=RUN_TIMEOUT, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s: {' '.join(map(str, cmd))}"
    return p.returncode, p.stdout, p.stderr


def tail(text, n=12):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return "\n".join(lines[-n:])


# ------------------------------------------------------------------------------------------
# adgen and the builds
# ------------------------------------------------------------------------------------------

def run_adgen(model: Model, out: Path, res: dict, extra=()):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"]
                                     if env.get("PYTHONPATH") else "")
    base = [sys.executable, "-m", "adgen", "--reverse", str(BENCH / model.source),
            "--head", model.head, "-o", str(out), "--stack-report"] + list(extra)
    t0 = time.perf_counter()
    rc, so, se = run(base, cwd=REPO, timeout=ADGEN_TIMEOUT, env=env)
    res["adgen_seconds"] = time.perf_counter() - t0
    res["stack_report"] = so.strip()
    res["adgen_cmd"] = "adgen --reverse bench/" + model.source + f" --head '{model.head}'"
    if rc != 0 and model.fallback_sizes and "--size" in se:
        res["notes"].append(
            f"adgen refused the model without help:\n\n    {se.strip()}\n\n"
            f"so it was run again with " + " ".join(f"`--size {s}`" for s in model.fallback_sizes)
            + ".")
        sizes = [a for s in model.fallback_sizes for a in ("--size", s)]
        rc, so, se = run(base + sizes, cwd=REPO, timeout=ADGEN_TIMEOUT, env=env)
        res["adgen_cmd"] += " " + " ".join(f"--size '{s}'" for s in model.fallback_sizes)
    if rc != 0:
        raise Failed(f"adgen failed (exit {rc}):\n{tail(se)}")


def build(model: Model, adjoint: Path, exe: Path, flags: List[str], *,
          defer_free=False, track=False):
    """Compile driver, primal, adgen's adjoint and the hand adjoint separately, and link."""
    objdir = exe.parent / (exe.name + ".obj")
    objdir.mkdir(parents=True, exist_ok=True)
    inc = ["-I", str((BENCH / model.source).parent)]
    defs = (["-DBENCH_TRACK_ALLOC"] if track else []) + \
        (["-DBENCH_DEFER_FREE"] if defer_free else [])
    units = [(BENCH / model.driver, defs, False), (BENCH / model.source, [], True),
             (adjoint, [], True)]
    if model.hand:
        units.append((BENCH / model.hand, [], True))
    objs = []
    for src, extra, is_model in units:
        obj = objdir / (src.stem + ".o")
        hooks = []
        if is_model:
            if track:
                hooks += ["-DBENCH_TRACK_ALLOC"]
            if defer_free and src == adjoint:
                hooks += ["-DBENCH_DEFER_FREE"]
            if hooks:
                hooks += ["-include", str(HOOKS)]
        cmd = [CC] + flags + inc + extra + hooks + ["-c", str(src), "-o", str(obj)]
        rc, so, se = run(cmd)
        if rc != 0:
            raise Failed(f"compiling {src.name} failed:\n{tail(se)}\n(command: {' '.join(cmd)})")
        objs.append(str(obj))
    cmd = [CC] + flags + objs + ["-lm", "-o", str(exe)]
    rc, so, se = run(cmd)
    if rc != 0:
        raise Failed(f"linking {exe.name} failed:\n{tail(se)}")


def run_driver(exe: Path, args: List[str]):
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=0:" + env.get("ASAN_OPTIONS", "")
    rc, so, se = run([str(exe)] + [str(a) for a in args], env=env)
    sanitizer = sanitizer_report(se)
    data = None
    for line in so.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                pass
    return rc, data, se, sanitizer


def sanitizer_report(stderr: str) -> Optional[str]:
    """One line describing the first ASan/UBSan error in stderr (leaks are ignored)."""
    m = re.search(r"ERROR: AddressSanitizer: ([\w-]+)|([^\n]*runtime error:[^\n]*)", stderr)
    if not m:
        return None
    if m.group(2):
        return m.group(2).strip()
    what = m.group(1)
    access = re.search(r"(READ|WRITE) of size \d+", stderr[m.end():])
    if access:
        what += f" ({access.group(0)})"
    frames = [(fn, loc.split("/")[-1]) for fn, loc in
              re.findall(r"#\d+ 0x[0-9a-f]+ in (\S+) (\S+)", stderr[m.end():])]
    frames = [f for f in frames if not f[0].startswith("__")][:2]
    if frames:
        what += " in " + " called from ".join(f"{fn} ({loc})" for fn, loc in frames)
    return what


# ------------------------------------------------------------------------------------------
# One model
# ------------------------------------------------------------------------------------------

def add_check(res, name, value, tol, ok=None):
    if ok is None:
        ok = isinstance(value, (int, float)) and value == value and value <= tol
    res["checks"].append({"name": name, "value": value, "tol": tol, "ok": bool(ok)})


def num(data, key):
    v = data.get(key)
    if isinstance(v, str):
        return float(v)
    return v


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def checks_from(model: Model, data: dict, res: dict, label: str):
    """Checks of one `check`/`fdall` JSON object."""
    if model.key == "gmm":
        add_check(res, f"{label}: err of adgen's adjoint vs primal",
                  rel(num(data, "err_adgen"), num(data, "err_primal")), TOL_PRIMAL)
        add_check(res, f"{label}: err of hand adjoint vs primal",
                  rel(num(data, "err_hand"), num(data, "err_primal")), TOL_PRIMAL)
        add_check(res, f"{label}: seed errb consumed (adgen, hand)",
                  max(abs(num(data, "errb_adgen_after")), abs(num(data, "errb_hand_after"))),
                  0.0)
        add_check(res, f"{label}: adgen gradient vs hand gradient",
                  num(data, "adgen_vs_hand"), TOL_ADGEN_VS_HAND)
        add_check(res, f"{label}: adgen vs finite differences ({data['fd_count']} components)",
                  num(data, "fd_vs_adgen"), TOL_FD)
        add_check(res, f"{label}: hand vs finite differences ({data['fd_count']} components)",
                  num(data, "fd_vs_hand"), TOL_FD)
    else:
        add_check(res, f"{label}: loss of adgen's adjoint vs primal",
                  rel(num(data, "loss_adgen"), num(data, "loss_primal")), TOL_PRIMAL)
        add_check(res, f"{label}: final state of adgen's adjoint vs primal",
                  num(data, "state_adgen_vs_primal"), TOL_PRIMAL)
        add_check(res, f"{label}: seed lossb consumed", abs(num(data, "lossb_adgen_after")), 0.0)
        add_check(res, f"{label}: adgen vs finite differences ({data['fd_count']} components)",
                  num(data, "fd_vs_adgen"), TOL_FD)


def bench_model(model: Model, size, args, work: Path) -> dict:
    res = {"model": model, "size": size, "checks": [], "notes": [], "errors": [],
           "times": None, "mem": None, "workaround": False}
    d = work / model.key
    d.mkdir(parents=True, exist_ok=True)
    adjoint = d / (Path(model.source).stem + "_b.c")
    try:
        log(f"[{model.key}] adgen")
        run_adgen(model, adjoint, res)

        # Sanitizer build, every component against finite differences at a tiny size.
        san = d / "bench_san"
        san_ok = True
        try:
            build(model, adjoint, san, SANFLAGS)
        except Failed as exc:
            san_ok = False
            res["notes"].append("No sanitizer build (ASan/UBSan unavailable?): "
                                + str(exc).splitlines()[0])
        fdall = None
        if san_ok:
            log(f"[{model.key}] sanitizer build, finite differences at {model.size_label(model.tiny)}")
            rc, data, se, report = run_driver(san, ["fdall", *model.tiny])
            if report:
                in_adgen = adjoint.name in report
                whose = "adgen's adjoint" if in_adgen else "the benchmark"
                res["errors"].append(f"memory error in {whose} (sanitizer build, "
                                     f"{model.size_label(model.tiny)}): {report}")
                res["san_report"] = report
                if in_adgen and "heap-use-after-free" in report:
                    # Measure anyway: defer the adjoint's free() calls until it returns.
                    build(model, adjoint, san, SANFLAGS, defer_free=True)
                    rc2, data2, se2, report2 = run_driver(san, ["fdall", *model.tiny])
                    if report2 is None and rc2 == 0:
                        res["workaround"] = True
                        rc, data, se = rc2, data2, se2
                        res["notes"].append(
                            f"adgen's adjoint: {report}. With its free() calls deferred "
                            "until it returns (bench/common/model_hooks.h) the sanitizer "
                            "build is clean, so the checks and timings use that workaround; "
                            "the unmodified adjoint corrupts the heap and usually aborts "
                            "(see bench/issues/).")
                    else:
                        res["notes"].append("Deferring free() did not make the sanitizer "
                                            f"build clean: {report2 or tail(se2, 3)}")
            if rc == 0 and data is not None:
                fdall = data
            elif not res["errors"]:
                res["errors"].append(f"sanitizer build failed (exit {rc}):\n{tail(se)}")

        exe = d / "bench"
        log(f"[{model.key}] -O3 build" + (" (deferred free)" if res["workaround"] else ""))
        build(model, adjoint, exe, CFLAGS, defer_free=res["workaround"])
        if fdall is None:
            rc, data, se, _ = run_driver(exe, ["fdall", *model.tiny])
            if rc == 0 and data is not None:
                fdall = data
            else:
                res["errors"].append(f"fdall at the tiny size failed (exit {rc}):\n{tail(se)}")
        if fdall is not None:
            checks_from(model, fdall, res, f"{model.size_label(model.tiny)}, all components")

        log(f"[{model.key}] gradient check at {model.size_label(size)}")
        rc, data, se, _ = run_driver(exe, ["check", *size])
        if rc != 0 or data is None:
            raise Failed(f"the gradient check crashed (exit {rc}):\n{tail(se)}")
        res["check"] = data
        checks_from(model, data, res, f"{model.size_label(size)}")

        log(f"[{model.key}] timing at {model.size_label(size)}")
        rc, data, se, _ = run_driver(exe, ["time", *size, args.min_time, args.repeats])
        if rc != 0 or data is None:
            raise Failed(f"the timing run crashed (exit {rc}):\n{tail(se)}")
        res["times"] = data

        # The same adjoint without the to-be-recorded analysis: every overwritten value
        # stored (adgen --store-all), the baseline of what the analysis saves.
        log(f"[{model.key}] store-everything adjoint")
        everything = d / (Path(model.source).stem + "_all_b.c")
        res["all"] = {"notes": []}
        run_adgen(model, everything, res["all"], ["--store-all"] +
                  [a for s in (model.fallback_sizes if "--size" in res["adgen_cmd"] else ())
                   for a in ("--size", s)])
        exe_all = d / "bench_all"
        build(model, everything, exe_all, CFLAGS, defer_free=res["workaround"])
        rc, data, se, _ = run_driver(exe_all, ["time", *size, args.min_time, args.repeats])
        if rc == 0 and data is not None:
            res["all"]["times"] = data
        else:
            res["notes"].append(f"timing the store-everything adjoint failed: {tail(se, 3)}")
        if not args.no_mem:
            memexe = d / "bench_all_mem"
            build(model, everything, memexe, CFLAGS, defer_free=res["workaround"], track=True)
            rc, data, se, _ = run_driver(memexe, ["mem", *size])
            if rc == 0 and data is not None:
                res["all"]["mem"] = data

        if not args.no_mem:
            log(f"[{model.key}] peak heap")
            memexe = d / "bench_mem"
            build(model, adjoint, memexe, CFLAGS, defer_free=res["workaround"], track=True)
            rc, data, se, _ = run_driver(memexe, ["mem", *size])
            if rc == 0 and data is not None:
                res["mem"] = data
            else:
                res["notes"].append(f"peak heap measurement failed (exit {rc}): {tail(se, 3)}")
    except Failed as exc:
        res["errors"].append(str(exc))
    return res


# ------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------

def fmt_time(t):
    if t is None:
        return "—"
    if t < 1e-3:
        return f"{t * 1e6:.3g} µs"
    if t < 1.0:
        return f"{t * 1e3:.3g} ms"
    return f"{t:.3g} s"


def fmt_bytes(b):
    if b is None:
        return "—"
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{int(b)} B"


def verdict(value, target):
    return "PASS" if value <= target else "MISS"


def failed(res):
    return bool(res["errors"]) or any(not c["ok"] for c in res["checks"])


def machine_info():
    def first_line(cmd):
        rc, so, se = run(cmd, timeout=30)
        return (so or se).strip().splitlines()[0] if rc == 0 and (so or se).strip() else "?"
    info = {"machine": first_line(["uname", "-m"]) if shutil.which("uname") else platform.machine(),
            "cc": first_line([CC, "--version"]), "python": platform.python_version(),
            "cpu": "?", "commit": "?"}
    try:
        info["load"] = Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        info["load"] = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    rc, so, _ = run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], timeout=30)
    if rc == 0:
        info["commit"] = so.strip()
        rc, so, _ = run(["git", "-C", str(REPO), "status", "--porcelain", "--", "adgen"],
                        timeout=30)
        if rc == 0 and so.strip():
            info["commit"] += " + uncommitted changes in adgen/"
    return info


def report(results, args, info, started):
    quick = args.quick
    out = []
    out.append("# Benchmarks: speed of adgen's adjoints")
    out.append("")
    out.append(f"Generated by `python bench/run.py{' --quick' if quick else ''}` on "
               f"{started:%Y-%m-%d %H:%M} ({'quick' if quick else 'full'} sizes).")
    out.append("")
    out.append(f"- machine: `{info['machine']}`, {info['cpu']}, {os.cpu_count()} CPUs"
               + (f"; 1-minute load average {info['load']} at the end of the run (other "
                  "processes make timings noisier)" if info.get("load") else ""))
    out.append(f"- compiler: `{info['cc']}`, flags `{' '.join(CFLAGS)}` for every object")
    out.append(f"- Python {info['python']}; adgen at commit {info['commit']}")
    out.append(f"- timing: best of {args.repeats} rounds, each round repeating the call for at "
               f"least {args.min_time * 1e3:.0f} ms (calibrated on one call); variants "
               "interleaved; wall clock `clock_gettime(CLOCK_MONOTONIC)`; one thread")
    out.append("")
    out.append("| Model | Size | Primal | adgen gradient | adgen / primal | Hand gradient | "
               "Hand / primal | adgen / hand | Peak heap per call: adgen (hand) | Gradient |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        m = r["model"]
        t = r["times"] or {}
        tp, ta, th = t.get("primal"), t.get("adgen"), t.get("hand")
        ratio = f"{ta / tp:.3g}× (target ≤ {m.target_ratio:g}×: " \
                f"{verdict(ta / tp, m.target_ratio)})" if tp and ta else "—"
        hand_ratio = f"{th / tp:.3g}×" if tp and th else "—"
        vs_hand = "—"
        if ta and th and m.target_vs_hand:
            vs_hand = f"{ta / th:.3g}× (target ≤ {m.target_vs_hand:g}×: " \
                      f"{verdict(ta / th, m.target_vs_hand)})"
        mem = "—"
        if r["mem"]:
            mem = fmt_bytes(r["mem"].get("adgen"))
            if "hand" in r["mem"]:
                mem += f" ({fmt_bytes(r['mem'].get('hand'))})"
        other_errors = [e for e in r["errors"] if not e.startswith("memory error")]
        if other_errors or not r["checks"] or any(not c["ok"] for c in r["checks"]):
            grad = "**WRONG**"
        elif r.get("san_report"):
            grad = "**memory error** (values correct"
            grad += " with deferred free, see notes)" if r["workaround"] else ")"
        else:
            grad = "correct"
        out.append(f"| {m.name} | {m.size_label(r['size'])} | {fmt_time(tp)} | {fmt_time(ta)} | "
                   f"{ratio} | {fmt_time(th)} | {hand_ratio} | {vs_hand} | {mem} | {grad} |")
    out.append("")
    out.append("Targets (reported, never enforced): GMM gradient ≤ 4.5× primal and adgen ≤ 1.5× "
               "the hand-written adjoint; LSTM gradient ≤ 3× primal. Peak heap: the largest "
               "amount of heap memory live at once during one call, above what was live before "
               "it (adgen's value stack and undo log, the adjoints' scratch arrays, the hand "
               "adjoint's stored intermediates).")
    out.append("")
    out.append("## What the adjoint stores")
    out.append("")
    out.append("adgen's adjoint against adgen's own store-everything adjoint (`--store-all`: "
               "every overwritten value stored, nothing undone, no to-be-recorded analysis), "
               "both timed in the run above (the primal time is that run's). Peak heap beyond "
               "the primal's, and the bytes the forward sweep pushes per call as adgen "
               "reports them (`--stack-report`, x86-64 sizes).")
    out.append("")
    out.append("| Model | adgen / primal | store-all / primal | Peak heap: adgen | "
               "Peak heap: store-all | adgen / store-all (heap) |")
    out.append("|---|---|---|---|---|---|")
    for r in results:
        t, a = r["times"] or {}, r.get("all") or {}
        ta_all = (a.get("times") or {}).get("adgen")
        tp, ta = t.get("primal"), t.get("adgen")
        mem = (r["mem"] or {}).get("adgen")
        mem_all = (a.get("mem") or {}).get("adgen")
        out.append(f"| {r['model'].name} | {f'{ta / tp:.3g}×' if tp and ta else '—'} | "
                   f"{f'{ta_all / tp:.3g}×' if tp and ta_all else '—'} | {fmt_bytes(mem)} | "
                   f"{fmt_bytes(mem_all)} | "
                   f"{f'{mem / mem_all:.3g}' if mem and mem_all else '—'} |")
    out.append("")
    for r in results:
        for label, rep in (("adgen", r.get("stack_report")),
                           ("store-all", (r.get("all") or {}).get("stack_report"))):
            if rep:
                out.append(f"- {r['model'].name}, {label}: `{rep.splitlines()[0]}`")
    out.append("")
    out.append("CPU time per call (mean over the timing rounds, `getrusage`): a large system "
               "share means the call is dominated by page faults on freshly allocated memory; "
               "on a loaded machine the CPU-time ratios are steadier than the wall-clock ones.")
    out.append("")
    out.append("| Model | Variant | Wall (best) | User | System | CPU / primal CPU |")
    out.append("|---|---|---|---|---|---|")
    for r in results:
        t = r["times"] or {}
        cpu = {v: (t.get(v + "_user") or 0.0) + (t.get(v + "_sys") or 0.0)
               for v in ("primal", "adgen", "hand")}
        for v in ("primal", "adgen", "hand"):
            if t.get(v) is not None:
                label = {"primal": "primal", "adgen": "adgen gradient",
                         "hand": "hand gradient"}[v]
                ratio = f"{cpu[v] / cpu['primal']:.3g}×" if cpu["primal"] > 0 else "—"
                out.append(f"| {r['model'].name} | {label} | {fmt_time(t[v])} | "
                           f"{fmt_time(t.get(v + '_user'))} | {fmt_time(t.get(v + '_sys'))} | "
                           f"{ratio} |")
    out.append("")
    out.append("## Gradient checks")
    out.append("")
    out.append("Finite differences: fourth-order central differences, step 1e-3·max(1, |x|); "
               "error measured against max(|g_i|, 1e-3·‖g‖∞). Gradient against gradient: "
               "componentwise relative difference, components below 1e-6·‖g‖∞ measured "
               "against that floor. At the tiny size every component is checked, at the "
               "benchmark size the first, middle, last and largest component of each input.")
    out.append("")
    for r in results:
        m = r["model"]
        out.append(f"**{m.name}** ({r.get('adgen_cmd', 'adgen')}; adgen took "
                   f"{r.get('adgen_seconds', float('nan')):.2f} s)")
        out.append("")
        for c in r["checks"]:
            v = c["value"]
            vs = f"{v:.2e}" if isinstance(v, float) else str(v)
            out.append(f"- {'ok  ' if c['ok'] else 'FAIL'} {c['name']}: {vs} "
                       f"(tolerance {c['tol']:g})")
        for e in r["errors"]:
            out.append(f"- FAIL {e}".replace("\n", "\n  "))
        out.append("")
    notes = [(r["model"].name, n) for r in results for n in r["notes"]]
    if notes:
        out.append("## Notes")
        out.append("")
        for name, n in notes:
            out.append(f"- {name}: " + n.replace("\n", "\n  "))
        out.append("")
    out.append("## The models")
    out.append("")
    out.append("- `bench/gmm/gmm.c`: Gaussian mixture model negative log-likelihood with a "
               "Wishart prior, ADBench style (helpers arr_max, sqnorm, subtract, Qtimesx, "
               "log_sum_exp, log_gamma_distrib, log_wishart_prior; malloc'd scratch). Head "
               "`gmm_objective(err)/(alphas means icf)`.")
    out.append("- `bench/gmm/gmm_hand_b.c`: hand-written adjoint: one forward pass storing "
               "Q_j(x_i - mu_j) and the softmax weights of every point, then one reverse pass.")
    out.append("- `bench/lstm/lstm.c`: stacked diagonal LSTM language-model loss, ADBench style; "
               "the state buffer is in/out but neither independent nor dependent. Head "
               "`lstm_objective(loss)/(main_params extra_params)`.")
    out.append("")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (under a minute)")
    ap.add_argument("--no-write", action="store_true", help="do not write docs/benchmarks.md")
    ap.add_argument("--out", default=str(REPO / "docs" / "benchmarks.md"))
    ap.add_argument("--workdir", help="build here and keep it (default: a temporary directory)")
    ap.add_argument("--models", default="gmm,lstm")
    ap.add_argument("--repeats", type=int, default=None, help="timing rounds (5; quick: 3)")
    ap.add_argument("--min-time", type=float, default=0.05,
                    help="seconds of repeated calls per timing (0.05)")
    ap.add_argument("--no-mem", action="store_true", help="skip the peak heap measurement")
    args = ap.parse_args(argv)
    if args.repeats is None:
        args.repeats = 3 if args.quick else 5
    keys = [k.strip() for k in args.models.split(",") if k.strip()]
    unknown = [k for k in keys if k not in {m.key for m in MODELS}]
    if unknown:
        ap.error(f"unknown model(s): {', '.join(unknown)}")

    started = datetime.datetime.now()
    tmp = None
    if args.workdir:
        work = Path(args.workdir).resolve()
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.mkdtemp(prefix="adgen-bench-")
        work = Path(tmp)
    try:
        results = []
        for m in MODELS:
            if m.key in keys:
                size = m.quick if args.quick else m.full
                results.append(bench_model(m, size, args, work))
        text = report(results, args, machine_info(), started)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    print(text)
    if not args.no_write:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
        log(f"wrote {args.out}")
    bad = [r["model"].name for r in results if failed(r)]
    if bad:
        log(f"gradient check FAILED for: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
