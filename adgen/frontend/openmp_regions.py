"""OpenMP directives that shape the statements after them, read before translation.

An `omp atomic` or `omp critical` pairs with the statement it protects (exclusive_pairs).
An OpenMP parallel region that only runs one worksharing loop is read as the combined
construct it means:

    #pragma omp parallel [clauses]          #pragma omp parallel for [clauses] private(t)
    {                                   ->  for (i = 0; i < n; i++) ...
        double t;
        #pragma omp for [clauses]
        for (i = 0; i < n; i++) ...
    }

The region's scalars, each thread's own, become `private` (`firstprivate` when the region
initializes them) of the combined loop; `nowait` goes (the region ends in a barrier
anyway) and so does `default(none)`, a check of the source that the listed clauses
already satisfy. The transforms then keep the loop parallel as they keep any `parallel
for` (transform/openmp.py, parallel_backward.py). A region of another shape (more than one
loop, other statements, arrays of its own, a clause of another kind) is left as written,
and runs serially with a warning (driver.warn_openmp).

The blocks are pycparser's, before translation: the region's declarations keep their
scope (a `{ ... }` around them and the loop)."""
import re

from pycparser import c_ast

from adgen.ir.openmp import exclusive_directive, omp_clauses

_PARALLEL = re.compile(r"\s*omp\s+parallel\b(?!\s+for\b)(.*)$", re.S)
_FOR = re.compile(r"\s*omp\s+for\b(.*)$", re.S)
# the clauses each directive may carry here, as the combined construct takes them
_REGION_CLAUSES = ("private", "firstprivate", "shared", "default", "num_threads", "if",
                   "proc_bind", "reduction")
_LOOP_CLAUSES = ("private", "firstprivate", "lastprivate", "reduction", "schedule",
                 "collapse", "nowait")
# the clauses that list variables
_LISTS = ("private", "firstprivate", "lastprivate", "shared", "reduction")


def fused_regions(items, declared):
    """The block items, one at a time, with each region of the shape above replaced by a
    `{ ... }` holding its declarations, the combined pragma and the loop. declared(name):
    the name already means something where the region stands, asked once the items before
    it are read (a region's variable shadowing it is not fused: the clauses would name the
    other one)."""
    k = 0
    while k < len(items):
        item = items[k]
        region = _clauses(item, _PARALLEL, _REGION_CLAUSES)
        if region is not None and k + 1 < len(items):
            fused = _fused(region, items[k + 1:k + 3], item, declared)
            if fused is not None:
                yield fused[0]
                k += 1 + fused[1]
                continue
        yield item
        k += 1


def exclusive_pairs(items):
    """(item, exclusive) for each block item: exclusive (pragma, directive) of the `omp
    atomic` or `omp critical` standing just before it (ir.openmp.exclusive_directive),
    else None; such a directive is no item of its own, but at the end of the block."""
    waiting = None
    for item in items:
        directive = exclusive_directive(item.string) if isinstance(item, c_ast.Pragma) \
            else None
        if waiting is not None:
            yield item, waiting
            waiting = None
        elif directive is not None:
            waiting = (item, directive)
        else:
            yield item, None
    if waiting is not None:
        yield waiting[0], None


def _clauses(item, pattern, allowed):
    """The clauses of a pragma item matching pattern when all are of the allowed kinds."""
    if not isinstance(item, c_ast.Pragma):
        return None
    m = pattern.match(item.string)
    clauses = omp_clauses(m.group(1)) if m is not None else None
    if clauses is None or any(name not in allowed for name, _ in clauses):
        return None
    return clauses


def _fused(region, following, pragma, declared):
    """(the `{ ... }` of the combined construct, how many items after the region's pragma
    it stands for), or None when the region has another shape."""
    first = following[0]
    if isinstance(first, c_ast.Compound):
        body, used = list(first.block_items or []), 1
    elif len(following) == 2:       # `#pragma omp parallel` `#pragma omp for` `for ...`
        body, used = list(following), 2
    else:
        return None
    decls = [d for d in body if isinstance(d, c_ast.Decl)]
    rest = [d for d in body if not isinstance(d, c_ast.Decl)]
    if body[:len(decls)] != decls or len(rest) != 2 or not isinstance(rest[1], c_ast.For):
        return None
    loop = _clauses(rest[0], _FOR, _LOOP_CLAUSES)
    if loop is None:
        return None
    private, firstprivate = [], []
    for d in decls:
        if not isinstance(d.type, c_ast.TypeDecl) or declared(d.name) or \
                d.init is not None and _has_effects(d.init):
            return None     # an array of each thread's own, a shadowing name, a call
        (firstprivate if d.init is not None else private).append(d.name)
    # a variable the loop's clauses list is listed there alone (the region's `shared(r)`
    # beside the loop's `reduction(+: r)` would list it twice in the combined construct)
    in_loop = {n for name, arg in loop if name in _LISTS for n in _names(arg)}
    clauses = [(name, arg) for name, arg in loop if name != "nowait"]
    for name, arg in region:
        if name in _LISTS:
            kept = [n for n in _names(arg) if n not in in_loop]
            if kept:
                clauses.append((name, f"{arg.partition(':')[0]}: {', '.join(kept)}"
                                if name == "reduction" else ", ".join(kept)))
        elif name != "default":
            clauses.append((name, arg))
    clauses += [(name, ", ".join(names)) for name, names in
                (("private", private), ("firstprivate", firstprivate)) if names]
    text = " ".join(["omp parallel for"] + [name if arg is None else f"{name}({arg})"
                                            for name, arg in clauses])
    combined = c_ast.Pragma(text, pragma.coord)
    return c_ast.Compound(decls + [combined, rest[1]], first.coord), used


def _names(arg):
    """The variables a list clause names (a reduction's after its operator)."""
    return [n.strip() for n in arg.partition(":")[2 if ":" in arg else 0].split(",")
            if n.strip()]


def _has_effects(e):
    """True when evaluating e may do more than compute a value (a call, an assignment)."""
    if isinstance(e, (c_ast.FuncCall, c_ast.Assignment)) or \
            isinstance(e, c_ast.UnaryOp) and e.op in ("p++", "p--", "++", "--"):
        return True
    return any(_has_effects(c) for _, c in e.children())
