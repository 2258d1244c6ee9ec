"""The directives of C input, `#pragma adgen NAME ...`: which there are and the shape of
the text after each name. A pragma of adgen's that names no directive, or whose text does
not have its directive's shape, is an error at its line: a misspelt directive must not
leave the code differentiated as if it were absent (a fixed-point loop reversed iteration
by iteration, a time loop stored whole). The stages that act on a directive read its
arguments with their own, more precise messages; this table only keeps anything from
being ignored in silence. (Fortran's `!$AD` comments are read by the Fortran front end,
which turns them into these pragmas.)"""
import re

from adgen.errors import AdgenError

# a C floating-point literal without its sign (1e-6, 0.5, 2.); Fortran's also takes d or D
# for its exponent (1.d-6)
_DIGITS = r"(?:\d+\.?\d*|\.\d+)"
NUMBER = _DIGITS + r"(?:[eE][+-]?\d+)?"
FORTRAN_NUMBER = _DIGITS + r"(?:[eEdD][+-]?\d+)?"

# name -> (what may follow the name, the usage shown when it does not)
FORMS = {
    "rule": (r"\s.*", "#pragma adgen rule NAME(outputs)/(inputs) PARAM=LENGTH..."),
    "size": (r"\s*\(\s*[A-Za-z_]\w*\s*,.*\)\s*", "#pragma adgen size(PARAMETER, LENGTH)"),
    "stack_size": (r"\s*\(.*\)\s*", "#pragma adgen stack_size(BYTES)"),
    "binomial_ckp": (r"\s*\(.*\)\s*", "#pragma adgen binomial_ckp(nsteps, nsnaps, first)"),
    "fp_loop": (rf"(\s+adj_reduction\s*=\s*{NUMBER})?\s*",
                "#pragma adgen fp_loop [adj_reduction=FACTOR]"),
    "independent": (r"\s*", "#pragma adgen independent"),
    "checkpoint": (r"\s*", "#pragma adgen checkpoint"),
    "nocheckpoint": (r"\s*", "#pragma adgen nocheckpoint"),
}

_ADGEN = re.compile(r"\s*adgen\b\s*([A-Za-z_]\w*)?(.*)$", re.S)


def check_directive(pragma):
    """Raise an error at pragma's line when it is adgen's and names no directive, or does
    not have the shape of the one it names; other pragmas (gcc's, OpenMP's) pass."""
    m = _ADGEN.match(pragma.text)
    if not m:
        return
    name, rest = m.group(1), m.group(2)
    if name not in FORMS:
        known = ", ".join(sorted(FORMS))
        what = f"unknown directive '#pragma adgen {name}'" if name else \
            "'#pragma adgen' names no directive"
        raise AdgenError(f"{what} (adgen knows {known}: docs/directives.md)", pragma.loc)
    shape, usage = FORMS[name]
    if not re.fullmatch(shape, rest, re.S):
        raise AdgenError(f"expected '{usage}'", pragma.loc)


def fortran_reduction_factor(text):
    """The factor of `adj_reduction=FACTOR` in the words of a Fortran `!$AD FP-LOOP`, as C
    text (1.d-6 is 1.e-6), or None."""
    m = re.search(rf"\badj_reduction\s*=\s*({FORTRAN_NUMBER})", text, re.I)
    return None if m is None else re.sub("[dD]", "e", m.group(1))


_SIZE = re.compile(r"\s*adgen\s+size\s*\(\s*([A-Za-z_]\w*)\s*,(.*)\)\s*$", re.S)


def stated_size(pragma):
    """(parameter, length text) of `#pragma adgen size(PARAMETER, LENGTH)`, or None."""
    m = _SIZE.match(pragma.text)
    return None if m is None else (m.group(1), m.group(2).strip())

