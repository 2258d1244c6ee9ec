"""Calls of functions with a rule of the user's (frontend/user_rules.py): what flows through
them, the lengths of their arrays, the derivative routines they name."""
from adgen import ir


def result_is_active(act, lhs):
    """True when the variable a call's result goes to (None for none) carries a
    derivative."""
    return lhs is not None and lhs.type.resolved().is_float and act.active_value(lhs)


def derivative_flows(act, f, call, lhs_active):
    """True when a call of ruled function f has an output that carries a derivative."""
    rule = f.user_rule
    return (lhs_active and f.name in rule.dep) or any(
        (p.name in rule.dep or p.name in rule.refs or
         rule.communicates and p.name in rule.indep) and
        act.has_shadow(a) for p, a in zip(f.params, call.args))


def rule_length(f, name, args):
    """The length the rule of f gives its array parameter `name` at a call with args, its
    constant parts worked out (the comparisons of enumerators decided)."""
    from adgen.ir.exprs import fold, substitute
    return fold(substitute(f.rule_sizes[name], dict(zip(f.params, args))))


def size_at_call(f, param, args):
    """The length of a ruled function's array parameter at a call, as an IR expression
    (a long, never below 0)."""
    n = rule_length(f, param.name, args)
    return ir.Call("adgen_imax", [n, ir.Const("0", ir.LONG)], ir.LONG)


def found_at_run_time(n):
    """True when a length calls a function of the output's (the number of ranks times an
    MPI block: adgen_all_ranks_length, ...): worth finding once, into a local."""
    return any(isinstance(x, ir.Call) and x.func != "adgen_imax" for x in ir.walk(n))


def derivative_signature(f, mode, fortran=False):
    """(name, return type, parameters) of NAME_b / NAME_d for a ruled function f; in
    Fortran, NAME_b takes the result's seed by reference."""
    rule = f.user_rule
    params = []
    for p in f.params:
        params.append(p)
        if p.name in rule.refs and mode == "reverse":     # (an adjoint, no derivative)
            params.append(ir.Symbol(p.name + "b", ir.Ptr(ir.with_const(
                ir.pointee(p.type.resolved()), False)), "param"))
        if not rule.named(p.name):
            continue
        t = p.type.resolved()
        suffix = "b" if mode == "reverse" else "d"
        if t.is_float:
            st = ir.Ptr(ir.with_const(p.type, False)) if mode == "reverse" else p.type
        elif mode == "reverse":
            st = ir.Ptr(ir.with_const(ir.pointee(t), False))
        else:
            st = p.type
        params.append(ir.Symbol(p.name + suffix, st, "param"))
    ret = ir.VOID
    if f.name in rule.dep:
        if mode == "reverse":
            seed = ir.with_const(f.ret, False)
            params.append(ir.Symbol(f.name + "b", ir.Ptr(seed) if fortran else seed, "param"))
        else:
            ret = ir.with_const(f.ret, False)
            params.append(ir.Symbol(f.name, ir.Ptr(ir.with_const(f.ret, False)), "param"))
    elif mode == "forward" and not f.ret.resolved().is_void:
        ret = f.ret             # NAME_d returns what NAME returns
    suffix = "_b" if mode == "reverse" else "_d"
    return f.name + suffix, ret, params


def derivative_link_names(prog):
    """{NAME_b: its symbol} of the derivative routines of ruled Fortran procedures:
    external procedures as gfortran names them (solve_b_)."""
    out = {}
    for f in prog.functions.values():
        if getattr(f, "user_rule", None) is not None:
            for suffix in ("_b", "_d", "_dv"):
                out[f.name + suffix] = f.name + suffix + "_"
    return out
