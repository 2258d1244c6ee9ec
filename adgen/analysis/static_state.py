"""The program's static state as the output sees it: the output has its own copy of each
static variable it uses (a C file-scope or function static, a Fortran SAVEd variable),
which calls running in the program's own code do not change.

What follows from that: a static that code of the program sets is refused where the
output's copy would differ from the program's (check_static_globals), and so is one that
carries a value from one call of a head to the next (check_static_state), but for the
statics of a first-call initialization, which hold the same values in either copy
(_first_call_setup). The SAVEd variables the ENTRY points of one Fortran procedure share
(frontend/fortran_entries.py) are state one procedure of the output sets and another
reads (`call setup(a)`, then `call apply(x, y)`): a procedure that sets one runs from the
output's copy of its primal wherever the derivative code would call the program's
(state_writers), and one that only the program runs is refused (check_entry_state).
"""
import re

from adgen import ir
from adgen.errors import AdgenError, warning_text
from adgen.ir import exprs as X
from adgen.analysis.call_graph import callees, reachable_statements
from adgen.analysis.extent import const_value
from adgen.analysis.first_access import READ, SET, first_access
from adgen.analysis.handle_params import (handed_on, handle_access, handle_param,
                                          handle_writes)
from adgen.analysis.loops import readonly_int_params
from adgen.rules import LIBRARY_FUNCTIONS


def mentions(prog, f, g, seen=None):
    """True when function f or a function it calls names the global g."""
    seen = set() if seen is None else seen
    if f.name in seen or not f.has_body:
        return False
    seen.add(f.name)
    return any(_uses(prog, e, g, seen)
               for st in ir.stmts_walk(f.body.stmts) for e in ir.stmt_exprs(st))


def _uses(prog, e, g, seen):
    """True when expression e names the global g or calls a function that does."""
    return any(isinstance(sub, ir.Ref) and sub.sym is g or
               isinstance(sub, ir.Call) and sub.func in prog.functions and
               mentions(prog, prog.functions[sub.func], g, seen) for sub in ir.walk(e))


def sets_before_reading(prog, f, g):
    """True when no run of f reads the global g before setting it: along every path
    through f's statements, `g = ...` (or a call of a function that sets g so) comes
    before anything that reads g (itself or in a function it calls). An array used only
    at constant indices (`scratch[0] = ...; ... scratch[0]`) is followed element by
    element."""
    if g.type.resolved().is_array:
        elements = _constant_elements(reachable_statements(prog, f.name), g)
        if elements is not None:
            return all(_set_first(prog, f, g, k) for k in elements)
    return _set_first(prog, f, g, None)


def _set_first(prog, f, g, k):
    """sets_before_reading for g, or with k for a part of it alone: its element g[k] (an
    int), its field g.k (a name). A call reads it when the callee may read it before
    setting it, and sets it when the callee always does."""
    def named(e):
        return _uses_field(e, g, k) if isinstance(k, str) else _uses_element(e, g, k)

    def target(e):
        if k is None:
            return isinstance(e, ir.Ref) and e.sym is g
        if isinstance(k, str):
            return _is_field(e, g, k)
        return isinstance(e, ir.Index) and isinstance(e.base, ir.Ref) and e.base.sym is g \
            and const_value(e.index) == k

    def handles(e):
        """The calls in e handing &g to a handle parameter (handle_params.py): g
        reached through it during the call only (g a scalar)."""
        return handed_on(prog, e, lambda a: _address_of(a, g)) if k is None else []

    def reads(seen):
        def check(exprs):
            for e in exprs:
                passed = handles(e)
                if any(handle_access(prog, callee, j) == READ for _, j, callee in passed):
                    return True
                if named(e) and not (passed and not _uses_outside(
                        e, g, {id(call.args[j]) for call, j, _ in passed})):
                    return True
                for x in ir.walk(e):
                    fn = prog.functions.get(x.func) if isinstance(x, ir.Call) else None
                    if fn is None or not fn.has_body:
                        continue
                    if fn.name in seen:
                        if mentions(prog, fn, g, set()):
                            return True     # recursion: taken as reading it
                    elif first_access(fn.body.stmts, sets(seen | {fn.name}),
                                      reads(seen | {fn.name})) == READ:
                        return True
            return False
        return check

    def sets(seen):
        def check(st):
            if isinstance(st, ir.Assign) and target(st.lhs) and not reads(seen)([st.rhs]):
                return True
            call = st.expr if isinstance(st, ir.ExprStmt) else None
            passed = handles(call) if isinstance(call, ir.Call) else []
            mine = [handle_access(prog, callee, j) for x, j, callee in passed if x is call]
            if SET in mine and READ not in mine:
                # `gefa_(w, ..., &info)` setting *info first: g set, if nothing else of
                # the call reads it
                handed = {id(call.args[j]) for x, j, _ in passed if x is call}
                return not any(_uses_outside(a, g, handed) for a in call.args
                               if id(a) not in handed) and \
                    not reads(seen)([a for a in call.args if id(a) not in handed])
            fn = prog.functions.get(call.func) if isinstance(call, ir.Call) else None
            return fn is not None and fn.name not in seen and fn.has_body and \
                not reads(seen)(call.args) and \
                first_access(fn.body.stmts, sets(seen | {fn.name}),
                             reads(seen | {fn.name})) == SET
        return check

    return first_access(f.body.stmts, sets({f.name}), reads({f.name})) != READ


def _uses_outside(e, g, handed):
    """Whether e names g other than inside the arguments whose ids are in handed."""
    stack = [e]
    while stack:
        x = stack.pop()
        if id(x) in handed:
            continue
        if isinstance(x, ir.Ref) and x.sym is g:
            return True
        stack.extend(x.children() or ())
    return False


def handle_addresses(prog, f, g):
    """The ids of the `&g` in f's statements handed to handle parameters (g reached
    through them during the call only), or to a library routine that only reads what it
    is given (a WRITE item of f2c's, `do_fio(&c__1, (char *)&i__, ...)`)."""
    found = set()
    for st in ir.stmts_walk(f.body.stmts):
        for e in ir.stmt_exprs(st):
            found |= {id(call.args[j]) for call, j, _ in
                      handed_on(prog, e, lambda a: _address_of(a, g))}
            for call in ir.walk(e):
                callee = prog.functions.get(call.func) if isinstance(call, ir.Call) \
                    else None
                if callee is not None and _outputs_only(callee):
                    for a in call.args:
                        while isinstance(a, ir.Cast):
                            a = a.arg
                        if _address_of(a, g):
                            found.add(id(a))
    return found


def _address_of(a, g):
    """a is `&g`."""
    return isinstance(a, ir.AddrOf) and isinstance(a.arg, ir.Ref) and a.arg.sym is g


def _constant_elements(stmts, g):
    """The constant indices at which stmts use the array g, or None when they use it
    otherwise (a computed index, the whole array)."""
    found = set()
    for st in stmts:
        for e in ir.stmt_exprs(st):
            bases = set()
            for x in ir.walk(e):
                if isinstance(x, ir.Index) and isinstance(x.base, ir.Ref) and \
                        x.base.sym is g:
                    if const_value(x.index) is None:
                        return None
                    found.add(const_value(x.index))
                    bases.add(id(x.base))
            if any(isinstance(x, ir.Ref) and x.sym is g and id(x) not in bases
                   for x in ir.walk(e)):
                return None
    return found


def _uses_element(e, g, k):
    """True when expression e names g[k] (with k None: g), or g whole."""
    others = set()      # the array names of g[j], j another constant index
    for x in ir.walk(e):
        if isinstance(x, ir.Index) and isinstance(x.base, ir.Ref) and x.base.sym is g:
            if const_value(x.index) == k:
                return True
            if k is not None and const_value(x.index) is not None:
                others.add(id(x.base))
    return any(isinstance(x, ir.Ref) and x.sym is g and id(x) not in others
               for x in ir.walk(e))


def _is_field(e, g, name):
    """Whether e is the field g.name of the struct variable g."""
    return isinstance(e, ir.Member) and not e.arrow and e.field == name and \
        isinstance(e.base, ir.Ref) and e.base.sym is g


def _uses_field(e, g, name):
    """True when expression e names g.name, or g whole."""
    fields = {id(x.base) for x in ir.walk(e) if isinstance(x, ir.Member) and not x.arrow
              and isinstance(x.base, ir.Ref) and x.base.sym is g}
    return any(_is_field(x, g, name) for x in ir.walk(e)) or \
        any(isinstance(x, ir.Ref) and x.sym is g and id(x) not in fields for x in ir.walk(e))


# ------------------------------------------------- checks of the output's copies

def _file_scope(f):
    """(written, escaped, used): the file-scope names a C function's body may write, hand
    on as a pointer, and uses (frontend/file_scope.py); empty for other functions."""
    return getattr(f, "file_scope_names", ((), (), ()))


def check_static_globals(prog, stat, inside, called):
    """The output has its own copy of each file-scope static global it uses: refuse one
    that code running in the program's object sets, since the copy would not see it. That
    code is any function whose code the output does not contain (`inside`: the functions
    differentiated and the static ones copied), or that it calls as it is (`called`).
    A global only one function uses passes no value between functions: each copy serves
    the calls of that function in its own code (a value kept from one call to the next is
    check_static_state's)."""
    for g in stat:
        if getattr(g, "static_local", False):
            continue
        users = {getattr(f, "clone_of", f.name) for f in prog.functions.values()
                 if g.name in _file_scope(f)[2]}
        if len(users) == 1:
            continue
        aggregate = isinstance(g.type.resolved(), (ir.Arr, ir.Struct))
        known = {}
        for f in prog.functions.values():
            written, escaped, _ = _file_scope(f)
            name = getattr(f, "clone_of", f.name)
            if name in inside and name not in called:
                continue
            # the syntax's answer, refined where adgen read the body: `&c__1` handed to a
            # parameter the callee only reads sets nothing (f2c's constants)
            if g.name in written and f.has_body and getattr(f, "error", None) is None \
                    and not _may_set(prog, f, g, known):
                written = ()
            if not (g.name in written or aggregate and g.name in escaped):
                continue
            if getattr(g, "function_numbers", None) is not None:
                # (without `static`, any file could set it: no remedy there)
                raise AdgenError(
                    f"the function pointer '{ir.source_name(g)}' is set in '{name}', which "
                    "runs in the program's own code: adgen cannot tell which function it "
                    "holds at the calls; pass the function as an argument (callbacks are "
                    "supported)", g.loc)
            raise AdgenError(
                f"static global '{ir.source_name(g)}' is set in '{name}', which runs "
                "in the program's own code: the output keeps a copy of it that "
                f"'{name}' does not set; declare '{ir.source_name(g)}' without "
                "'static' so that the output uses the program's variable", g.loc)


def check_static_state(prog, stat, inside, heads):
    """Refuse a static variable (at file scope, or a function's static local) that a head
    reads before setting it and that the derivative code sets: it carries a value from one
    call to the next (a call counter a branch tests, an integrator's state, a filter's last
    input), and calls of the head in the program change the program's variable, not the
    output's copy, so the derivative would follow other branches and values than the
    primal. A counter whose value reaches nothing but itself (`calls++`) carries no state
    the derivatives see, nor do the statics of a first-call initialization
    (_first_call_setup)."""
    settled = _first_call_setup(prog, inside, stat)
    known = {}          # (readonly_int_params' answers, shared)
    for g in stat:
        local = getattr(g, "static_local", False)
        saved = getattr(g, "fortran_saved", False)     # a SAVEd local of a procedure
        sets = any(_may_set(prog, prog.functions[n], g, known)
                   for n in inside if n in prog.functions and prog.functions[n].has_body)
        if not sets or g.loc is None or _feeds_only_itself(prog, inside, g) or \
                g in settled:
            continue
        head = next((h for h in heads if not sets_before_reading(prog, h.func, g)), None)
        if head is None:
            continue
        hname = ir.source_name(head.func)
        what = f"static local '{g.local_name}' of '{g.local_of}'" if local else \
            "SAVEd variable '{}' of '{}'".format(*g.saved_as) if saved else \
            f"static global '{ir.source_name(g)}'"
        if getattr(g, "function_numbers", None) is not None:
            raise AdgenError(
                f"the function pointer '{ir.source_name(g)}' keeps its value from one call "
                f"of '{hname}' to the next: adgen cannot tell which function it holds at "
                "the calls; pass the function as an argument (callbacks are supported)",
                g.loc)
        remedy = "declare it at file scope, without 'static'," if local else \
            "make it a variable of a module" if saved else \
            f"declare '{ir.source_name(g)}' without 'static'"
        t = g.type.resolved()
        exact = not (t.is_array or t.is_struct) or t.is_array and _constant_elements(
            (st for h in heads for st in reachable_statements(prog, h.func.name)), g) \
            is not None
        if not exact:
            # an array or struct set element by element (a scratch row filled by a loop):
            # the analysis cannot tell whether each call sets it before reading it; but
            # one that code the program runs itself sets (an init routine, another ENTRY
            # of the same routine) is state the output's copy never gets
            outside = _set_outside(prog, inside, heads, g, known)
            if outside is not None:
                runner, setter = outside
                by = f"'{setter}'" if setter == runner else \
                    f"'{setter}' (called from '{runner}')"
                raise AdgenError(
                    f"the {what} is set by {by}, which runs in the program's own code, and "
                    f"'{hname}' may read it before setting it: the output has its own copy, "
                    f"which the program's calls do not set, so its derivatives would follow "
                    f"another state than the primal's ({remedy} so that the output uses the "
                    "program's variable)", g.loc)
            prog.warnings = getattr(prog, "warnings", []) + [warning_text(
                g.loc, f"the {what} may keep its value from one call of '{hname}' to the "
                f"next: the output has its own copy, which calls of '{hname}' in the "
                f"program do not change ({remedy} to share the program's)")]
            continue
        raise AdgenError(
            f"the {what} keeps its value from one call of '{hname}' to the next, and the "
            "derivative code changes it: the output would have its own copy, which calls "
            f"of '{hname}' in the program do not change, so its derivatives would follow "
            f"another state than the primal's ({remedy} so that the output uses the "
            "program's variable)", g.loc)


def _set_outside(prog, inside, heads, g, known):
    """(runner, setter) when a function runner of the program that the output does not
    contain (one the program runs itself) sets g, in its body or in setter, a function it
    calls other than through a head; None when none does. A function adgen could not read
    is followed through the names its syntax uses."""
    stop = {h.func.name for h in heads}
    for name, f in prog.functions.items():
        if name in inside or name in stop or getattr(f, "is_library", False) or \
                getattr(f, "clone_of", None) is not None:
            continue
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            fn = prog.functions.get(n)
            if n in seen or n in stop or fn is None or getattr(fn, "is_library", False):
                continue
            seen.add(n)
            if getattr(fn, "error", None) is not None:
                todo += [m for m in _file_scope(fn)[2] if m in prog.functions]
            elif fn.has_body:
                if _may_set(prog, fn, g, known):
                    return name, n
                todo += callees(prog, fn)
    return None


def check_saved_allocatables(functions):
    """Refuse a SAVEd local allocatable array (Fortran) that a call may find as the last
    call left it (`IF (.NOT. ALLOCATED(ACC))`, a value read before any ALLOCATE): the
    output keeps no such array from one call to the next (it allocates and frees it as a
    local), so its derivatives would follow another state than the program's. One each
    call allocates before using it (and so must have been deallocated) carries nothing."""
    from adgen.analysis.first_access import READ, variables_first_access
    for f in functions:
        for sym in f.locals:
            state = getattr(sym, "saved_allocatable", None)
            if state and variables_first_access(f.body.stmts, set(state)) == READ:
                raise AdgenError(
                    f"the SAVEd allocatable array '{ir.source_name(sym)}' keeps its "
                    f"allocation and values from one call of '{ir.source_name(f)}' to the "
                    "next, which the derivative code cannot share with the program (make "
                    "it a module variable, or allocate it on each call)", sym.loc)


def _may_set(prog, f, g, known):
    """Whether function f may set the static g: it assigns it, or takes its address other
    than as the argument of a callee that only reads through that parameter (f2c's
    constants passed by address to its routines, `ddot_(n, x, &c__1, y, &c__1)`, and to
    libf2c's output routines). In
    Fortran, where every argument is passed by address, only the arguments of the
    program's procedures count, but those of an INTENT(IN) dummy or of an integer one
    the procedure only reads (a SAVEd counter passed to `call bump(ncall)` is set)."""
    fortran = prog.language == "fortran"
    for st in ir.stmts_walk(f.body.stmts):
        if isinstance(st, ir.Assign) and _written_static(st.lhs) is g:
            return True
        for e in ir.stmt_exprs(st):
            passed, read_only = set(), set()    # ids of `&x` arguments; those only read
            for call in ir.walk(e):
                callee = prog.functions.get(call.func) if isinstance(call, ir.Call) \
                    else None
                if callee is not None and _outputs_only(callee):
                    read_only |= {id(a) for a in call.args}
                elif callee is not None and callee.has_body:
                    ro = readonly_int_params(callee, prog.functions, known)
                    for j, (a, p) in enumerate(zip(call.args, callee.params)):
                        passed.add(id(a))
                        if isinstance(a, ir.AddrOf) and (
                                p in ro or fortran and getattr(p, "intent_in", False) or
                                # a number read through *p only (f2c's `&c_b2` for 0.5)
                                handle_param(prog, callee, j) and
                                not handle_writes(prog, callee, j)):
                            read_only.add(id(a))
            if any(isinstance(x, ir.AddrOf) and id(x) not in read_only and
                   (id(x) in passed or not fortran) and ir.storage_symbol(x.arg) is g
                   for x in ir.walk(e)):
                return True
    return False


def _outputs_only(f):
    """Whether f is a library routine that only reads what its arguments reach, to print
    it, to stop or to compute an integer (libf2c's WRITE items and control blocks,
    `do_lio(&c__9, &c__1, ...)`, `pow_ii(&i__, &c__2)`)."""
    lib = LIBRARY_FUNCTIONS.get(f.name)
    return getattr(f, "is_library", False) and lib is not None and \
        lib.kind in ("effect", "int")


# calls that only compare or measure what they are given (a test of a first-call flag
# held in a CHARACTER variable: `IF (SEEN .EQ. 'N')`)
PURE_COMPARISONS = ("adgen_str_cmp", "adgen_len_trim", "adgen_len_lead", "adgen_str_index",
                    "strcmp", "strncmp", "memcmp", "strlen")


def _written_static(lhs):
    """The variable whose storage an lvalue writes: itself, an element or a field, or
    through its own address, `(&seen[0])[k]` (a CHARACTER element's bytes, as the Fortran
    front end writes them); None for memory reached through a pointer."""
    e = lhs
    while isinstance(e, (ir.Member, ir.Index, ir.Deref, ir.Cast)):
        e = e.ptr if isinstance(e, ir.Deref) else e.arg if isinstance(e, ir.Cast) else e.base
    return ir.storage_symbol(e.arg) if isinstance(e, ir.AddrOf) else ir.storage_symbol(lhs)


def _first_call_setup(prog, inside, stat):
    """The statics of first-call initializations: `if (!ready) { w[0] = 0.25; ...;
    ready = 1; }` at the top of a function, setting statics to constants only (or to
    what functions of constants give: SLATEC's `IF (FIRST) XMAX = ... D1MACH(2) ...`),
    the flag set in the block or by the statement after it (`FIRST = .FALSE.`). The
    output's copies may be set a call later than the program's, but the branch stores the
    same values either way, and nothing reads them before it. Such a static qualifies
    when every write to it is in such a block and every function reading it starts with
    one that sets it."""
    stat = set(stat)
    blocks = {}         # function name -> [(the block's statements, statics it sets or tests)]
    for n in inside:
        f = prog.functions.get(n)
        if f is None or not f.has_body:
            continue
        touched = set()     # statics the statements before read or write
        stmts = f.body.stmts
        for k, st in enumerate(stmts):
            found = _setup_block(prog, st, stat)
            if found is not None:
                sets, tested = found
                block = [st]
                after = stmts[k + 1] if k + 1 < len(stmts) else None
                if not tested <= sets and isinstance(after, ir.Assign) and \
                        isinstance(after.lhs, ir.Ref) and after.lhs.sym in tested and \
                        isinstance(after.rhs, ir.Const):
                    sets = sets | {after.lhs.sym}       # the flag, set after the block
                    block.append(after)
                if tested <= sets and not (sets | tested) & touched:
                    blocks.setdefault(n, []).append((block, sets | tested))
            touched |= {x.sym for e in _all_exprs([st]) for x in ir.walk(e)
                        if isinstance(x, ir.Ref) and x.sym in stat}
    inside_blocks = {id(st) for found in blocks.values() for block, _ in found
                     for st in block}
    settled = set()
    for g in {g for found in blocks.values() for _, syms in found for g in syms}:
        ok = True
        for n in inside:
            f = prog.functions.get(n)
            if f is None or not f.has_body:
                continue
            uses = [st for st in f.body.stmts if any(
                isinstance(x, ir.Ref) and x.sym is g for e in _all_exprs([st])
                for x in ir.walk(e))]
            if uses and not any(g in syms for _, syms in blocks.get(n, [])):
                ok = False      # read where no block sets it first
            if any(id(st) not in inside_blocks and any(
                    isinstance(x, ir.Assign) and _written_static(x.lhs) is g
                    for x in ir.stmts_walk([st])) for st in uses):
                ok = False      # written outside the blocks
        if ok:
            settled.add(g)
    return settled


def _setup_block(prog, st, stat):
    """(the statics an `if` sets, those it tests) when it is a first-call initialization
    (see _first_call_setup), else None: its branch sets statics from constants only,
    through locals it sets first and counted loops (`for (k = 0; k < N; k++) t[k] = 1.0 /
    (1 + k)`), math functions of them and functions of the program that compute from
    their arguments alone (_of_arguments_only)."""
    if not isinstance(st, ir.If) or st.other is not None:
        return None
    tested = {x.sym for x in ir.walk(st.test) if isinstance(x, ir.Ref)}
    if not tested or not tested <= stat or any(
            isinstance(x, ir.Call) and x.func not in PURE_COMPARISONS
            for x in ir.walk(st.test)):
        return None
    known, set_statics = set(), set()       # locals set in the block; statics it sets

    def constant(e, target=None):
        for r in ir.walk(e):
            if isinstance(r, ir.Call) and \
                    getattr(LIBRARY_FUNCTIONS.get(r.func), "kind", None) not in ("math", "step") \
                    and not _of_arguments_only(prog, r.func, set()):
                return False
            if isinstance(r, ir.Ref) and r.sym is not target and r.sym not in known and \
                    not _constant_table(prog, r.sym):
                return False
        return True

    def assign(x):
        target = _written_static(x.lhs)
        # what the value and the indices read
        if not constant(x.rhs) or not constant(x.lhs, target):
            return False
        if target in stat:
            set_statics.add(target)
        elif isinstance(x.lhs, ir.Ref) and target.kind in ("local", "temp"):
            known.add(target)
        else:
            return False
        return True

    def block(stmts):
        for x in stmts:
            if isinstance(x, ir.Assign):
                ok = assign(x)
            elif isinstance(x, ir.Block):
                ok = block(x.stmts)
            elif isinstance(x, ir.For):
                ok = block(x.init) and (x.test is None or constant(x.test)) and \
                    block(x.body.stmts) and block(x.step)
            else:
                ok = False
            if not ok:
                return False
        return True

    if not block(st.then.stmts):
        return None
    return set_statics, tested


def _constant_table(prog, sym):
    """Whether sym is a static array with initial values that no statement of the program
    writes (a table of series coefficients given by DATA), nor a function it is passed
    to."""
    if sym.kind != "global" or not sym.type.resolved().is_array or \
            getattr(sym, "init_text", None) is None:
        return False
    for f in prog.functions.values():
        for st in ir.stmts_walk(f.body.stmts) if f.has_body else ():
            if isinstance(st, ir.Assign) and ir.storage_symbol(st.lhs) is sym:
                return False
            for e in ir.stmt_exprs(st):
                for call in ir.walk(e):
                    if isinstance(call, ir.Call) and any(X.mentions(a, sym) for a in call.args) and \
                            not _of_arguments_only(prog, call.func, set()):
                        return False
    return True


def _of_arguments_only(prog, name, seen):
    """Whether the function `name` of the program computes its result from the values of
    its arguments alone: it reads and writes nothing but its parameters' values and its
    locals (no global, no static; through its pointer parameters it only reads, as a
    Fortran function reads its arguments), and calls only math functions and functions
    like it (D1MACH(4), a machine constant from its argument; INITDS(CS, N, ETA), the
    number of terms of a series to take from its coefficients)."""
    f = prog.functions.get(name)
    if f is None or not f.has_body or name in seen or getattr(f, "is_library", False):
        return False
    seen.add(name)
    own = set(f.params) | set(f.locals)
    for st in ir.stmts_walk(f.body.stmts):
        if isinstance(st, ir.Assign) and ir.storage_symbol(st.lhs) not in set(f.locals):
            return False
        for e in ir.stmt_exprs(st):
            for x in ir.walk(e):
                if isinstance(x, ir.Ref) and x.sym not in own:
                    return False
                if isinstance(x, ir.Call) and \
                        getattr(LIBRARY_FUNCTIONS.get(x.func), "kind", None) not in \
                        ("math", "step") and not _of_arguments_only(prog, x.func, seen):
                    return False
    return True


def _all_exprs(stmts):
    for x in ir.stmts_walk(stmts):
        yield from ir.stmt_exprs(x)


def _feeds_only_itself(prog, inside, g):
    """True when every read of g in the functions `inside` is in an assignment to g."""
    for n in inside:
        f = prog.functions.get(n)
        if f is None or not f.has_body:
            continue
        for st in ir.stmts_walk(f.body.stmts):
            own = isinstance(st, ir.Assign) and ir.storage_symbol(st.lhs) is g
            exprs = [st.lhs] if own else list(ir.stmt_exprs(st))
            for e in exprs:
                if any(isinstance(x, ir.Ref) and x.sym is g for x in ir.walk(e)
                       if not (own and x is st.lhs)):
                    return False
    return True


# -------------------------------------------------- state ENTRY points share

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
            # (a copy of a procedure per call site is where its procedure is)
            setting = _sets(f).get(g) if getattr(f, "clone_of", name) not in inside \
                else None
            if setting is not None:
                what, host = g.saved_as
                raise AdgenError(
                    f"the SAVEd variable '{what}' of '{host}', which its ENTRY points share, "
                    f"is set in '{ir.source_name(f)}', which runs in the program's own "
                    "code only: the output keeps a copy of it that the program's calls do "
                    f"not set (call '{ir.source_name(f)}' from the head, or make '{what}' a "
                    "variable of a module so that the output uses the program's)",
                    setting.loc or g.loc)


def check_preset_pointers(prog, functions, heads, active):
    """A global pointer to numbers (or a global struct holding one) that a head reads
    before setting it points where an initializer (`double *pg = &gs;`) or code outside
    the heads (a set-up routine) made it point, which the memory model does not see.
    Derivatives flowing through it would be lost where it points to active data (active(g),
    the activity analysis's answer), where the derivative code writes through it (or hands
    it on), or where it reads through it while it writes global numbers the pointer may
    reach: refused then. Left alone: a pointer into constant numbers (`const double
    table[]`) that no function sets, and one only read through by code that writes no
    global numbers (weights a set-up routine allocated and filled). functions: the
    functions of the derivative code; heads: the heads' functions."""
    uses = {}           # global -> 'read' (only read through) | 'written'
    writes_globals = False
    for name in functions:
        f = prog.functions[name]
        for st in ir.stmts_walk(f.body.stmts) if f.has_body else ():
            if isinstance(st, ir.Assign):
                g = ir.root_symbol(st.lhs)
                if g is not None and g.kind == "global" and _holds_numbers(g.type):
                    writes_globals = True
                if g is not None and g.kind == "global" and _through_pointer(st.lhs):
                    uses[g] = "written"
            for e in ir.stmt_exprs(st):
                for sub in ir.walk(e):
                    if isinstance(sub, ir.Call):
                        for a in sub.args:
                            g = ir.root_symbol(a)
                            if g is not None and g.kind == "global":
                                uses[g] = "written"     # handed on: a callee may write
                                writes_globals = True
                    elif isinstance(sub, ir.Ref) and sub.sym.kind == "global":
                        uses.setdefault(sub.sym, "read")
    for g, use in uses.items():
        if getattr(g, "is_library", False) or not _points_to_numbers(g.type) or \
                _into_constants(prog, g) or \
                use == "read" and not writes_globals and not active(g):
            continue
        head = next((h for h in heads if not _pointers_set_first(prog, h, g)), None)
        if head is not None:
            where = "its initializer" if g.init_text else "code outside the head"
            name = getattr(g, "local_name", None) or ir.source_name(g)
            what = f"the global '{name}', which holds a pointer," \
                if not g.type.resolved().is_pointer else \
                f"the static pointer '{name}' of '{g.local_of}'" \
                if getattr(g, "static_local", False) else f"the global pointer '{name}'"
            raise AdgenError(
                f"{what} points where {where} made it point: "
                f"'{ir.source_name(head)}' reads it before setting it, and adgen cannot "
                "tell which derivatives go with what it points to; set it in the head "
                "(or in a function the head calls first)", g.loc)


def _pointers_set_first(prog, f, g):
    """Whether f sets global g before reading it, or for a struct, each of its fields
    holding pointers to numbers."""
    t = g.type.resolved()
    if not t.is_struct:
        return sets_before_reading(prog, f, g)
    return _set_first(prog, f, g, None) or \
        all(_set_first(prog, f, g, name) for name, ft in t.sdef.fields
            if _points_to_numbers(ft))


def _through_pointer(lvalue):
    """Whether an lvalue is memory reached through a pointer (`*p`, `p[i]`, `p->x`,
    `s.p[i]`), not a variable's own storage."""
    return any(isinstance(e, ir.Deref) or isinstance(e, ir.Member) and e.arrow or
               isinstance(e, ir.Index) and e.base.type.resolved().is_pointer
               for e in ir.lvalue_chain(lvalue))


def _points_to_numbers(t, seen=()):
    """Whether a value of type t is or holds (in a field, an element) a pointer to
    floating-point numbers."""
    r = ir.array_element(t)
    if r.is_pointer:
        target = ir.array_element(r.target)
        return target.is_float or target.is_struct and _holds_numbers(target)
    if r.is_struct and r.sdef not in seen:
        return any(_points_to_numbers(ft, seen + (r.sdef,)) for _, ft in r.sdef.fields)
    return False


def _holds_numbers(t, seen=()):
    """Whether a value of type t is or holds (in a field, an element) a floating-point
    number."""
    r = ir.array_element(t)
    if r.is_struct and r.sdef not in seen:
        return any(_holds_numbers(ft, seen + (r.sdef,)) for _, ft in r.sdef.fields)
    return r.is_float


def _into_constants(prog, g):
    """Whether global pointer g starts at constant numbers (its initializer names a
    `const` global: `&table[0]`, `table`) and no function sets it."""
    m = re.match(r"\(?\s*&?\s*([A-Za-z_]\w*)", g.init_text or "")
    target = next((h for h in prog.globals if m and h.name == m.group(1)), None)
    if target is None or not ir.array_element(target.type).const:
        return False
    return not any(isinstance(st, ir.Assign) and ir.root_symbol(st.lhs) is g
                   for f in prog.functions.values() if f.has_body
                   for st in ir.stmts_walk(f.body.stmts))
