"""The sources and options the Python API takes: a path, a list of paths or source text
(written to a temporary file, its errors named `<source text>`); include_dirs, defines,
inactive, sizes, ... checked and turned into the driver's Options; differentiate(), which
returns the generated C; and BuildError, what build() raises when compiling fails.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass

from adgen.errors import AdgenError

FORTRAN_SUFFIXES = (".f90", ".f95", ".f03", ".f08", ".f", ".f77", ".for")
OPTION_NAMES = ("include_dirs", "defines", "inactive", "sizes", "vector", "language")
BUILD_OPTION_NAMES = OPTION_NAMES + ("cflags", "ldflags", "derivative_files", "cache_dir",
                                     "setup",
                                     "rebuild")


class BuildError(RuntimeError):
    """Compiling or linking the primal, the derivatives or the glue module failed (the
    message has the command and the compiler's output), or the head uses a parameter type
    the Python API cannot pass."""


# ------------------------------------------------------------------------ options, sources

@dataclass
class _Source:
    kind: str               # 'path' | 'text'
    value: str              # absolute path, or the source text
    suffix: str = ".c"

    @property
    def is_fortran(self):
        name = self.value if self.kind == "path" else "x" + self.suffix
        return name.lower().endswith(FORTRAN_SUFFIXES)


def source_list(sources, language="c"):
    """A path, a list of paths, or source text (a string with a newline)."""
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    try:
        items = list(sources)
    except TypeError:
        raise TypeError(f"sources: expected a path, a list of paths or source text, "
                        f"got {type(sources).__name__}") from None
    if not items:
        raise ValueError("sources: no source given")
    out = []
    for s in items:
        if isinstance(s, str) and "\n" in s:
            if language not in ("c", "fortran"):
                raise ValueError(f"language: expected 'c' or 'fortran', got {language!r}")
            out.append(_Source("text", s, ".c" if language == "c" else ".f90"))
        elif isinstance(s, (str, os.PathLike)):
            out.append(_Source("path", os.path.abspath(os.fspath(s))))
        else:
            raise TypeError(f"sources: expected paths or source text, got "
                            f"{type(s).__name__}")
    return out


def str_list(name, value):
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name}: expected a list of strings, got {type(value).__name__}") \
            from None
    for v in items:
        if not isinstance(v, (str, os.PathLike)):
            raise TypeError(f"{name}: expected strings, got {type(v).__name__}")
    return [os.fspath(v) for v in items]


def checked_options(options, allowed):
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"unknown option{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(map(repr, unknown))} (options: {', '.join(allowed)})")
    o = dict(options)
    o["include_dirs"] = [os.path.abspath(d) for d in str_list("include_dirs",
                                                                o.get("include_dirs"))]
    defines = o.get("defines") or []
    if isinstance(defines, dict):
        defines = [k if v is None else f"{k}={v}" for k, v in defines.items()]
    o["defines"] = str_list("defines", defines)
    o["inactive"] = str_list("inactive", o.get("inactive"))
    sizes = o.get("sizes") or {}
    if not isinstance(sizes, dict):
        raise TypeError(f"sizes: expected a dict NAME -> C expression, got "
                        f"{type(sizes).__name__}")
    o["sizes"] = {str(k): str(v) for k, v in sizes.items()}
    o["language"] = o.get("language", "c")
    return o


def head_list(head):
    if head is None:
        return []
    if isinstance(head, str):
        return [head]
    heads = list(head)
    if not all(isinstance(h, str) for h in heads):
        raise TypeError("head: expected a string like 'f(y)/(x)' or a list of them")
    return heads


def driver_options(o, mode, vector, heads, extra_includes=()):
    from adgen.driver import Options
    return Options(mode=mode, vector=vector, heads=heads,
                   include_dirs=list(o["include_dirs"]) + list(extra_includes),
                   defines=list(o["defines"]), inactive=list(o["inactive"]),
                   sizes=dict(o["sizes"]))


def materialize(sources, directory):
    """Paths of the sources, text sources written into `directory`."""
    paths = []
    for i, s in enumerate(sources):
        if s.kind == "path":
            paths.append(s.value)
        else:
            p = os.path.join(directory, f"source{i}{s.suffix}" if i else f"source{s.suffix}")
            with open(p, "w") as fh:
                fh.write(s.value)
            paths.append(p)
    return paths


def _mode(mode):
    m = {"reverse": "reverse", "adjoint": "reverse", "b": "reverse",
         "forward": "forward", "tangent": "forward", "d": "forward"}.get(mode)
    if m is None:
        raise ValueError(f"mode: expected 'reverse' or 'forward', got {mode!r}")
    return m


def differentiate(sources, head=None, mode="reverse", **options) -> str:
    """The C text adgen generates for `sources` (a path, a list of paths, or C source text:
    a string containing a newline). head: 'f(y)/(x)', a list of them, or None for adgen's
    default heads. Options: include_dirs, defines (list or dict), inactive, sizes (dict
    NAME -> C expression), vector (forward mode only), language ('c' or 'fortran', for
    source text). Raises AdgenError when adgen refuses the input."""
    from adgen.driver import differentiate as _differentiate
    o = checked_options(options, OPTION_NAMES)
    mode = _mode(mode)
    vector = bool(o.get("vector", False))
    if vector and mode != "forward":
        raise ValueError("vector=True goes with mode='forward'")
    srcs = source_list(sources, o["language"])
    extra = [os.getcwd()] if any(s.kind == "text" for s in srcs) else []
    with tempfile.TemporaryDirectory(prefix="adgen-") as tmp:
        paths = materialize(srcs, tmp)
        with text_locations(srcs, paths):
            return _differentiate(paths, driver_options(o, mode, vector, head_list(head), extra))


@contextlib.contextmanager
def text_locations(srcs, paths):
    """Errors in source text given as a string name it `<source text>` (or `<source text
    N>`), not the temporary file it was written to."""
    try:
        yield
    except AdgenError as exc:
        names = {p: ("<source text>" if i == 0 else f"<source text {i}>")
                 for i, (s, p) in enumerate(zip(srcs, paths)) if s.kind == "text"}
        if exc.loc is not None and exc.loc.file in names:
            import dataclasses
            exc.loc = dataclasses.replace(exc.loc, file=names[exc.loc.file])
        raise

