"""The clauses of an OpenMP directive, read from its text (`private(t) reduction(+: s)`):
the Fortran front end renames their variables, the tangent rewrites them."""
import re


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
