"""adgen's own output given back to it (second derivatives: docs/second-order.md).

The runtime adgen writes into its output (the value stack, its helpers) is adgen's, not the
program's: its definitions are left out when such a file is read, and the back end writes
the runtime the new derivative code needs, once. The stack's calls are read as the
statements of ir/own_stack.py. What the reading cannot follow yet (the static stack) is
refused at its line."""
import pathlib
import re

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X, own_stack

_TEMPLATES = pathlib.Path(__file__).resolve().parent.parent / "templates"


def _runtime_names():
    """The names the runtime templates define at file scope (functions and variables)."""
    names = set()
    for path in sorted(_TEMPLATES.glob("*.j2")):
        for m in re.finditer(r"^static\b[^(;{]*", path.read_text(), re.M):
            names.update(re.findall(r"\badgen_\w+", m.group(0)))
        # `static union { ... } adgen_stack_buffer;`
        names.update(re.findall(r"^\}\s*(adgen_\w+)\s*;", path.read_text(), re.M))
    return frozenset(names)


RUNTIME_NAMES = _runtime_names()

STACK_CALLS = {"adgen_push", "adgen_pop", "adgen_push_int", "adgen_keep", "adgen_pop_keep"}
# the static stack's scratch blocks (`--stack=static`: a checkpointed loop's kept states)
# are memory as calloc gives it, read as calloc and free
SCRATCH_CALLS = {"adgen_stack_alloc": "calloc", "adgen_stack_free": "free"}


def _moves(name, target, loc):
    """The statements of one element moved by the stack call name."""
    if name == "adgen_push":
        return [own_stack.push(target, loc)]
    if name == "adgen_pop":
        return [own_stack.pop(target, loc)]
    if name == "adgen_keep":
        return [own_stack.keep(target, loc)]
    return [own_stack.keep(target, loc), own_stack.pop(X.clone(target), loc)]   # pop_keep


def is_runtime(name):
    """True when a file-scope definition of this name is adgen's runtime."""
    return name in RUNTIME_NAMES


def check_runtime_call(name, loc):
    """A call of a runtime helper the rules table does not know (those it knows, the
    derivative code keeps: rules.py): refused."""
    if name in RUNTIME_NAMES:
        raise AdgenError(f"'{name}' belongs to the runtime of adgen's own output, which adgen "
                         "cannot differentiate yet (it reads back the value stack and the log "
                         "of the default --stack=heap): see docs/second-order.md", loc)


def stack_statement(name, args, hidden_local, loc):
    """The statements a call of the stack or the log (`adgen_push(&v, sizeof(v))`,
    `adgen_pop(p, n * sizeof(*p))`, `adgen_push_int(e)`, `adgen_keep`, `adgen_pop_keep`) is
    read as; args already translated."""
    if name == "adgen_push_int":
        return [own_stack.push(args[0], loc)]
    at, nbytes = args
    target = at.arg if isinstance(at, ir.AddrOf) else None
    if target is None or not _is_size_of(nbytes, target):
        # `adgen_push(p, sizeof(*p))`: the one element p points to
        target = ir.Deref(X.clone(at), ir.pointee(at.type.resolved()))
        target = target if _is_size_of(nbytes, target) else None
    if target is not None:
        return _moves(name, target, loc)
    # a block: count * sizeof(element), one element after another (popped last first)
    elem_type = ir.pointee(at.type.resolved())
    count = X.element_count(nbytes, elem_type)
    if count is None:
        raise AdgenError(f"cannot tell how many elements this {name} of adgen's own output "
                         "moves", loc)
    k = hidden_local("k", ir.INT, loc)
    elem = _element(at, ir.Ref(k), elem_type)
    one = ir.Const("1", ir.INT)
    if name in ("adgen_push", "adgen_keep"):
        init, test = ir.Assign(ir.Ref(k), ir.Const("0", ir.INT), loc), \
            ir.Binary("<", ir.Ref(k), ir.Cast(ir.INT, count), ir.INT)
        step = ir.Assign(ir.Ref(k), ir.Binary("+", ir.Ref(k), one, ir.INT), loc)
    else:
        init = ir.Assign(ir.Ref(k), ir.Binary("-", ir.Cast(ir.INT, count), one, ir.INT), loc)
        test = ir.Binary(">=", ir.Ref(k), ir.Const("0", ir.INT), ir.INT)
        step = ir.Assign(ir.Ref(k), ir.Binary("-", ir.Ref(k), one, ir.INT), loc)
    return [ir.For([init], test, [step], ir.Block(_moves(name, elem, loc)), loc)]


def _is_size_of(nbytes, lvalue):
    if not isinstance(nbytes, ir.SizeOf):
        return False
    if isinstance(nbytes.of, ir.Expr):
        return X.same_text(nbytes.of, lvalue)
    return X.same_type(nbytes.of, lvalue.type)


def _element(at, k, elem_type):
    """Element k of the block at pointer at (`&x[i]` gives x[i + k])."""
    if isinstance(at, ir.AddrOf) and isinstance(at.arg, ir.Index):
        return ir.Index(X.clone(at.arg.base), X.add(X.clone(at.arg.index), k), elem_type)
    return ir.Index(X.clone(at), k, elem_type)
