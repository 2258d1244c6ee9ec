"""The Python API: differentiate C (and, once its front end exists, Fortran) from Python,
and build the primal with its derivatives into a module you call with numpy arrays.

    adgen.differentiate(sources, head=..., mode="reverse") -> str    the generated C
    adgen.build(sources, head=...) -> Built       .primal .gradient .vjp .jvp .jacobian

`build` differentiates in reverse, tangent and (when adgen accepts the program) vector
tangent mode, compiles the primal sources as they are, the generated files and a cffi
glue module (cffi's out-of-line API mode, compiled and linked by gcc), and caches the
result by content under $ADGEN_CACHE (default ~/.cache/adgen). See docs/python-api.md.

The package's modules, lowest first:
    options     the sources and options the API takes, differentiate(), BuildError
    cache       the build cache: where, the key of a build, private directories, meta.json
    analysis    the head's interface from adgen's front end; meta.json's integer expressions
    arguments   numpy arrays, numbers and dicts to C: structs, descriptors, handles
    calls       Built: primal, gradient, vjp, jvp, jacobian
    compiling   build(): differentiate, check the prototypes, compile with cffi and gcc
"""
from adgen.errors import AdgenError
from adgen.api.options import BuildError, differentiate
from adgen.api.cache import cache_dir
from adgen.api.calls import Built
from adgen.api.compiling import build

__all__ = ["differentiate", "build", "Built", "BuildError", "AdgenError", "cache_dir"]
