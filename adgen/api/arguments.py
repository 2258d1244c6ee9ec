"""Arguments between numpy and C: the numpy dtype of a C type, a struct as a dict (its cffi
initializer; its floating-point fields, flattened, are what the derivative methods see),
gfortran's array descriptors (allocatable components) as numpy arrays, handles (structs
holding pointers: their derivative parts, laid out per call), and Args, the converted
arguments of one call.
"""
from __future__ import annotations

import numbers

try:                        # differentiate() works without numpy; build() needs it
    import numpy as np
except ImportError:         # pragma: no cover
    np = None

from adgen.api.analysis import FLOAT_NAMES, INT_DTYPES

# ------------------------------------------------------------------------- calling

def numpy_dtype(elem, ffi):
    """The numpy dtype of a C element type (KeyError, ValueError, TypeError when none)."""
    if elem == "double":
        return np.dtype(np.float64)
    if elem == "float":
        return np.dtype(np.float32)
    if elem == "long double":
        return np.dtype(np.longdouble)
    signed, kind = INT_DTYPES[elem]
    if kind == "b":
        return np.dtype(np.bool_)
    return np.dtype(f"{kind}{ffi.sizeof(elem)}")


def describe(p):
    if p["kind"] == "string":
        return "CHARACTER string (a str)"
    if p["kind"] == "array":
        rows = " 2-D array, passed as row pointers" if p.get("rows") else " array"
        return f"{'const ' if p['const'] else ''}{p['elem']}{rows}"
    if p["kind"] in ("struct", "struct_ptr"):
        return p["cdef"]
    return p["elem"]


# A struct independent or dependent is, to the derivative methods, the vector of its
# floating-point fields (nested structs and arrays of them included) in declaration order;
# results come back as a dict of those fields.

def _holds_floats(t):
    if t.kind == "primitive":
        return t.cname in FLOAT_NAMES
    if t.kind == "array":
        return t.length is not None and _holds_floats(t.item)
    return t.kind == "struct" and any(_holds_floats(f.type) for _, f in t.fields)


def _struct_fields(t):
    return [(name, f.type) for name, f in t.fields if _holds_floats(f.type)]


def type_layout(t):
    """The layout (see handle_layout) of (cffi) type t when it holds no pointers: a
    floating-point value, a fixed-size array or a struct of such (the fields holding
    floating-point values, in order)."""
    if t.kind == "primitive":
        return ("f",)
    if t.kind == "array":
        item = type_layout(t.item)
        return ("arr", (item,) * t.length)
    return ("struct", tuple((name, type_layout(ft)) for name, ft in _struct_fields(t)))


def struct_field_labels(t, prefix=""):
    """`.a`, `.p[1].x[2]`, ...: the floating-point values of (cffi) type t, in the order the
    derivative methods flatten them (a primitive's own label is `prefix`)."""
    return node_labels(type_layout(t), prefix)


def struct_count(t):
    """The number of floating-point values in (cffi) type t."""
    return node_count(type_layout(t))


def struct_initializer(ffi, t, v, keep, share=False):
    """The cffi initializer of (cffi) struct type t from v, a dict of its fields in which a
    pointer field to numbers may be given as a sequence or numpy array: that becomes a C
    array, appended to keep (which must live as long as the struct); a pointer field to a
    struct may be given as a dict (one struct) or a list of dicts, made the same way. With
    share, a numpy array of the field's dtype, C-contiguous and writeable, is passed
    without a copy (what the function writes appears in it). Other values as they are."""
    if not isinstance(v, dict) or t.kind != "struct":
        return v
    fields = dict(t.fields)
    out = dict(v)
    for name, value in v.items():
        f = fields.get(name)
        if f is None:
            continue            # cffi names the unknown field
        ft = f.type
        if ft.kind == "pointer" and value is None:
            out[name] = ffi.NULL
        elif ft.kind == "pointer" and ft.item.kind == "primitive" and \
                not isinstance(value, ffi.CData) and value is not None and \
                not isinstance(value, numbers.Number):
            arr, dt = None, _dtype_or_none(ft.item.cname, ffi)
            if isinstance(value, np.ndarray) and value.dtype == dt:
                if share and value.flags.c_contiguous and value.flags.writeable:
                    arr = ffi.from_buffer(f"{ft.item.cname}[]", value)
                else:                       # a copy
                    arr = ffi.new(f"{ft.item.cname}[]", value.size)
                    ffi.memmove(arr, ffi.from_buffer(np.ascontiguousarray(value)), value.nbytes)
            if arr is None:
                arr = ffi.new(f"{ft.item.cname}[]", np.asarray(value).reshape(-1).tolist())
            keep.append(arr)
            out[name] = arr
        elif ft.kind == "pointer" and ft.item.kind == "struct" and \
                (isinstance(value, dict) or isinstance(value, (list, tuple)) and value and
                 all(isinstance(item, dict) for item in value)):
            if isinstance(value, dict):
                ptr = ffi.new(ft, struct_initializer(ffi, ft.item, value, keep, share))
            else:
                ptr = ffi.new(ffi.getctype(ft.item, "[]"),
                              [struct_initializer(ffi, ft.item, item, keep, share)
                               for item in value])
            keep.append(ptr)
            out[name] = ptr
        elif is_descriptor(ft) and (not isinstance(value, dict) or "values" in value):
            out[name] = _descriptor_init(ffi, ft, value, keep, share)
        elif ft.kind == "struct":
            out[name] = struct_initializer(ffi, ft, value, keep, share)
    return out


# gfortran's array descriptors (GCC 8 and later; adgen names their structs adgen_gfc_*):
# an allocatable component of a derived type. The API takes and gives numpy arrays for them.
_GFC_TYPE = {"int": 1, "long": 1, "signed char": 1, "short": 1, "float": 3, "double": 3,
             "long double": 3}


def is_descriptor(t):
    """True when (cffi) type t is the struct of a gfortran array descriptor."""
    return t.kind == "struct" and t.cname.startswith("struct adgen_gfc_") and \
        any(name == "base_addr" for name, _ in t.fields)


def descriptor_type(t):
    """(element type name, rank) of gfortran array descriptor type t."""
    fields = dict(t.fields)
    return fields["base_addr"].type.item.cname, fields["dim"].type.length


def _descriptor_init(ffi, t, value, keep, share=False):
    """The cffi initializer of gfortran array descriptor type t describing value: a numpy
    array or nested sequence of the descriptor's rank, its lower bounds 1, or a dict
    {"values": array, "lbound": [lower bound per dimension]}; None: not allocated. The data
    is a C array in Fortran order, appended to keep; with share, a Fortran-contiguous
    writeable numpy array of the element's dtype is used in place."""
    elem, rank = descriptor_type(t)
    lbound = [1] * rank
    if isinstance(value, dict):
        unknown = set(value) - {"values", "lbound"}
        if unknown:
            raise ValueError(f"an allocatable component is an array, or a dict with "
                             f"'values' and 'lbound': no {sorted(unknown)[0]!r}")
        lbound = [int(b) for b in value.get("lbound", lbound)]
        value = value["values"]
        if len(lbound) != rank:
            raise ValueError(f"'lbound' has {len(lbound)} bounds for an array of rank {rank}")
    if value is None:
        return {"base_addr": ffi.NULL}
    dt = _dtype_or_none(elem, ffi)
    a = value if isinstance(value, np.ndarray) and value.dtype == dt else \
        np.asarray(value, dtype=dt)
    if a.ndim != rank:
        raise ValueError(f"expected an array of rank {rank} (an allocatable component), "
                         f"got shape {a.shape}")
    if share and a.flags.f_contiguous and a.flags.writeable and a.size:
        data = ffi.from_buffer(f"{elem}[]", a.reshape(-1, order="F"))
    else:
        data = ffi.new(f"{elem}[]", max(a.size, 1))
        flat = np.asfortranarray(a).reshape(-1, order="F")
        if a.size:
            ffi.memmove(data, ffi.from_buffer(flat), flat.nbytes)
    keep.append(data)
    strides, stride = [], 1
    for extent in a.shape:
        strides.append(stride)
        stride *= extent
    size = ffi.sizeof(elem)
    return {"base_addr": data,
            "offset": (-sum(b * st for b, st in zip(lbound, strides))) % (1 << 64),
            "dtype": {"elem_len": size, "version": 0, "rank": rank,
                      "type": _GFC_TYPE.get(elem, 0), "attribute": 0},
            "span": size,
            "dim": [{"stride": st, "lower_bound": b, "ubound": b + extent - 1}
                    for st, b, extent in zip(strides, lbound, a.shape)]}


def _dtype_or_none(cname, ffi):
    try:
        return numpy_dtype(cname, ffi)
    except (KeyError, ValueError, TypeError):
        return None


# ------------------------------------------------------------------------------- handles
#
# A handle is a struct holding pointers to floating-point numbers or to structs (a mesh
# with its arrays and a nested material). As an independent or dependent, its derivative
# parts are its fields in declaration order, recursively: a floating-point field (or the
# floats of an array field or a nested struct), the whole array a pointer field to numbers
# points to (its length: that of the array the caller gave), the parts of the struct a
# pointer-to-struct field points to. The layout depends on the lengths given, so it is made
# per call, as a tree of nodes:
#     ("f",)                          a floating-point value
#     ("arr", (node, ...))            a fixed-size array field, a node per element
#     ("struct", ((name, node), ...)) the fields holding parts
#     ("ptr", cname, n)               a pointer to n numbers of type cname
#     ("pstruct", node | None, ctype) a pointer (ctype) to one struct; None: NULL
#     ("none",)                       a value that is not a part (see node_outputs)
#     ("desc", ptr node, shape)       a gfortran array descriptor (an allocatable
#                                     component): its data, a numpy array of that shape

class HandleError(Exception):
    pass


def _type_has_parts(t, seen=()):
    """True when a value of (cffi) type t holds floating-point values, in itself or
    through its pointers."""
    if t.kind == "primitive":
        return t.cname in FLOAT_NAMES
    if t.kind == "array":
        return t.length is not None and _type_has_parts(t.item, seen)
    if t.kind == "pointer":
        return t.item.kind == "primitive" and t.item.cname in FLOAT_NAMES or \
            t.item.kind == "struct" and _type_has_parts(t.item, seen)
    if t.kind == "struct" and t not in seen:
        return any(_type_has_parts(f.type, seen + (t,)) for _, f in t.fields)
    return False


def is_handle(t, seen=()):
    """True when (cffi) struct type t holds, in a field or a nested struct, a pointer to
    floating-point numbers or to a struct holding some."""
    if t.kind == "array":
        return t.length is not None and is_handle(t.item, seen)
    if t.kind == "pointer":
        return _type_has_parts(t)
    if t.kind != "struct" or t in seen:
        return False
    return any(is_handle(f.type, seen + (t,)) for _, f in t.fields)


def known_lengths(ffi, keep):
    """{address: number of elements} of the C arrays in keep."""
    out = {}
    for c in keep:
        try:
            if ffi.typeof(c).kind == "array":
                out[int(ffi.cast("uintptr_t", c))] = len(c)
        except TypeError:
            pass
    return out


def handle_layout(ffi, t, v, lengths, path, seen=frozenset()):
    """The layout node of value v (cdata; a number for a primitive) of (cffi) type t."""
    k = t.kind
    if k == "primitive":
        return ("f",)
    if k == "array":
        return ("arr", tuple(handle_layout(ffi, t.item, v[i], lengths, f"{path}[{i}]", seen)
                             for i in range(t.length)))
    if k == "struct" and is_descriptor(t):
        # an allocatable component: its data, as many numbers as the descriptor describes
        # (none when not allocated), an array of the descriptor's shape
        elem, rank = descriptor_type(t)
        data = handle_layout(ffi, dict(t.fields)["base_addr"].type, v.base_addr, lengths,
                              path, seen)
        shape = tuple(max(0, v.dim[i].ubound - v.dim[i].lower_bound + 1) if data[2] else 0
                      for i in range(rank))
        n = int(np.prod(shape))
        if data[2] < n:
            raise HandleError(f"{path}: its descriptor describes {n} elements but holds "
                               f"{data[2]}")
        return ("desc", ("ptr", elem, n), shape)
    if k == "struct":
        return ("struct", tuple((name, handle_layout(ffi, f.type, getattr(v, name), lengths,
                                                      f"{path}.{name}", seen))
                                for name, f in t.fields if _type_has_parts(f.type)))
    addr = int(ffi.cast("uintptr_t", v))
    if t.item.kind == "primitive":
        if addr == 0:
            return ("ptr", t.item.cname, 0)
        if addr not in lengths:
            raise HandleError(f"the length of the array {path} is not known: give the "
                               "struct as a dict with the array as a sequence or numpy array")
        return ("ptr", t.item.cname, lengths[addr])
    if addr == 0:
        return ("pstruct", None, t)
    if addr in seen:
        raise HandleError(f"{path} leads back to a struct it is part of")
    return ("pstruct", handle_layout(ffi, t.item, v[0], lengths, path, seen | {addr}), t)


def node_outputs(node):
    """The layout of the parts of a by-value handle that a call can change: those reached
    through its pointers (the copy's own fields are not outputs)."""
    k = node[0]
    if k in ("ptr", "pstruct", "desc"):
        return node
    if k == "arr":
        items = tuple(node_outputs(sub) for sub in node[1])
        return ("none",) if all(i[0] == "none" for i in items) else ("arr", items)
    if k == "struct":
        fields = tuple((name, sub) for name, sub in
                       ((name, node_outputs(sub)) for name, sub in node[1])
                       if sub[0] != "none")
        return ("struct", fields) if fields else ("none",)
    return ("none",)


def node_count(node):
    k = node[0]
    if k == "f":
        return 1
    if k == "arr":
        return sum(node_count(sub) for sub in node[1])
    if k == "struct":
        return sum(node_count(sub) for _, sub in node[1])
    if k == "ptr":
        return node[2]
    if k == "pstruct":
        return 0 if node[1] is None else node_count(node[1])
    if k == "desc":
        return node_count(node[1])
    return 0


def node_labels(node, prefix):
    """`m.h`, `m.x[2]`, `m.mat.k[0]`: the labels of the parts, in order."""
    k = node[0]
    if k == "f":
        return [prefix]
    if k == "arr":
        return [lab for i, sub in enumerate(node[1])
                for lab in node_labels(sub, f"{prefix}[{i}]")]
    if k == "struct":
        return [lab for name, sub in node[1] for lab in node_labels(sub, f"{prefix}.{name}")]
    if k == "ptr":
        return [f"{prefix}[{i}]" for i in range(node[2])]
    if k == "pstruct" and node[1] is not None:
        return node_labels(node[1], prefix)
    if k == "desc":             # numpy's indices of the array, in Fortran order
        return [f"{prefix}[{', '.join(str(int(i)) for i in np.unravel_index(j, node[2], order='F'))}]"
                for j in range(node_count(node))]
    return []


def node_read(ffi, node, v, out):
    """Appends the parts of v (cdata laid out as node) to the list out."""
    k = node[0]
    if k == "f":
        out.append(float(v))
    elif k == "arr":
        for i, sub in enumerate(node[1]):
            if sub[0] != "none":
                node_read(ffi, sub, v[i], out)
    elif k == "struct":
        for name, sub in node[1]:
            node_read(ffi, sub, getattr(v, name), out)
    elif k == "ptr":
        if node[2]:
            out.extend(float(x) for x in ffi.unpack(v, node[2]))
    elif k == "pstruct" and node[1] is not None:
        node_read(ffi, node[1], v[0], out)
    elif k == "desc":
        node_read(ffi, node[1], v.base_addr, out)


def node_write(ffi, node, v, values):
    """Sets the parts of v (a struct, an array or a pointer: set in place) from the
    iterator values."""
    k = node[0]
    if k == "arr":
        for i, sub in enumerate(node[1]):
            if sub[0] == "f":
                v[i] = next(values)
            else:
                node_write(ffi, sub, v[i], values)
    elif k == "struct":
        for name, sub in node[1]:
            if sub[0] == "f":
                setattr(v, name, next(values))
            else:
                node_write(ffi, sub, getattr(v, name), values)
    elif k == "ptr":
        for i in range(node[2]):
            v[i] = next(values)
    elif k == "pstruct" and node[1] is not None:
        node_write(ffi, node[1], v[0], values)
    elif k == "desc":
        node_write(ffi, node[1], v.base_addr, values)


_NP_FLOAT = {"double": "float64", "float": "float32", "long double": "longdouble"}


def node_dict(node, values):
    """The parts from the iterator values in the shape of the handle: a dict per struct
    (also one a pointer leads to), a numpy array per array of numbers, a float per field."""
    k = node[0]
    if k == "f":
        return float(next(values))
    if k == "arr":
        items = [node_dict(sub, values) for sub in node[1]]
        return np.array(items) if all(sub[0] == "f" for sub in node[1]) else items
    if k == "struct":
        return {name: node_dict(sub, values) for name, sub in node[1]}
    if k == "ptr":
        return np.array([next(values) for _ in range(node[2])],
                        dtype=_NP_FLOAT.get(node[1], "float64"))
    if k == "pstruct" and node[1] is not None:
        return node_dict(node[1], values)
    if k == "desc":
        return node_dict(node[1], values).reshape(node[2], order="F")
    return None


def node_flatten(node, v, where):
    """The parts of v, a nested dict (arrays as sequences) shaped like the handle, in
    order; a missing field, or None, counts as zero."""
    k = node[0]
    if k == "none":
        return []
    if k == "f":
        if not isinstance(v, numbers.Real) or isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{where}: expected a number, got {type(v).__name__}")
        return [float(v)]
    if v is None:
        return [0.0] * node_count(node)
    if k == "desc":
        if isinstance(v, dict) and "values" in v:
            v = v["values"]             # (its bounds are the primal's)
        try:
            a = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{where}: expected an array of shape {node[2]}, got "
                            f"{type(v).__name__}") from None
        if a.shape != tuple(node[2]) and not (a.ndim == 1 and a.size == node_count(node)
                                               and len(node[2]) == 1):
            raise ValueError(f"{where}: expected an array of shape {tuple(node[2])}, got "
                             f"{a.shape}")
        return [float(x) for x in a.reshape(-1, order="F")]
    if k in ("arr", "ptr"):
        n = len(node[1]) if k == "arr" else node[2]
        flat_items = k == "ptr" or all(sub[0] in ("f", "none") for sub in node[1])
        if flat_items:
            try:
                items = list(np.asarray(v, dtype=np.float64).reshape(-1))
            except (TypeError, ValueError):
                raise TypeError(f"{where}: expected {n} numbers, got {type(v).__name__}") \
                    from None
        else:
            items = list(v) if isinstance(v, (list, tuple)) else None
            if items is None:
                raise TypeError(f"{where}: expected a list, got {type(v).__name__}")
        if len(items) != n:
            raise ValueError(f"{where}: expected {n} values, got {len(items)}")
        if k == "ptr":
            return [float(x) for x in items]
        return [x for i, (sub, item) in enumerate(zip(node[1], items))
                for x in node_flatten(sub, float(item) if flat_items else item,
                                       f"{where}[{i}]")]
    if k == "pstruct":
        return [] if node[1] is None else node_flatten(node[1], v, where)
    if not isinstance(v, dict):
        raise TypeError(f"{where}: expected a dict of fields, got {type(v).__name__}")
    names = [name for name, _ in node[1]]
    unknown = [name for name in v if name not in names]
    if unknown:
        raise ValueError(f"{where}: no floating-point field {unknown[0]!r} (the fields with "
                         f"derivatives: {', '.join(names) or 'none'})")
    return [x for name, sub in node[1]
            for x in (node_flatten(sub, v[name], f"{where}.{name}") if name in v
                      else [0.0] * node_count(sub))]


def _node_clone(ffi, node, v, keep, zero):
    """v (a struct or array cdata, set in place) is a byte copy of another: points its
    pointers to copies of what they point to, zeros with zero=True (which also zeroes its
    parts). The copies are appended to keep."""
    def child(sub, get, put):
        if sub[0] == "f":
            if zero:
                put(0.0)
        elif sub[0] in ("ptr", "pstruct"):
            put(_node_clone_ptr(ffi, sub, get(), keep, zero))
        elif sub[0] == "desc":      # the descriptor in place, its data copied
            d = get()
            d.base_addr = _node_clone_ptr(ffi, sub[1], d.base_addr, keep, zero)
        elif sub[0] != "none":
            _node_clone(ffi, sub, get(), keep, zero)
    if node[0] == "arr":
        for i, sub in enumerate(node[1]):
            child(sub, lambda i=i: v[i], lambda x, i=i: v.__setitem__(i, x))
    elif node[0] == "struct":
        for name, sub in node[1]:
            child(sub, lambda name=name: getattr(v, name),
                  lambda x, name=name: setattr(v, name, x))


def _node_clone_ptr(ffi, node, old, keep, zero):
    if node[0] == "ptr":
        n = node[2]
        if n == 0:
            return ffi.NULL if zero else old
        buf = ffi.new(f"{node[1]}[{n}]")
        if not zero:
            ffi.memmove(buf, old, n * ffi.sizeof(node[1]))
        keep.append(buf)
        return buf
    if node[1] is None:
        return old                  # NULL
    new = ffi.new(node[2], old[0])
    _node_clone(ffi, node[1], new[0], keep, zero)
    keep.append(new)
    return new


def handle_copy(ffi, node, ctype, obj, keep, zero):
    """A new struct (a pointer to it) copying obj (a struct cdata laid out as node) with
    copies of every array and struct its pointers lead to; with zero=True, the derivative
    struct of obj: the same, with every part zero (its other fields, such as integers,
    copied)."""
    ptr = ffi.new(ctype + " *", obj)
    _node_clone(ffi, node, ptr[0], keep, zero)
    keep.append(ptr)
    return ptr


def missing_pointer_fields(t, v, prefix, seen=()):
    """The paths of the pointer fields of (cffi) struct type t that dict v (nested dicts
    for the structs pointer fields lead to) leaves out."""
    if not isinstance(v, dict) or t.kind != "struct" or t in seen:
        return []
    out = []
    for name, f in t.fields:
        ft = f.type
        if is_descriptor(ft):
            if name not in v:
                out.append(f"{prefix}.{name}")
        elif ft.kind == "pointer":
            if name not in v:
                out.append(f"{prefix}.{name}")
            elif ft.item.kind == "struct":
                out += missing_pointer_fields(ft.item, v[name], f"{prefix}.{name}",
                                               seen + (t,))
        elif ft.kind == "struct" and name in v:
            out += missing_pointer_fields(ft, v[name], f"{prefix}.{name}", seen + (t,))
    return out


class Args:
    """The arguments of one API call, converted and checked."""

    def __init__(self, values, arrays, shapes, boxed, env, struct_ptrs=(), ffi=None):
        self.values = values        # name -> int/float/cdata/ndarray (pristine)
        self.arrays = arrays        # names of array arguments
        self.shapes = shapes        # name -> the user's shape
        self.boxed = boxed          # names of scalars boxed into 1-element arrays (Fortran)
        self.env = env
        self.struct_ptrs = set(struct_ptrs)     # names of pointers to structs
        self.ffi = ffi
        self.handles = {}   # name -> {"full", "out": layouts, "ctype", "byvalue"}
        self.keep = []      # what the structs' pointers lead to: alive as long as the call

    def fresh(self):
        """Copies of the arrays and pointed-to structs (each derivative call starts from the
        same inputs); a handle's copy has copies of the arrays and structs it leads to."""
        out = {}
        for n, v in self.values.items():
            if n in self.handles:
                h = self.handles[n]
                ptr = handle_copy(self.ffi, h["full"], h["ctype"],
                                   v if h["byvalue"] else v[0], self.keep, zero=False)
                v = ptr[0] if h["byvalue"] else ptr
            elif n in self.arrays:
                v = v.copy()
            elif n in self.struct_ptrs:
                t = self.ffi.typeof(v)
                if t.kind == "array":       # an array of structs
                    copy = self.ffi.new(t, len(v))
                    self.ffi.memmove(copy, v, self.ffi.sizeof(v))
                    v = copy
                else:
                    v = self.ffi.new(t, v[0])
            out[n] = v
        return out
