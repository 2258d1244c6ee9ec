"""The functions of the output as the transforms build them for the back end: a
signature, the locals declared at the top, a body of IR statements."""
from dataclasses import dataclass, field
from typing import List, Optional

from adgen import ir


@dataclass(eq=False)
class LocalDecl:
    sym: ir.Symbol
    zero: bool = False         # start at zero (adjoint and tangent variables)
    init: Optional[ir.Expr] = None     # else its initial value (declared before the others)


@dataclass(eq=False)
class GenFunction:
    """A function of the output: signature, locals declared at the top, body."""
    name: str
    ret: ir.Type
    params: List[ir.Symbol]
    body: List[ir.Stmt]
    locals: List[LocalDecl] = field(default_factory=list)
    is_static: bool = False
    comment: str = ""
    source: str = ""           # the function it was generated from (a copy's own name)
    # pointer parameters declared `restrict` (see docs/conventions.md, vector mode)
    restrict: frozenset = frozenset()
    # (parameter name, its length): `#pragma adgen size(NAME, LENGTH)` (driver.py)
    sizes: list = field(default_factory=list)


def local_type(t):
    """Locals are declared at the top and assigned later: no const at the top level, nor on
    array elements."""
    if isinstance(t, ir.Arr):
        return ir.Arr(local_type(t.elem), t.size)
    if isinstance(t, ir.Named) and isinstance(t.resolved(), ir.Arr):
        return local_type(t.resolved())
    return ir.with_const(t, False)
