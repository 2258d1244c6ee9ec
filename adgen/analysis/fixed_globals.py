"""The integer globals a call leaves as it found them, read as sizes.

A C program often keeps its sizes in a global, or in a field of a global struct, set by an
initialization function before the head is called (`struct grid { int n; double h; } g;`,
then `for (i = 0; i < g.n; i++) s += x[i] * x[i];` in the head). Such a value is a size as
a parameter is (analysis/extent.py) where it is one value for the whole call: neither the
function nor any function it calls sets it, nothing in the program takes its address (a
pointer to it could set it from anywhere), and the function calls nothing adgen cannot see
into (a function of another file could set it). The length it gives is then the global's
value at the function's entry, where the derivative code reads it. A Fortran module integer
(`__mod_MOD_n`) or COMMON member is one too. A global fixed for every head holds one value
in both sweeps of every function they call: the backward sweep computes again the trip
count of a loop it bounds (transform/adjoint_function.py, fixed_global).
"""
import re

from adgen import ir
from adgen.analysis.call_graph import reachable
from adgen.rules import LIBRARY_FUNCTIONS


def global_path(e):
    """(global symbol, field names) when e is a global or a chain of its fields reached by
    `.` (`g`, `g.n`, `g.dims.n`), else None."""
    names = []
    while isinstance(e, ir.Member) and not e.arrow:
        names.append(e.field)
        e = e.base
    if isinstance(e, ir.Ref) and e.sym.kind == "global":
        return e.sym, tuple(reversed(names))
    return None


def _written_path(lhs):
    """(variable, the field names leading to the part it writes) of an lvalue that writes a
    variable's own storage (`g.n`, `g.cells[i].n`: g, (cells,)); None through a pointer."""
    e, names = lhs, []
    while isinstance(e, (ir.Member, ir.Index)):
        if isinstance(e, ir.Member) and e.arrow or \
                isinstance(e, ir.Index) and not e.base.type.resolved().is_array:
            return None
        names = [e.field] + names if isinstance(e, ir.Member) else []
        e = e.base
    return (e.sym, tuple(names)) if isinstance(e, ir.Ref) else None


class FixedGlobals:
    """Which global integers hold one value through a call of a function (fixed)."""

    def __init__(self, prog):
        self.prog = prog
        self.cache = {}
        self._addressed = None

    def fixed(self, func, e):
        """True when integer expression e, a global or a field of a global struct
        (global_path), holds the value it had at func's entry for the whole call."""
        found = global_path(e)
        if found is None or not e.type.resolved().is_int:
            return False
        sym, path = found
        if getattr(sym, "is_library", False) or sym in self.addressed() or \
                _through_union(sym, path):
            return False
        key = (func.name, sym, path)
        if key not in self.cache:
            self.cache[key] = self._kept(func, sym, path)
        return self.cache[key]

    def _kept(self, func, sym, path):
        for name in reachable(self.prog, [func.name]):
            f = self.prog.functions[name]
            for st in ir.stmts_walk(f.body.stmts) if f.has_body else ():
                if isinstance(st, ir.Assign):
                    written = _written_path(st.lhs)
                    # a write of the field, of a struct holding it, or of the whole global
                    if written is not None and written[0] is sym and \
                            path[:len(written[1])] == written[1]:
                        return False
                for e in ir.stmt_exprs(st):
                    if any(isinstance(c, ir.Call) and not self._seen_into(c.func)
                           for c in ir.walk(e)):
                        return False    # a function adgen does not see into
        return True

    def _seen_into(self, name):
        """Whether adgen sees what a call of the function name writes: a function of the
        program with its body, or a library function (C declares them; a Fortran
        intrinsic has no declaration of the program, only its row in rules.py)."""
        g = self.prog.functions.get(name)
        if g is None:
            return name in LIBRARY_FUNCTIONS
        return g.has_body or getattr(g, "is_library", False)

    def addressed(self):
        """The globals whose address (or that of a part) the program takes anywhere: in a
        function, or in a global's initializer (`int *pn = &g.n;`)."""
        if self._addressed is not None:
            return self._addressed
        found = set()
        for f in self.prog.functions.values():
            for st in ir.stmts_walk(f.body.stmts) if f.has_body else ():
                for e in ir.stmt_exprs(st):
                    found |= {ir.storage_symbol(a.arg) for a in ir.walk(e)
                              if isinstance(a, ir.AddrOf)}
        for g in self.prog.globals:
            if g.init is not None:
                found |= {ir.storage_symbol(a.arg) for a in ir.walk(g.init)
                          if isinstance(a, ir.AddrOf)}
        texts = " ".join(g.init_text or "" for g in self.prog.globals)
        found |= {g for g in self.prog.globals
                  if re.search(r"&\s*\(?\s*" + re.escape(g.name) + r"\b", texts)}
        self._addressed = found
        return found


def _through_union(sym, path):
    """Whether a union lies on the path to the field: another member of it shares the
    field's storage."""
    t = sym.type.resolved()
    for name in path:
        sdef = getattr(t, "sdef", None)
        if sdef is None or sdef.is_union:
            return True
        t = sdef.field_type(name).resolved()
    return False
