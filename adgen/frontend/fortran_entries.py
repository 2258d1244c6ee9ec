"""ENTRY statements: a procedure with entries read as one procedure per entry point.

`ENTRY apply(x, y)` in the execution part of `subroutine setup(a)` makes `apply` a
procedure of its own whose body is the statements after the ENTRY statement, with
setup's declarations: a call of apply starts there. Each ENTRY statement is not
executable, so setup's own body is its statements with the ENTRY statements taken out
(its code runs on into what follows them). The entry points share their SAVEd
variables (Scope.saved_variable keys them by the procedure that holds the entries,
`entry_host`), and a function's entries its result variable; a dummy of another entry
point is a local where it is not a dummy.
"""
import copy

from adgen.errors import AdgenError
from adgen.frontend.fortran_helpers import (copied_tree, f2003, head_stmt, name_of,
                                            result_name_of, rewrite_in_place, walk_type)
from adgen.frontend.fortran_places import statement_loc


def split_entries(path, tree):
    """The procedures of tree (outside interface bodies) that have ENTRY statements
    replaced by one procedure per entry point, in place."""
    F = f2003()
    parents = [tree] + walk_type(tree, (F.Module_Subprogram_Part,
                                        F.Internal_Subprogram_Part))
    for parent in parents:
        units = []
        for unit in parent.children:
            if isinstance(unit, (F.Subroutine_Subprogram, F.Function_Subprogram)):
                units.extend(_entry_points(path, unit))
            else:
                units.append(unit)
        parent.content[:] = units


def _entry_points(path, unit):
    """[unit without its ENTRY statements, one procedure per ENTRY statement], or [unit]
    when it has none."""
    F = f2003()
    body = next((c for c in unit.children if isinstance(c, F.Execution_Part)), None)
    entries = [s for s in body.children if isinstance(s, F.Entry_Stmt)] \
        if body is not None else []
    nested = [s for s in walk_type(body, F.Entry_Stmt) if s not in entries] \
        if body is not None else []
    if nested:
        raise AdgenError("an ENTRY statement inside a construct (the standard allows them "
                         "only between the statements of the execution part)",
                         statement_loc(path, nested[0]))
    if not entries:
        return [unit]
    host = name_of(head_stmt(unit).items[1])
    out = []
    for k, entry in enumerate(entries):
        after = body.children[body.children.index(entry) + 1:]
        out.append(_entry_procedure(path, unit, entry, after))
    body.content[:] = [s for s in body.children if not isinstance(s, F.Entry_Stmt)]
    unit.adgen_entry_host = host
    for u in out:
        u.adgen_entry_host = host
    if isinstance(unit, F.Function_Subprogram):
        _results_associated([unit] + out)
    return [unit] + out


def _results_associated(units):
    """The result variables of a function and of its entries are one variable (storage
    association): in each procedure, the others' names are its own result's, so that
    `g = ...` after `ENTRY g(x)` sets f's result in the code f runs on into."""
    F = f2003()
    results = [result_name_of(head_stmt(u)) for u in units]
    for u, own in zip(units, results):
        others = set(results) - {own}
        body = next((c for c in u.children if isinstance(c, F.Execution_Part)), None)
        if body is not None and others:
            rewrite_in_place(body, lambda n: F.Name(own) if isinstance(n, F.Name) and
                             name_of(n) in others else None)


def _entry_procedure(path, unit, entry, statements):
    """The procedure that entry starts: unit's specification part, and the statements
    after entry in its execution part."""
    F = f2003()
    name = str(entry.items[0])
    dummies = str(entry.items[1]) if entry.items[1] is not None else ""
    suffix = str(entry.items[2]) if entry.items[2] is not None else ""
    is_function = isinstance(unit, F.Function_Subprogram)
    kind = "FUNCTION" if is_function else "SUBROUTINE"
    try:
        head = (F.Function_Stmt if is_function else F.Subroutine_Stmt)(
            f"{kind} {name}({dummies}) {suffix}".strip())
        end = (F.End_Function_Stmt if is_function else F.End_Subroutine_Stmt)(f"END {kind}")
    except Exception:       # (fparser's NoMatchError: what it read, it writes back)
        raise AdgenError(f"the ENTRY statement '{entry}' is not supported",
                         statement_loc(path, entry))
    head.item = entry.item          # its line: the ENTRY statement's
    end.item = getattr(unit.children[-1], "item", None)
    labels = {str(s.item.label) for s in walk_type(statements, F.StmtBase)
              if getattr(s, "item", None) is not None and s.item.label}
    jumps = (F.Goto_Stmt, F.Computed_Goto_Stmt, F.Arithmetic_If_Stmt)
    for st in walk_type(statements, F.StmtBase):
        if getattr(st, "item", None) is None:
            continue        # (a GOTO of a logical IF: the IF's line)
        targets = [str(x) for j in [st] + walk_type(st, jumps) if isinstance(j, jumps)
                   for x in walk_type(j, F.Label)]
        missing = [t for t in targets if t not in labels]
        if missing:
            raise AdgenError(f"the code of ENTRY '{name}' jumps to label {missing[0]}, "
                             "before the ENTRY statement: not supported",
                             statement_loc(path, st))
    parts = [head]
    for part in unit.children[1:-1]:
        if isinstance(part, F.Execution_Part):
            body = copy.copy(part)
            body.content = [copied_tree(s) for s in statements if not isinstance(s, F.Entry_Stmt)]
            parts.append(body)
        else:
            parts.append(copied_tree(part))
    parts.append(end)
    entry_unit = copy.copy(unit)
    entry_unit.content = parts
    return entry_unit

