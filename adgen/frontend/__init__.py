"""The front ends: C (c_front.py) and Fortran (fortran_front.py and its rooms), each
reading its language into the IR. The C front end is loaded with any of them: it reads the
C text that the later stages hold (the rule table's partials, directives' arguments; see
ir/reader.py)."""
from adgen.frontend import c_front  # noqa: F401
