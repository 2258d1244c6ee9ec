"""Static locals that keep nothing from one call to the next, made automatic.

f2c declares the locals of a Fortran routine `static` (`static integer i__;`), and some C
code does the same out of habit. Such a variable is the function's own (no other function
can name it), and when every call sets it before reading it, its value from the last call
is never seen: it is an automatic local in all but name. As a static, the derivative code
would treat it as state (a copy of the output's own, a counter whose loops cannot be
bounded, values kept and brought back around each call); as a local, it is what it is.

A static local stays static where its value may matter: a function that may call itself
(the inner call would change the outer's variable), an address taken (a pointer may keep
it), an array or a struct (elements set one by one), or a read before a set on some path.
"""
from adgen import ir
from adgen.analysis.call_graph import callees, reachable
from adgen.analysis.loops import address_taken
from adgen.analysis.static_state import handle_addresses, sets_before_reading


def make_statics_automatic(prog, names):
    """Turns the static locals of the functions named that carry no value between calls
    into locals of their functions."""
    for name in names:
        f = prog.functions[name]
        statics = [g for g in prog.globals if getattr(g, "static_local", False) and
                   getattr(g, "local_of", None) == name and
                   isinstance(g.type.resolved(), ir.Prim)]
        if not statics or not f.has_body or name in reachable(prog, callees(prog, f)):
            continue
        names_used = {s.name for s in f.params + f.locals + prog.globals} | \
            set(prog.functions)
        for g in statics:
            # (a function with gotos: read on its jumps as written, frontend/jump_flow.py)
            # an address handed to a callee that reaches g through it during the call
            # only (f2c's `&info`) is no address kept
            if g in address_taken(f, handle_addresses(prog, f, g)) or \
                    not (getattr(g, "set_first_across_jumps", False) or
                         sets_before_reading(prog, f, g)):
                continue
            prog.globals.remove(g)
            g.kind, g.is_static, g.init, g.init_text = "local", False, None, None
            g.static_local = False
            if g.local_name not in names_used:      # its name in the source, where free
                g.name = g.local_name
            names_used.add(g.name)
            f.locals.append(g)
