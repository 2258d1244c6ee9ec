"""Delta debugging of a failing generated program over the generator's AST.

The reducer keeps the failure's primary kind (runner.classify) and tries, until nothing
more goes or the budget is spent:
  1. removing statements, ddmin-style: large chunks of the flat statement list first,
     then smaller ones (removing a loop or an if removes its body);
  2. replacing an if by one of its branches, a loop by nothing but its body's effect
     being dropped (covered by 1), a while loop's extra exits;
  3. replacing double expressions by one of their operands or by a constant, where the
     result stays inside the domain of the math functions (no operand of sqrt, log, pow,
     a divisor, ...).
After every edit `normalize` removes what became dead (unused locals, their pinned
initialisation loops and frees, unused parameters and helpers) so the program still
compiles under -Wall -Wextra -Werror; an edit that makes the program invalid (it no
longer compiles, a spec error, non-finite values, a kink) does not reproduce the failure
and is dropped.
"""

from __future__ import annotations

import copy
import re
import time
from typing import Callable

from .generator import (Expr, Program, HEAD_NAME, names_read, names_used, num,
                        reachable, render)


# ------------------------------------------------------------------ AST utils

def all_blocks(stmts):
    """Every statement list, outermost first."""
    yield stmts
    for s in stmts:
        for b in s.blocks():
            yield from all_blocks(b)


def all_stmts(prog: Program):
    for f in prog.funcs:
        for blk in all_blocks(f.body):
            yield from blk


def removable(prog: Program):
    """Statements the reducer may delete: not pinned, not inside a pinned statement
    (the body of an initialisation loop)."""
    def visit(stmts):
        for s in stmts:
            if s.pinned:
                continue
            yield s
            for b in s.blocks():
                yield from visit(b)
    for f in prog.funcs:
        yield from visit(f.body)


def number(prog: Program):
    """Gives every statement and expression an id, kept by deepcopy: the passes number
    the program once and then name statements by id across candidates."""
    n = 0
    for s in all_stmts(prog):
        n += 1
        s.uid = n
        for e in s.exprs():
            for x in e.walk():
                n += 1
                x.uid = n


def remove_stmts(prog: Program, uids: set) -> Program:
    p = copy.deepcopy(prog)
    for f in p.funcs:
        for blk in all_blocks(f.body):
            blk[:] = [s for s in blk if getattr(s, "uid", None) not in uids]
    return p


# ---------------------------------------------------------------- normalize

def _drop_call_arg(prog: Program, fname: str, index: int):
    for s in all_stmts(prog):
        for e in s.exprs():
            for x in e.walk():
                if x.op == "call" and x.val == fname and len(x.args) > index:
                    del x.args[index]


def _has_call(e: Expr, prog: Program) -> bool:
    names = {f.name for f in prog.funcs}
    return any(x.op == "call" and x.val in names for x in e.walk())


def _sub_int(spec: str, name: str, value: str) -> str:
    m = re.match(r"(\w+)\[(.*)\](.*)", spec)
    if not m:
        return spec
    length = re.sub(rf"\b{name}\b", value, m.group(2))
    return f"{m.group(1)}[{length}]{m.group(3)}"


def _drop_handle_fields(p: Program, head) -> bool:
    """Removes from the head's handle the fields the head read into a local that is gone
    (their values, not the integer data or the output field it sets), unless a length of
    the block names them; whether any went."""
    h = p.handle
    used = names_used(head.body)
    specs = " ".join(a.spec for a in p.args) + " " + " ".join(f.spec for f in h.fields)
    params = {"x", "c", "y", "z", "a", "b", "n", "d"}
    keep = [f for f in h.fields if f.name not in params or h.access(f) in used or
            re.search(rf"\b{h.name}\.{f.name}\b", specs)]
    if len(keep) == len(h.fields):
        return False
    h.fields = keep
    return True


def normalize(prog: Program) -> Program | None:
    """Removes what became dead; None if the program lost its dependents/independents."""
    p = copy.deepcopy(prog)
    changed = True
    while changed:
        changed = False
        p.funcs = reachable(p.funcs)
        for f in p.funcs:
            # locals never used: their declaration and pinned statements go
            for blk in all_blocks(f.body):
                for s in list(blk):
                    if s.kind != "decl":
                        continue
                    # uses other than its own initialisation loop / free
                    rest = [x for x in blk[blk.index(s) + 1:] if not (x.pinned and x.owner == s.name)]
                    if s.name not in names_used(rest) and (s.init is None or not _has_call(s.init, p)):
                        blk.remove(s)
                        changed = True
            declared = {s.name for blk in all_blocks(f.body) for s in blk if s.kind == "decl"}
            for blk in all_blocks(f.body):
                keep = []
                for s in blk:
                    if s.pinned and s.owner not in ("return",) and s.owner not in declared \
                            and s.owner not in {pp.name for pp in f.params}:
                        changed = True
                        continue
                    keep.append(s)
                blk[:] = keep
            # scalars and fixed-size arrays written but never read: drop the writes
            read = names_read(f.body)
            fixed = {s.name for blk in all_blocks(f.body) for s in blk
                     if s.kind == "decl" and s.size is not None}
            for blk in all_blocks(f.body):
                keep = []
                for s in blk:
                    if s.kind == "assign" and s.lhs.op == "var" and s.lhs.val not in read \
                            and not _has_call(s.rhs, p) and not s.pinned:
                        changed = True
                        continue
                    if s.kind == "assign" and s.lhs.op == "idx" and s.lhs.args[0].val in fixed \
                            and s.lhs.args[0].val not in read and not _has_call(s.rhs, p):
                        changed = True
                        continue
                    if s.kind == "incdec" and s.e.op == "var" and s.e.val not in read and not s.pinned:
                        changed = True
                        continue
                    keep.append(s)
                blk[:] = keep
            # loops and ifs left empty
            for blk in all_blocks(f.body):
                keep = []
                for s in blk:
                    if s.kind == "for" and not s.body or \
                            s.kind == "if" and not s.then and not s.els or \
                            s.kind == "switch" and not any(s.blocks()):
                        changed = True
                        continue
                    if s.kind in ("while", "do") and all(x.pinned for x in s.body):
                        changed = True
                        continue
                    if s.kind == "if" and not s.then and s.els:
                        s.then, s.els = s.els, None
                        s.cond = Expr("not", (s.cond,), ty="bool")
                        changed = True
                    keep.append(s)
                blk[:] = keep
            # the head's handle: fields whose local went (and that no length names)
            if f.name == HEAD_NAME and p.handle is not None and _drop_handle_fields(p, f):
                changed = True
            # parameters never used
            used = names_used(f.body)
            for idx in reversed(range(len(f.params))):
                name = f.params[idx].name
                if name in used:
                    continue
                if f.name == HEAD_NAME:
                    arg = next(a for a in p.args if a.name == name)
                    if arg.spec.startswith("int"):
                        value = arg.spec.split("=")[1].strip()
                        for a in p.args + (p.handle.fields if p.handle else []):
                            a.spec = _sub_int(a.spec, name, value)
                    if p.handle is not None and name == p.handle.name:
                        p.handle = None
                    p.args = [a for a in p.args if a.name != name]
                    p.dep = [d for d in p.dep if d != name]
                    p.indep = [d for d in p.indep if d != name]
                else:
                    _drop_call_arg(p, f.name, idx)
                del f.params[idx]
                changed = True
    if not p.dep or not p.indep:
        return None
    calls = {x.val for s in all_stmts(p) for e in s.exprs() for x in e.walk() if x.op == "call"}
    p.uses_malloc = "malloc" in calls
    # the reference BLAS kernels go with the last call of one
    p.uses_blas = p.uses_blas and any(c.startswith("cblas_") for c in calls)
    p.uses_fortran_blas = p.uses_fortran_blas and any(re.match(r"d\w+_$", c) for c in calls)
    return p


# ---------------------------------------------------------------- candidates

# operands that may be replaced: where a different value cannot leave a math domain
_SAFE_PARENT_OPS = {"+", "-", "*", "<", ">", "<=", ">=", "&&", "||"}
_SAFE_CALLS = {"sin", "cos", "tanh", "atan", "fabs", "fmin", "fmax"}


def expr_sites(prog: Program):
    """(uid, replacement-builder list) of double expressions that may be simplified."""
    sites = []

    def visit(e: Expr, safe: bool):
        if e.ty == "double" and safe and e.op not in ("num", "var"):
            sites.append(e)
        for i, a in enumerate(e.args):
            if e.op == "bin":
                ok = e.val in _SAFE_PARENT_OPS or (e.val == "/" and i == 0)
            elif e.op == "call":
                ok = e.val in _SAFE_CALLS
            elif e.op == "cond":
                ok = i > 0
            elif e.op == "neg":
                ok = True
            else:
                ok = False
            visit(a, ok and safe)

    for s in all_stmts(prog):
        if s.kind == "assign":
            visit(s.rhs, True)
        elif s.kind == "decl" and s.init is not None and s.init.ty == "double":
            visit(s.init, True)
        elif s.kind == "return":
            visit(s.e, True)
        elif s.kind == "if":
            visit(s.cond, True)
    return sites


def replace_expr(prog: Program, uid: int, make: Callable[[Expr], Expr]) -> Program:
    p = copy.deepcopy(prog)

    def fix(e: Expr):
        for i, a in enumerate(e.args):
            if a.uid == uid:
                e.args[i] = make(a)
            else:
                fix(a)

    for s in all_stmts(p):
        for attr in ("rhs", "init", "e", "cond"):
            e = getattr(s, attr, None)
            if isinstance(e, Expr):
                if e.uid == uid:
                    setattr(s, attr, make(e))
                else:
                    fix(e)
    return p


class Reducer:
    def __init__(self, prog: Program, still_fails: Callable[[str], bool], max_tests: int = 400,
                 max_seconds: float = 900, log=None):
        self.best = normalize(prog) or prog
        self.seen: set = {render(self.best)}
        self.still_fails = still_fails
        self.tests, self.max_tests = 0, max_tests
        self.deadline = time.time() + max_seconds
        self.log = log or (lambda msg: None)

    def out_of_budget(self) -> bool:
        return self.tests >= self.max_tests or time.time() > self.deadline

    def attempt(self, cand: Program | None) -> bool:
        """Adopt cand if it still fails the same way."""
        if cand is None or self.out_of_budget():
            return False
        cand = normalize(cand)
        if cand is None:
            return False
        text = render(cand)
        if text in self.seen:
            return False
        self.seen.add(text)
        self.tests += 1
        if self.still_fails(text):
            self.best = cand
            self.log(f"  reduced to {text.count(chr(10))} lines ({self.tests} tests)")
            return True
        return False

    # pass 1: statements
    def pass_statements(self) -> bool:
        progress = False
        number(self.best)
        uids = [s.uid for s in removable(self.best)]
        chunk = max(1, len(uids) // 2)
        while chunk >= 1 and not self.out_of_budget():
            i = 0
            while i < len(uids) and not self.out_of_budget():
                part = set(uids[i:i + chunk])
                if self.attempt(remove_stmts(self.best, part)):
                    progress = True
                    live = {s.uid for s in all_stmts(self.best)}
                    uids = [u for u in uids if u in live and u not in part]
                else:
                    i += chunk
            chunk //= 2
        return progress

    # pass 2: an if (or a switch) becomes one of its branches
    def pass_flatten(self) -> bool:
        progress = False
        number(self.best)
        i = 0
        while True:
            ifs = [s for s in removable(self.best) if s.kind in ("if", "switch")]
            if i >= len(ifs) or self.out_of_budget():
                return progress
            uid = ifs[i].uid
            for branch in range(len(ifs[i].blocks())):
                cand = copy.deepcopy(self.best)
                st = next(x for x in removable(cand) if x.uid == uid)
                for f in cand.funcs:
                    for blk in all_blocks(f.body):
                        if any(x is st for x in blk):
                            k = next(j for j, x in enumerate(blk) if x is st)
                            blk[k:k + 1] = st.blocks()[branch]
                if self.attempt(cand):
                    progress = True
                    break
            else:
                i += 1

    # pass 3: expressions
    def pass_exprs(self) -> bool:
        progress = False
        number(self.best)
        i = 0
        while i < len(expr_sites(self.best)):
            e = expr_sites(self.best)[i]
            makers = [lambda x, k=k: copy.deepcopy(x.args[k])
                      for k in range(len(e.args)) if e.args[k].ty == "double"]
            makers.append(lambda x: num(0.5))
            for make in makers:
                if self.out_of_budget():
                    return progress
                if self.attempt(replace_expr(self.best, e.uid, make)):
                    progress = True  # site i is now the next one
                    break
            else:
                i += 1
        return progress

    def run(self) -> Program:
        while not self.out_of_budget():
            a = self.pass_statements()
            b = self.pass_flatten()
            c = self.pass_exprs()
            if not (a or b or c):
                break
        return self.best


# constructs named in the comment line of a minimized program
_CONSTRUCTS = [
    (r"\bfz_hh \*fz_hd\b", "handle by pointer"), (r"\bfz_hh fz_hd\b", "handle by value"),
    (r"\bfz_hd(->|\.)sub->", "nested handle"), (r"^    fz_hd->s = ", "output field of a handle"),
    (r"\bgoto \w+;", "goto"),
    (r"#pragma adgen binomial_ckp", "binomial checkpointing"),
    (r"#pragma adgen fp_loop", "fixed-point loop"),
    (r"#pragma adgen (no)?checkpoint\b", "call mode directive"),
    (r"while \(", "while loop"), (r"\} while \(", "do-while loop"), (r"\bfor \(", "for loop"),
    (r"\bbreak;", "break"), (r"\bcontinue;", "continue"), (r"^ {8,}return ", "early return"),
    (r"\bfz_f\d\([^;]*(&\w+\[|\b\w+ \+ \w)", "helper call with an offset pointer"),
    (r"\bfz_f\d\(", "helper call"), (r"double \*p\d+ = ", "local pointer alias"),
    (r"\bmalloc\(", "malloc'd scratch"), (r"double t\d+\[\d+\]", "local array"),
    (r"\bswitch \(", "switch"), (r"\(w\d+ = ", "assignment in a test"),
    (r"/\* falls through \*/", "fall-through"),
    (r"\?", "ternary"), (r"\bif \(", "branch"), (r"[-+*/]= ", "compound assignment"),
]


def describe(text: str) -> str:
    """The constructs a (minimized) program exercises, for its comment line."""
    body = text.split("*/", 2)[-1]
    found = []
    for pat, name in _CONSTRUCTS:
        if re.search(pat, body, re.M) and not (name == "helper call" and
                                               "helper call with an offset pointer" in found):
            found.append(name)
    funcs = sorted(set(re.findall(r"\b(sqrt|exp|log|pow|atan2|hypot|fabs|fmin|fmax|tanh|sin|cos|"
                                  r"atan|tan|sinh|cosh|asin|acos|log10|log1p|expm1|cbrt)\(", body)))
    if funcs:
        found.append(", ".join(funcs))
    return ", ".join(found) or "straight-line code"


def minimize(prog: Program, still_fails: Callable[[str], bool], **kw) -> Program:
    return Reducer(prog, still_fails, **kw).run()
