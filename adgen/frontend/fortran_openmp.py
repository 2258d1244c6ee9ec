"""OpenMP directives in the Fortran front end's Scope (OpenMPMixin): `!$omp parallel do`
before its DO loop (a C `#pragma omp parallel for`, the tangent and the adjoint keep it
parallel), an `!$omp parallel` region of one `!$omp do` loop read as that combined
directive, `!$omp atomic` and `!$omp critical` sums kept exclusive (ir/openmp.py), and
any other directive left out with a warning, kept in the statements where a parallel loop
reaching it sees it (transform/openmp.openmp_reached)."""
import re

from adgen import ir
from adgen.ir.openmp import exclusive_directive, mark_exclusive, omp_clauses

_OPENMP = re.compile(r"[!c*]\$omp\s+(?!end\b)(.*)$", re.IGNORECASE)
_END_CRITICAL = re.compile(r"[!c*]\$omp\s+end\s*critical\b", re.IGNORECASE)
_END_PARALLEL = re.compile(r"[!c*]\$omp\s+end\s*parallel\s*$", re.IGNORECASE)
_PARALLEL_DO = re.compile(r"parallel\s+do\b(.*)$", re.IGNORECASE)
_PARALLEL = re.compile(r"parallel\b(?!\s*(do|sections|workshare)\b)(.*)$", re.IGNORECASE)
_DO = re.compile(r"do\b(.*)$", re.IGNORECASE)
# the clauses a region and its loop may carry, as the combined directive takes them
_REGION_CLAUSES = ("private", "firstprivate", "shared", "default", "num_threads",
                   "reduction")
_LOOP_CLAUSES = ("private", "firstprivate", "lastprivate", "reduction", "schedule",
                 "collapse")


class Region:
    """An `!$omp parallel` region waiting for its one `!$omp do` loop: its directive (a
    Pragma, left out if the region has another shape), its clauses' text, the count of
    statements lowered when it opened (OpenMPMixin.openmp_counted), whether its `!$omp do`
    came, its DO construct, and the count once that loop was lowered."""

    def __init__(self, pragma, clauses, opened):
        self.pragma, self.clauses, self.opened = pragma, clauses, opened
        self.fused = False
        self.loop = self.loop_pragma = self.after = None


class OpenMPMixin:
    def openmp_directive(self, comment, text, out):
        """Read an `!$omp` directive comment (text), out the statement list it stands in
        when known."""
        omp = _OPENMP.match(text)
        region = self.omp_region
        if _END_CRITICAL.match(text) and self.omp_critical:
            pragma, directive, stmts, start = self.omp_critical.pop()
            if stmts is None or not mark_exclusive(directive, stmts[start:]):
                self.openmp_left_out(pragma, stmts if stmts is not None else out, start)
        elif _END_PARALLEL.match(text) and region is not None:
            self.omp_region = None
            self.region_ended(region, out)
        elif omp and _PARALLEL_DO.match(omp.group(1)):
            # for the DO loop it stands before (do_construct); the tangent keeps it
            self.omp_parallel_do = (self.loc(comment), text,
                                    _PARALLEL_DO.match(omp.group(1)).group(1))
        elif omp and _PARALLEL.match(omp.group(1)) and region is None:
            self.omp_region = Region(self.omp_left(omp, comment, text),
                                     _PARALLEL.match(omp.group(1)).group(2), self.omp_lowered)
        elif omp and _DO.match(omp.group(1)) and region is not None and \
                not region.fused and region.opened == self.omp_lowered:
            clauses = region.clauses + " " + _DO.match(omp.group(1)).group(1)
            if _only(region.clauses, _REGION_CLAUSES) and \
                    _only(_DO.match(omp.group(1)).group(1), _LOOP_CLAUSES):
                region.fused = True
                combined = " ".join(["!$omp parallel do"] + clauses.split())
                self.omp_parallel_do = (region.pragma.loc, combined, clauses)
            else:
                self.openmp_left_out(self.omp_left(omp, comment, text), out,
                                     None if out is None else len(out))
        elif omp:
            pragma = self.omp_left(omp, comment, text)
            directive = exclusive_directive(pragma.text)
            if directive is not None and pragma.text.split()[1] == "atomic":
                self.omp_atomic = (pragma, directive)
            elif directive is not None:
                self.omp_critical.append([pragma, directive, out,
                                          None if out is None else len(out)])
            else:
                self.openmp_left_out(pragma, out, None if out is None else len(out))

    def omp_left(self, omp, comment, text):
        """The Pragma of a directive (its C text), quoting the source's."""
        pragma = ir.Pragma(" ".join(["omp"] + omp.group(1).lower().split()),
                           self.loc(comment))
        pragma.written = text
        return pragma

    def openmp_counted(self, node):
        """One more statement lowered (comments are not statements); the count once a
        region's loop is."""
        if type(node).__name__ == "Comment":
            return
        self.omp_lowered += 1
        if self.omp_region is not None and self.omp_region.loop is node:
            self.omp_region.after = self.omp_lowered

    def region_ended(self, region, out):
        """At `!$omp end parallel`: a region whose one statement is its `!$omp do` loop
        has run as the combined directive; a region of another shape (statements before
        or after its loop, no loop) is left out, and so is its loop's directive: such a
        region runs serially."""
        if region.fused and region.after == self.omp_lowered:
            return
        pragma = region.loop_pragma
        if pragma is None:
            self.openmp_left_out(region.pragma, out, None if out is None else len(out))
            return
        # (the loop's directive, already before it, becomes the region's, left out)
        pragma.text, pragma.loc = region.pragma.text, region.pragma.loc
        pragma.written = region.pragma.written
        self.front.warn(pragma.loc, f"'{pragma.written}' is not supported yet (a region of "
                        "other statements than one `!$omp do` loop): the derivative code "
                        "runs this part serially", self.func)
        pragma.said = True

    def openmp_left_out(self, pragma, stmts, at):
        """An `!$omp` directive the derivative code leaves out: said at its line (never
        dropped without a word), and kept in the statements at `at` (or before the next
        statement, when not known yet) so that a parallel loop reaching it runs serially
        (transform/openmp.openmp_reached)."""
        self.front.warn(pragma.loc, f"'{pragma.written}' is not supported yet: the "
                        "derivative code runs this part serially", self.func)
        pragma.said = True
        if stmts is None:
            self.omp_left_out.append(pragma)
        else:
            stmts.insert(at, pragma)

    def openmp_placed(self, out):
        """The `!$omp` directives read before the statement list out was known, placed
        in it (before the statement about to be lowered)."""
        out += self.omp_left_out
        self.omp_left_out = []
        for section in self.omp_critical:
            if section[2] is None:
                section[2:] = [out, len(out)]


    def omp_pragma(self, parallel):
        """The C pragma of `!$omp parallel do CLAUSES` (parallel: its location, text and
        clauses), the variables' names those of the C code; None, with a warning, where
        the clauses say what C cannot (a private copy of a dummy argument, which C holds
        as a pointer; a clause with an expression)."""
        loc, text, clause_text = parallel
        lists = ("private", "firstprivate", "lastprivate", "shared", "reduction")
        out, why = [], None
        clauses = omp_clauses(clause_text)     # ([] for none; None: not a list of clauses)
        for name, arg in clauses if clauses is not None else [("", None)]:
            name = name.lower()
            if name in lists and arg is not None:
                op, sep, names = arg.rpartition(":") if name == "reduction" else ("", "", arg)
                c_names = []
                for n in (x.strip().lower() for x in names.split(",") if x.strip()):
                    v = self.vars.get(n)
                    if v is None or v.sym is None or v.common is not None or \
                            v.alias_of is not None:
                        why = f"'{n}' in {name}() is not a variable of the procedure"
                    elif v.by_ref and name != "shared":
                        why = f"{name}({n}): a dummy argument, which the C code reaches " \
                            "through a pointer"
                    else:
                        c_names.append(v.sym.name)
                out.append(f"{name}({op.strip() + ': ' if sep else ''}{', '.join(c_names)})")
            elif name in ("schedule", "collapse", "default") and arg is not None:
                out.append(f"{name}({arg.lower()})")
            elif name == "num_threads" and arg is not None and arg.strip().isdigit():
                out.append(f"num_threads({arg.strip()})")
            else:
                why = f"the clause '{name or clause_text.strip()}' is not supported yet"
        if why is not None:
            self.front.warn(loc, f"'{text}' is not supported: the derivative code runs this "
                                 f"loop serially ({why})", self.func)
            return None
        pragma = ir.Pragma(" ".join(["omp parallel for"] + out), loc)
        pragma.written = text       # (what warnings about it quote)
        return pragma


def _only(text, allowed):
    """True when the clauses in text are all of the allowed kinds."""
    clauses = omp_clauses(text)
    return clauses is not None and all(name.lower() in allowed for name, _ in clauses)
