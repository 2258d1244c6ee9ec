"""libf2c's routines of CHARACTER data, in C that f2c translated, read as what they compute:
`s_copy(a, b, la, lb)` (an assignment: b's characters, then blanks up to a's length, b cut
to it) as a loop over a's characters; `s_cmp(a, b, la, lb)` (a comparison, the shorter
string padded with blanks) as the comparison the Fortran front end makes, which has the
same sign, all f2c's relational operators test; `i_len(a, la)` as la. The analyses then
see what they read and write, and the output needs no libf2c for them."""
from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X

F2C_STRING_CALLS = ("s_copy", "s_cmp", "i_len")


def f2c_string_call(name, args, pre, temp, loc):
    """The value of the call name(args) (one of F2C_STRING_CALLS), statements it needs
    first appended to pre; temp(base, type, loc) makes a local."""
    char, long_ = ir.Prim("char"), ir.LONG
    lengths = [ir.Cast(long_, a, loc) for a in args[len(args) // 2:]]
    if name == "i_len":
        return ir.Cast(ir.INT, args[1], loc)
    if name == "s_cmp":
        return ir.Call("adgen_str_cmp", [args[0], lengths[0], args[1], lengths[1]], ir.INT,
                       loc)
    a, b = args[0], args[1]
    if ir.root_symbol(a) is not None and ir.root_symbol(a) is ir.root_symbol(b):
        # (the loop reads b as it writes a: a part of a string moved within it would read
        # characters already overwritten)
        raise AdgenError(f"s_copy of a string into itself ('{ir.root_symbol(a).name}'): "
                         "adgen copies CHARACTER strings of different variables only", loc)
    la, lb = (ir.Ref(_once(n, "length", pre, temp, loc), loc) for n in lengths)
    k = temp("k", long_, loc)
    value = ir.Cond(ir.Binary("<", ir.Ref(k, loc), lb, ir.INT),
                    ir.Index(b, ir.Ref(k, loc), char, loc), ir.Const("' '", char), char)
    loop = X.counted_loop(k, la, [ir.Assign(ir.Index(a, ir.Ref(k, loc), char, loc), value,
                                            loc)])
    loop.loc = loop.body.loc = loc
    pre.append(loop)
    return ir.Const("0", ir.INT)


def _once(e, base, pre, temp, loc):
    """A local set to e (in pre)."""
    sym = temp(base, ir.LONG, loc)
    pre.append(ir.Assign(ir.Ref(sym, loc), e, loc))
    return sym
