"""The SAVEd variables that the ENTRY points of one Fortran procedure share
(frontend/fortran_entries.py): state that one procedure of the output sets and another
reads (`call setup(a)`, then `call apply(x, y)` reads what setup kept).

The output has its own copy of a SAVEd variable (gfortran keeps the program's where no
other object can reach it). So a procedure that sets such a variable must run from the
output's code wherever the derivative code would call the program's: the output holds
a copy of its primal (state_writers), and a procedure that sets one but that only the
program runs (a set-up routine the program calls before the head) is refused
(check_entry_state).
"""
from adgen import ir
from adgen.errors import AdgenError
from adgen.analysis.call_graph import callees


def _shared(sym):
    return getattr(sym, "entry_shared", False)


def _sets(f):
    """{entry-shared variable: the first assignment to it} of those f assigns itself."""
    out = {}
    for st in ir.stmts_walk(f.body.stmts) if f.has_body else ():
        if isinstance(st, ir.Assign) and _shared(ir.storage_symbol(st.lhs)):
            out.setdefault(ir.storage_symbol(st.lhs), st)
    return out


def state_writers(prog):
    """The names of the procedures that set an entry-shared variable, themselves or
    through the procedures they call."""
    if not any(_shared(g) for g in prog.globals):
        return set()
    writers = {name for name, f in prog.functions.items() if _sets(f)}
    changed = True
    while changed:
        changed = False
        for name, f in prog.functions.items():
            if name not in writers and f.has_body and \
                    any(c in writers for c in callees(prog, f)):
                writers.add(name)
                changed = True
    return writers


def check_entry_state(prog, used, inside):
    """Refuse an entry-shared variable the output uses that a procedure outside it sets
    (`inside`: the procedures the output differentiates or holds a copy of): the output's
    copy would not see what the program's code sets."""
    for g in used:
        if not _shared(g):
            continue
        for name, f in prog.functions.items():
            setting = _sets(f).get(g) if name not in inside else None
            if setting is not None:
                what, host = g.saved_as
                raise AdgenError(
                    f"the SAVEd variable '{what}' of '{host}', which its ENTRY points share, "
                    f"is set in '{ir.source_name(f)}', which runs in the program's own "
                    "code only: the output keeps a copy of it that the program's calls do "
                    f"not set (call '{ir.source_name(f)}' from the head, or make '{what}' a "
                    "variable of a module so that the output uses the program's)",
                    setting.loc or g.loc)
