"""adgen: source-to-source automatic differentiation of C and Fortran into plain C.

Python API (docs/python-api.md):
    adgen.differentiate(sources, head="f(y)/(x)", mode="reverse") -> generated C text
    adgen.build(sources, head="f(y)/(x)") -> Built (.primal .gradient .vjp .jvp .jacobian)
"""

from adgen.version import __version__

_API = ("differentiate", "build", "Built", "BuildError", "cache_dir")


def __getattr__(name):
    # The API is loaded on first use, so that the command line does not import it.
    if name in _API:
        from adgen import api
        return getattr(api, name)
    if name == "AdgenError":
        from adgen.errors import AdgenError
        return AdgenError
    raise AttributeError(f"module 'adgen' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_API) + ["AdgenError"])


__all__ = list(_API) + ["AdgenError", "__version__"]
