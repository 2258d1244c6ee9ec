"""The build: differentiate the head in reverse, tangent and (when adgen accepts it) vector
tangent mode, find the generated routines' prototypes and check them against
docs/conventions.md, write the cffi glue module, compile the primal, the generated files
and the glue with gcc (gfortran for Fortran sources) and link them into a cache entry, and
load it; build(), which returns the Built.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

try:                        # differentiate() works without numpy; build() needs it
    import numpy as np
except ImportError:         # pragma: no cover
    np = None

from adgen.version import __version__
from adgen.errors import AdgenError
from adgen.api.options import (BUILD_OPTION_NAMES, BuildError, checked_options, differentiate,
                               driver_options, head_list, materialize, source_list, str_list,
                               text_locations)
from adgen.api.cache import (CACHE_LAYOUT, cache_dir, cache_key, clean_tmp, move_aside,
                             private_dir, read_meta)
from adgen.api.analysis import FLOAT_NAMES, Analysis
from adgen.api.calls import Built

# ------------------------------------------------------------------- generated prototypes

def _heads_line(text):
    m = re.search(r"^\s*\*\s*Heads:\s*(.*)$", text, re.M)
    return m.group(1) if m else ""


def _resolved_head(texts, name):
    """dependents, independents of head `name` from the `Heads:` line of generated files."""
    from adgen.frontend.heads import parse_head
    for text in texts:
        for spec in re.findall(r"[A-Za-z_]\w*\([^()]*\)/\([^()]*\)", _heads_line(text)):
            n, dep, indep = parse_head(spec)
            if n == name:
                return dep or [], indep or []
    return None


def _find_proto(text, candidates):
    """(symbol, return type text, [parameter texts]) of the first candidate defined in
    the generated text."""
    for sym in candidates:
        # (a parameter list may hold one level of parentheses: `double (*A)[m]`)
        m = re.search(rf"^([^\n;{{}}#]*?)\b{re.escape(sym)}\s*\(((?:[^()]|\([^()]*\))*)\)\s*\{{",
                      text, re.M)
        if m:
            params = [p.strip() for p in m.group(2).split(",")]
            if params == ["void"]:
                params = []
            return sym, m.group(1).strip(), params, m.group(0)[:-1].strip() + ";"
    return None


def _is_pointer_text(decl, pointer_typedefs=()):
    """True when the parameter declaration decl declares a pointer (or an array, or a
    name whose typedef is a pointer)."""
    words = re.findall(r"[A-Za-z_]\w*", decl)
    return "*" in decl or "[" in decl or any(w in pointer_typedefs for w in words[:-1])


# ------------------------------------------------------------------------- the build

def _run_jobs(jobs):
    """Run compile commands in parallel; BuildError with the first failure's output."""
    procs = []
    for cmd, what in jobs:
        try:
            procs.append((subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True, errors="replace"), cmd, what))
        except OSError as exc:
            for p, _, _ in procs:
                p.kill()
            raise BuildError(f"{what}: cannot run {cmd[0]} ({exc})") from None
    failures = []
    for p, cmd, what in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            text = (err + out).strip()
            if len(text) > 6000:
                text = text[:6000] + "\n..."
            failures.append(f"{what} failed (exit {p.returncode}):\n  $ "
                            f"{' '.join(cmd)}\n{text}")
    if failures:
        raise BuildError("\n".join(failures))


# gfortran keeps every procedure as written, none folded into its callers nor specialized
# for their arguments: a head that is an internal procedure of the main program or a
# PRIVATE module procedure (a local symbol) is then there to be called (expose_procedure)
KEEP_PROCEDURES = ["-fno-inline", "-fno-ipa-cp", "-fno-ipa-sra", "-fkeep-static-functions"]


def expose_procedure(objs, symbol):
    """Make the procedure `symbol` callable from the glue when gfortran's objects define
    it only as a local symbol: a PRIVATE module procedure (`__m_MOD_f`, local), an internal
    procedure of the main program (`f.0` for `f_`). Renamed and made global with objcopy;
    nothing is done where it is defined globally, or where binutils are missing."""
    import re
    found = []
    for obj in objs:
        try:
            out = subprocess.run(["nm", "--defined-only", obj], capture_output=True,
                                 text=True).stdout
        except OSError:
            return
        for line in out.splitlines():
            parts = line.split()
            if len(parts) != 3:
                continue
            kind, name = parts[1], parts[2]
            if name == symbol and kind.isupper():
                return          # defined globally
            internal = symbol.endswith("_") and "_MOD_" not in symbol and \
                re.fullmatch(re.escape(symbol[:-1]) + r"\.\d+", name)
            if kind == "t" and (name == symbol or internal):
                found.append((obj, name))
    if len(found) == 1:
        obj, name = found[0]
        try:
            subprocess.run(["objcopy", f"--redefine-sym={name}={symbol}",
                            f"--globalize-symbol={symbol}", obj], capture_output=True)
        except OSError:
            pass


def _flags(o):
    return [f"-I{d}" for d in o["include_dirs"]] + [f"-D{d}" for d in o["defines"]]


def _build_into(work, srcs, head, o):
    """Differentiate, compile and link into directory `work`; returns the meta dict."""
    from adgen.frontend.heads import parse_head
    # $CC and $FC are command lines: `gcc -m64`, `ccache gcc`
    cc = shlex.split(os.environ.get("CC") or "gcc")
    fc = shlex.split(os.environ.get("FC") or "gfortran")
    func, dep, indep = parse_head(head)
    paths = materialize(srcs, work)
    with text_locations(srcs, paths):
        return _build_steps(work, srcs, paths, head, func, dep, indep, o, cc, fc)


def _build_steps(work, srcs, paths, head, func, dep, indep, o, cc, fc):
    import cffi
    from adgen.driver import generated
    extra_inc = [os.getcwd()] if any(s.kind == "text" for s in srcs) else []
    o = dict(o, include_dirs=list(o["include_dirs"]) + extra_inc)
    given = o.get("derivative_files") or {}
    texts, vector_error, single = {}, None, []
    for mode in ("reverse", "forward", "vector"):
        if mode in given:
            with open(given[mode]) as fh:
                texts[mode] = fh.read()
            continue
        if mode == "vector" and not o.get("vector", True):
            vector_error = "vector mode not requested (vector=False)"
            continue
        dmode = "reverse" if mode == "reverse" else "forward"
        try:
            result = generated(paths, driver_options(o, dmode, mode == "vector", [head]))
            texts[mode] = result.text
            single.append(result.single_precision)
        except AdgenError as exc:
            if mode != "vector":
                raise
            vector_error = str(exc)
        except Exception as exc:        # an internal error of vector mode: keep the rest
            if mode != "vector":
                raise
            vector_error = f"internal error in adgen ({type(exc).__name__}: {exc})"
    an = Analysis(paths, driver_options(o, "reverse", False, [head]), func, o.get("setup"))
    if dep is None or indep is None:
        got = _resolved_head([texts[m] for m in ("reverse", "forward", "vector") if m in texts],
                             func)
        if got is None:
            raise BuildError(f"cannot tell the dependents and independents of head '{head}': "
                             "give them, as in 'f(y)/(x)'")
        dep = dep if dep is not None else got[0]
        indep = indep if indep is not None else got[1]
    params = an.params
    names = [p["name"] for p in params]
    for p in params:
        i, d = p["name"] in indep, p["name"] in dep
        p["role"] = "inout" if i and d else "in" if i else "out" if d else None
        if p["role"] and not (p["kind"] in ("real", "array") and p["elem"] in FLOAT_NAMES or
                              p["kind"] in ("struct", "struct_ptr")):
            raise BuildError(f"'{p['name']}' is a {'dependent' if d else 'independent'} of "
                             f"{func} but not a floating-point scalar or array or a struct: "
                             "the Python API supports float/double scalars and arrays, and "
                             "structs of them, as independents and dependents")
    for n in dep + indep:
        if n not in names and n != func:
            raise BuildError(f"head '{head}' names '{n}', which is not a parameter of {func} "
                             "(the Python API and adgen check take parameters and the result "
                             "as independents and dependents, not global variables)")
    ret_active = func in dep
    if ret_active and an.ret["kind"] != "real":
        raise BuildError(f"head '{head}': {func} does not return a floating-point value")

    # The derivative routines' prototypes: found in the generated text, checked against
    # the convention (docs/conventions.md) so that a mismatch cannot crash the process.
    rcdef = an.ret["cdef"]
    expect = {"reverse": [], "forward": [], "vector": []}
    for p in params:
        if p["kind"] == "length":
            continue            # last of all (below)
        for mode in expect:
            expect[mode].append((p["name"], p["cdef"],
                                 p["kind"] in ("array", "struct_ptr", "string")))
        if p["role"]:
            e = p["elem"]
            if p["kind"] in ("array", "struct_ptr"):
                # (rows of an array: `void *` as the array's own, see _param; row pointers:
                # the tangent's as qualified as the primal's, the adjoint's written)
                for mode in expect:
                    expect[mode].append((p["name"] + "'", "void *" if "row" in p else
                                         (f"{e} **" if mode == "reverse" else p["cdef"])
                                         if p.get("rows") else f"{e} *", True))
            else:
                expect["reverse"].append((p["name"] + "'", f"{e} *", True))
                expect["forward"].append((p["name"] + "'", e, False))
                expect["vector"].append((p["name"] + "'", f"{e} *", True))
    fortran = an.fortran
    if ret_active:      # the seed of the result: by value in C, by reference for Fortran
        expect["reverse"].append((func + "'", f"{rcdef} *" if fortran else rcdef, fortran))
        expect["forward"].append((func, f"{rcdef} *", True))
        expect["vector"].append((func + "'", f"{rcdef} *", True))
    # the number of directions: by value in C, by reference for Fortran
    expect["vector"].append(("nbdirs", "int *" if fortran else "int", fortran))
    for p in params:
        if p["kind"] == "length":
            for mode in expect:
                expect[mode].append((p["name"], p["cdef"], False))
    rets = {"reverse": "void", "forward": rcdef, "vector": rcdef, "second": "void"}
    suffix = {"reverse": "_b", "forward": "_d", "vector": "_dv", "second": "_b_d"}
    second_error = _second_order(texts, expect, work, paths, func, dep, indep, params, o,
                                 fortran)
    symbols, protos = {}, []
    for mode, text in texts.items():
        base = func + suffix[mode]
        # (the tangent of a Fortran head's adjoint energy_b_ is energy_b__d)
        found = _find_proto(text, [base, base + "_", func + "_b__d"])
        if found is None:
            raise BuildError(f"the {mode}-mode file does not define {base}")
        sym, _ret, plist, proto = found
        want = expect[mode]
        if len(plist) != len(want) or any(_is_pointer_text(d, an.pointer_typedefs) != w[2]
                                           for d, w in zip(plist, want)):
            if mode == "second":        # the rest of the build does not depend on it
                second_error = f"{sym} does not have the prototype expected: {proto}"
                continue
            raise BuildError(f"{sym} has the prototype\n  {proto}\nwhich does not follow "
                             f"docs/conventions.md for head {head} (expected parameters: "
                             f"{', '.join(n for n, _, _ in want)})")
        symbols[mode] = sym
        protos.append(proto)
    if second_error is not None:
        texts.pop("second", None)
    files = {}
    for mode, text in texts.items():
        fname = f"{func}{suffix[mode]}.c"
        with open(os.path.join(work, fname), "w") as fh:
            fh.write(text)
        files[mode] = fname

    # cffi declarations (types simplified: const dropped, typedefs of numbers resolved)
    def decl_list(items):
        return ", ".join(f"{t} a{i}" for i, (_, t, _) in enumerate(items)) or "void"
    cdef = list(an.struct_decls)
    cdef.append(f"{rcdef} {an.symbol}({decl_list([(p['name'], p['cdef'], 0) for p in params])});")
    for mode in texts:
        ret = rets[mode]
        cdef.append(f"{ret} {symbols[mode]}({decl_list(expect[mode])});")
    setup = [f"void {an.setup_symbol}(void);"] if an.setup_symbol else []
    cdef += setup
    headers = ["math.h", "stdlib.h", "string.h", "stddef.h"]
    headers += [h for h in an.std_headers if h not in headers]
    if an.static_file:
        # a static head: its file is part of the glue (its types and the primal with it)
        primal = [f'#include "{os.path.abspath(an.static_file)}"']
    else:
        primal = an.type_text + ["/* the primal, as adgen's front end reads it */",
                                 an.primal_proto]
    glue_src = "\n".join([f"#include <{h}>" for h in headers] + primal + setup +
                         ["/* the derivative routines, as generated */"] + protos) + "\n"
    # a new name for every build: a process may load an old and a new build of one key
    modname = "_adgen_" + os.path.basename(work).split(".")[0][:32] + "_" + os.urandom(4).hex()
    ffi = cffi.FFI()
    try:
        ffi.cdef("\n".join(cdef))
    except Exception as exc:
        raise BuildError(f"internal error: cffi refuses the declarations ({exc}):\n" +
                         "\n".join(cdef)) from None
    ffi.set_source(modname, glue_src)
    glue = os.path.join(work, "glue.c")
    with contextlib.redirect_stdout(io.StringIO()):     # cffi says "generating ..."
        ffi.emit_c_code(glue)
    with open(os.path.join(work, "cdef.h"), "w") as fh:
        fh.write("\n".join(cdef) + "\n")

    # compile: primal sources as they are, the generated files, then the glue and link
    cflags, ldflags = list(o.get("cflags") or []), list(o.get("ldflags") or [])
    flags = _flags(o)
    jobs, objs, fortran_jobs = [], [], []
    for i, (s, path) in enumerate(zip(srcs, paths)):
        if path.lower().endswith((".h",)) or an.static_file and \
                os.path.abspath(path) == os.path.abspath(an.static_file):
            continue            # (a static head's file is compiled in the glue)
        obj = os.path.join(work, f"primal{i}.o")
        if s.is_fortran:
            # in the order given (a module before its users); .mod files in the build dir
            fortran_jobs.append((fc + ["-c", "-fPIC", "-O2", "-cpp", "-J", work, "-I", work] +
                                 KEEP_PROCEDURES + flags + cflags + [path, "-o", obj],
                                 f"compiling {os.path.basename(path)} (gfortran)"))
        else:
            jobs.append((cc + ["-c", "-fPIC", "-O2"] + flags + cflags + [path, "-o", obj],
                         f"compiling {os.path.basename(path)}"))
        objs.append(obj)
    for mode, fname in files.items():
        obj = os.path.join(work, fname[:-2] + ".o")
        jobs.append((cc + ["-c", "-fPIC", "-O2"] + flags + cflags +
                     [os.path.join(work, fname), "-o", obj], f"compiling the generated {fname}"))
        objs.append(obj)
    glue_obj = os.path.join(work, "glue.o")
    # the glue calls the real prototypes: a mismatch with the declarations is an error
    jobs.append((cc + ["-c", "-fPIC", "-O1", "-Werror=incompatible-pointer-types",
                  "-Werror=int-conversion", "-I", sysconfig.get_paths()["include"]] +
                 (flags + cflags if an.static_file else []) +
                 [glue, "-o", glue_obj], "compiling the cffi glue module"))
    for job in fortran_jobs:
        _run_jobs([job])
    if fortran_jobs:
        fortran_objs = [j[0][j[0].index("-o") + 1] for j in fortran_jobs]
        for symbol in (an.symbol, an.setup_symbol):
            if symbol:
                expose_procedure(fortran_objs, symbol)
    _run_jobs(jobs)
    objs.append(glue_obj)
    fortran = bool(fortran_jobs)
    ext = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    so = modname + ext
    link = cc + (["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin"
                 else ["-shared", "-Wl,-Bsymbolic"]) + objs + ["-o", os.path.join(work, so)]
    link += ldflags + (["-lgfortran"] if fortran else []) + ["-lm"]
    _run_jobs([(link, "linking the module")])
    for obj in objs:
        os.unlink(obj)
    return {
        "layout": CACHE_LAYOUT, "adgen": __version__, "module": modname, "so": so,
        "func": func, "head": f"{func}({' '.join(dep)})/({' '.join(indep)})",
        "dependents": dep, "independents": indep, "params": params, "ret": an.ret,
        "ret_active": ret_active, "symbols": dict(symbols, primal=an.symbol),
        "setup": an.setup_symbol,
        "language": an.language, "vector_error": vector_error, "files": files,
        "second_error": second_error,
        # float values on the way from independents to dependents, as the reverse and
        # forward runs found them (the program read alone when both were given)
        "single_inside": any(single) if single else an.single_inside,
        "built": time.time(),
    }


def _param_name(decl):
    """The name a C parameter declaration declares (`double *xb`, `double (*A)[m]`)."""
    decl = re.sub(r"(\[[^\]]*\])+\s*$", "", decl.strip())
    inner = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", decl)
    return inner.group(1) if inner else re.findall(r"[A-Za-z_]\w*", decl)[-1]


def _second_order(texts, expect, work, paths, func, dep, indep, params, o, fortran):
    """The tangent of the adjoint (f_b_d: Hessian-vector products, docs/second-order.md)
    into texts["second"] and its expected parameters into expect["second"]; or, when it
    cannot be had, why (a string)."""
    from adgen.driver import generated
    kinds = {p["name"]: "rows" if p.get("rows") or "row" in p else p["kind"] for p in params}
    if len(dep) != 1 or any(kinds.get(n, "real") not in ("real", "array") for n in dep + indep):
        return ("Hessian-vector products need one dependent and independents that are "
                "floating-point scalars or arrays (not arrays of rows)")
    if "reverse" not in texts:
        return "no adjoint"
    # (a Fortran head's adjoint is C named as gfortran would name it: `energy_b_`)
    found = _find_proto(texts["reverse"], [func + "_b", func + "_b_"])
    if found is None or len(found[2]) != len(expect["reverse"]):
        return "the adjoint's prototype is not the expected one"
    names = [_param_name(d) for d in found[2]]
    adjoint = {w[0][:-1]: n for w, n in zip(expect["reverse"], names) if w[0].endswith("'")}
    # the adjoints independents too: their tangents start as the caller gives them (zero),
    # which needs no length where the adjoint adds into them
    adjoints = " ".join(adjoint[x] for x in indep)
    head2 = f"{found[0]}({adjoints})/({' '.join(indep)} {adjoints})"
    where = os.path.join(work, "second")
    os.makedirs(where, exist_ok=True)
    adjoint_file = os.path.join(where, f"{func}_b.c")
    with open(adjoint_file, "w") as fh:
        fh.write(texts["reverse"])
    try:
        texts["second"] = generated([adjoint_file], driver_options(o, "forward", False,
                                                                  [head2])).text
    except AdgenError as exc:
        return str(exc)
    elems = {p["name"]: p["elem"] for p in params}
    second = []
    for name, cdef, pointer in expect["reverse"]:
        second.append((name, cdef, pointer))
        if name.endswith("'") and name[:-1] in indep:
            second.append((name + "d", f"{elems[name[:-1]]} *", True))
        elif name in indep:
            # (a Fortran scalar, by reference, has its tangent by reference)
            pointer = kinds[name] == "array" or fortran
            second.append((name + "d", f"{elems[name]} *" if pointer else elems[name],
                           pointer))
    expect["second"] = second
    return None


def fortran_case(head, o):
    """The head and options with the names in Fortran's case, which is none (`V` is the
    dummy `v`), as the driver and the built module's parameters spell them."""
    o = dict(o, sizes={k.lower(): v.lower() for k, v in o["sizes"].items()},
             inactive=[n.lower() for n in o["inactive"]])
    if o.get("setup"):
        o["setup"] = o["setup"].lower()
    return head.lower(), o


def build(sources, head=None, **options) -> "Built":
    """Differentiate `sources` for `head` ('f(y)/(x)') in reverse, tangent and vector
    tangent mode, compile them with the primal into a Python module, and return a Built
    whose methods call them with numpy arrays. Cached by content (see cache_dir()).

    Options: include_dirs, defines, inactive, sizes (as for differentiate); vector (default
    True: also build f_dv when adgen accepts it); cflags, ldflags (lists for gcc);
    derivative_files ({'reverse'|'forward'|'vector': path}: use that file instead of
    adgen's output for that mode, e.g. a hand-written or Tapenade adjoint); cache_dir;
    rebuild (ignore a cached build); language (for source text)."""
    if np is None:          # pragma: no cover
        raise ImportError("adgen.build needs numpy")
    try:
        import cffi  # noqa: F401
    except ImportError:     # pragma: no cover
        raise ImportError("adgen.build needs cffi") from None
    o = checked_options(options, BUILD_OPTION_NAMES)
    o["cflags"] = str_list("cflags", o.get("cflags"))
    o["ldflags"] = str_list("ldflags", o.get("ldflags"))
    df = o.get("derivative_files") or {}
    if not isinstance(df, dict) or any(k not in ("reverse", "forward", "vector") for k in df):
        raise ValueError("derivative_files: expected a dict with keys among 'reverse', "
                         "'forward', 'vector'")
    o["derivative_files"] = {k: os.path.abspath(os.fspath(v)) for k, v in df.items()}
    for k, v in o["derivative_files"].items():
        if not os.path.isfile(v):
            raise FileNotFoundError(f"derivative_files[{k!r}]: no such file {v}")
    heads = head_list(head)
    if not heads:
        heads = _default_head(sources, o)
        if len(heads) != 1:
            raise ValueError(f"build: the sources have {len(heads)} default heads "
                             f"({', '.join(heads)}): name one with head='f(y)/(x)'")
    if len(heads) != 1:
        raise ValueError(f"build: give one head, not {len(heads)} ({', '.join(heads)})")
    head = heads[0]
    from adgen.frontend.heads import parse_head
    parse_head(head)                # AdgenError for a malformed head
    srcs = source_list(sources, o["language"])
    if any(s.is_fortran for s in srcs):
        head, o = fortran_case(head, o)
    root = cache_dir(o.get("cache_dir"))
    key = cache_key(srcs, head, o)
    final = root / key
    private_dir(root, create=True)
    meta = None if o.get("rebuild") else read_meta(final)
    if meta is not None:
        private_dir(final)
    cached = meta is not None
    if meta is None:
        tmp = root / "tmp"
        private_dir(tmp, create=True)
        clean_tmp(tmp)
        work = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=tmp))
        try:
            meta = _build_into(str(work), srcs, head, o)
            with open(work / "meta.json", "w") as fh:
                json.dump(meta, fh, indent=1)
            if o.get("rebuild") or final.exists() and read_meta(final) is None:
                # replaced (rebuild=True, or a broken entry): moved aside first, so that a
                # process loading it is not left with half a directory
                move_aside(final, tmp, key)
            try:
                os.rename(work, final)
            except OSError:             # another process finished first: use its build
                if read_meta(final) is None:
                    raise
                shutil.rmtree(work, ignore_errors=True)
                meta = read_meta(final)
                private_dir(final)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    module = _load(final, meta)
    return Built(meta, module, final, cached)


def _default_head(sources, o):
    """The one default head of the sources (adgen's rule), for build(head=None)."""
    text = differentiate(sources, None, "forward", **{k: o[k] for k in
                                                      ("include_dirs", "defines", "inactive",
                                                       "sizes", "language")})
    return re.findall(r"[A-Za-z_]\w*\([^()]*\)/\([^()]*\)", _heads_line(text))


def _load(path, meta):
    import importlib.util
    name = meta["module"]
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, str(path / meta["so"]))
        try:
            mod = importlib.util.module_from_spec(spec)
        except ImportError as exc:
            missing = re.search(r"undefined symbol: (\S+)", str(exc))
            if missing is None:
                raise BuildError(f"the compiled module does not load: {exc}") from None
            raise BuildError(
                f"the program calls '{missing.group(1)}', which none of the sources "
                "defines: add the file that defines it to the sources (adgen check "
                "FILE FILE2 ..., adgen.build([FILE, FILE2, ...]))") from None
        spec.loader.exec_module(mod)
        sys.modules[name] = mod
    return mod
