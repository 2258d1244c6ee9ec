"""The clauses of an OpenMP directive, read from its text (`private(t) reduction(+: s)`):
the Fortran front end renames their variables, the tangent rewrites them."""
import re

from adgen import ir
from adgen.ir import exprs as X


def omp_clauses(text):
    """[(name, argument text or None)] of an OpenMP directive's clauses (`reduction(+: s)`,
    `nowait`), separated by spaces or commas; None when the text is not such a list."""
    out, k = [], 0
    word = re.compile(r"[\s,]*([A-Za-z_]\w*)\s*")
    while k < len(text):
        m = word.match(text, k)
        if m is None:
            return None if text[k:].strip(" \t\n,") else out
        name, k = m.group(1), m.end()
        arg = None
        if k < len(text) and text[k] == "(":
            depth, j = 0, k
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            if depth:
                return None
            arg, k = text[k + 1:j].strip(), j + 1
        out.append((name, arg))
    return out


# `omp atomic` with the clauses that leave it an update of one variable (not `read`,
# `write`, `capture`, `compare`), and `omp critical` with its optional name
_ATOMIC = re.compile(r"\s*omp\s+atomic\b(.*)$", re.S)
_UPDATE_CLAUSES = ("update", "seq_cst", "relaxed", "release", "acquire", "acq_rel", "hint")
_CRITICAL = re.compile(r"\s*omp\s+critical\s*(\(\s*[A-Za-z_]\w*\s*\))?(.*)$", re.S)
# the operators of an update `x = x op e` (`e op x` too where op commutes)
_UPDATE_OPS = ("+", "-", "*", "/", "&", "|", "^", "<<", ">>")
_COMMUTING = ("+", "*", "&", "|", "^")


def exclusive_directive(text):
    """The directive (`omp atomic update`, `omp critical(name)`) of a pragma's text when
    it is an `omp atomic` of updates or an `omp critical`, else None."""
    m = _ATOMIC.match(text)
    if m is not None:
        clauses = omp_clauses(m.group(1))
        if clauses is None or any(name not in _UPDATE_CLAUSES for name, _ in clauses):
            return None
        return " ".join(text.split())
    m = _CRITICAL.match(text)
    if m is not None:
        clauses = omp_clauses(m.group(2))
        if clauses is None or any(name != "hint" for name, _ in clauses):
            return None
        return " ".join(text.split())
    return None


def mark_exclusive(directive, stmts):
    """Mark the statements an `omp atomic` or `omp critical` directive applies to with it
    (ir.Assign.exclusive), when each is an update `x = x op e` whose e does not read x,
    the one statement of an atomic or the statements of a critical section: each update
    then stays exclusive in the derivative code, which splits a section into its updates
    (they commute: each adds into its own variable, as the threads' sections do). True
    when marked; False, nothing marked, for any other shape."""
    body = [s for s in ir.stmts_walk(stmts) if not isinstance(s, (ir.Block, ir.Comment))]
    if not body or directive.split()[1] == "atomic" and len(body) != 1:
        return False
    for s in body:
        if not isinstance(s, ir.Assign) or not ir.is_lvalue(s.lhs):
            return False
        rhs, root = s.rhs, ir.root_symbol(s.lhs)
        if not isinstance(rhs, ir.Binary) or rhs.op not in _UPDATE_OPS or root is None:
            return False
        if X.same_text(rhs.left, s.lhs):
            other = rhs.right
        elif rhs.op in _COMMUTING and X.same_text(rhs.right, s.lhs):
            other = rhs.left
        else:
            return False
        if X.mentions(other, root) or any(isinstance(c, ir.Call) for c in ir.walk(s.lhs)):
            return False
    for s in body:
        s.exclusive = directive
    return True
