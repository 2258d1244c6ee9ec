"""adgen: source-to-source automatic differentiation of C and Fortran into plain C."""

__version__ = "0.1.0"
