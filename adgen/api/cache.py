"""The build cache: where built modules are kept (cache_dir), the key of a build (adgen's own
files, the sources and the local headers they include, the options, the compilers), the
check that a directory of the cache is the user's own and writable by nobody else, the
cleaning of what killed builds left in cache_dir/tmp, and an entry's meta.json.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from adgen.version import __version__
from adgen.api.options import BuildError

CACHE_LAYOUT = 1           # bump when the layout of a cache entry changes


# ------------------------------------------------------------------------------ the cache

def cache_dir(path=None) -> Path:
    """Where built modules are kept: `path`, else $ADGEN_CACHE, else
    $XDG_CACHE_HOME/adgen, else ~/.cache/adgen."""
    if path is None:
        path = os.environ.get("ADGEN_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
            "adgen")
    return Path(path).expanduser().resolve()


@lru_cache(maxsize=1)
def _adgen_fingerprint():
    """adgen's version and the hash of its own files: a changed adgen rebuilds."""
    h = hashlib.sha256(__version__.encode())
    root = Path(__file__).resolve().parent.parent      # adgen/, not adgen/api/
    for p in sorted(root.rglob("*")):
        if p.suffix in (".py", ".j2", ".h") and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)


def _included_files(path, text, include_dirs):
    """Local headers a source includes (recursively): those found beside the including
    file or in include_dirs. System headers are not followed."""
    out, seen, todo = [], set(), [(path, text)]
    while todo:
        cur, data = todo.pop()
        for m in _INCLUDE.finditer(data):
            name = m.group(2).decode(errors="replace").strip()
            dirs = ([os.path.dirname(cur)] if m.group(1) == b'"' else []) + list(include_dirs)
            for d in dirs:
                cand = os.path.abspath(os.path.join(d, name))
                if os.path.isfile(cand):
                    if cand not in seen:
                        seen.add(cand)
                        with open(cand, "rb") as fh:
                            content = fh.read()
                        out.append((cand, content))
                        todo.append((cand, content))
                    break
    return out


def cache_key(srcs, head, o):
    h = hashlib.sha256()

    def put(*items):
        for it in items:
            h.update(repr(it).encode() + b"\0")

    put("adgen-build", CACHE_LAYOUT, _adgen_fingerprint(), sys.implementation.cache_tag,
        sys.platform, _cffi_version(), os.environ.get("CC", "gcc"),
        os.environ.get("FC", "gfortran"), head)
    for k in ("include_dirs", "defines", "inactive", "cflags", "ldflags"):
        put(k, o.get(k) or [])
    put("setup", o.get("setup"))
    put("sizes", sorted(o["sizes"].items()), "vector", bool(o.get("vector", True)))
    incs = list(o["include_dirs"])
    for s in srcs:
        if s.kind == "path":
            try:
                with open(s.value, "rb") as fh:
                    data = fh.read()
            except OSError:
                data = b""         # differentiate() reports the missing file
            put("path", s.value, hashlib.sha256(data).hexdigest())
        else:
            data = s.value.encode()
            put("text", s.suffix, hashlib.sha256(data).hexdigest())
            incs = incs + [os.getcwd()]
        for dep, content in _included_files(s.value if s.kind == "path" else
                                            os.path.join(os.getcwd(), "source.c"), data, incs):
            put("include", dep, hashlib.sha256(content).hexdigest())
    for mode, path in sorted((o.get("derivative_files") or {}).items()):
        with open(path, "rb") as fh:
            put("derivative", mode, hashlib.sha256(fh.read()).hexdigest())
    return h.hexdigest()[:32]


def _cffi_version():
    try:
        import cffi
        return cffi.__version__
    except ImportError:     # pragma: no cover
        return None


def private_dir(path, create=False):
    """A directory of the cache must be the user's own and writable by nobody else:
    another local user could otherwise put a module there under the key a build looks for,
    and loading it would run its code as this user. Made (mode 0700) with create."""
    if create:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise BuildError(f"cannot make the cache directory {path}: {exc.strerror}") \
                from None
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise BuildError(f"the cache directory {path}: {exc.strerror}") from None
    import stat
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise BuildError(f"the cache directory {path} is not a directory (a link, say): "
                         "refusing to use it; give another with cache_dir= or $ADGEN_CACHE")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise BuildError(f"the cache directory {path} belongs to another user (uid "
                         f"{st.st_uid}): refusing to load modules from it; give a directory "
                         "of your own with cache_dir= or $ADGEN_CACHE")
    if st.st_mode & 0o002:
        raise BuildError(f"the cache directory {path} is writable by other users (mode "
                         f"{stat.S_IMODE(st.st_mode):o}): refusing to load modules from it; "
                         f"chmod o-w {path}, or give another with cache_dir= or $ADGEN_CACHE")


# what adgen itself puts in cache_dir/tmp: builds under way (KEY.RANDOM) and entries moved
# aside (KEY.old.RANDOM)
_OWN_TMP = re.compile(r"^[0-9a-f]{32}\.(old\.)?[A-Za-z0-9_]{6,}$")


def move_aside(final, tmp, key):
    if not final.exists():
        return
    aside = Path(tempfile.mkdtemp(prefix=f"{key}.old.", dir=tmp))
    try:
        os.replace(final, aside / "entry")
    except OSError:
        pass            # gone already, or another process moved it
    shutil.rmtree(aside, ignore_errors=True)


def clean_tmp(tmp, age=86400):
    """Remove what builds killed long ago left in cache_dir/tmp: only adgen's own entries
    (named as it names them), whatever else the directory holds."""
    now = time.time()
    try:
        entries = list(tmp.iterdir())
    except OSError:
        return
    for e in entries:
        if not _OWN_TMP.match(e.name):
            continue
        try:
            if now - e.lstat().st_mtime > age and e.is_dir() and not e.is_symlink():
                shutil.rmtree(e, ignore_errors=True)
        except OSError:
            pass


def read_meta(path):
    try:
        with open(path / "meta.json") as fh:
            meta = json.load(fh)
    except (OSError, ValueError):
        return None
    if meta.get("layout") != CACHE_LAYOUT or not (path / meta.get("so", "?")).exists():
        return None
    return meta
