"""CHARACTER strings in the Fortran front end's Scope (StringsMixin): character variables
and constants, substrings, concatenation, comparisons, assignments, and the intrinsics on
strings."""
import functools

from adgen import ir
from adgen.ir import exprs as X
from adgen.ir.exprs import counted_loop
from adgen.frontend import fortran_types as T
from adgen.ir.c_text import c_string
from adgen.frontend.fortran_helpers import (C_OPERATORS, STRING_INTRINSICS, FVar,
                                            at_least_zero, c_array_length, c_char,
                                            call_arguments, char_literal, const_int,
                                            constant_size, constructor_items, convert_to,
                                            f2003, ir_int, name_of, walk_type)


def _string_constant(text, loc):
    """(C string literal, length) of a CHARACTER constant."""
    return ir.Const(c_string(text), ir.Ptr(ir.Prim("char")), loc), ir_int(len(text))


class StringsMixin:
    """Scope's CHARACTER strings (fortran_front.Scope)."""

    # ---------------------------------------------------------- character strings
    # A CHARACTER scalar carries no derivative: options (`scheme == 'upwind'`, SELECT
    # CASE on a name) and names passed down. A local is a C char array of its length; a
    # dummy a `char *` with, as gfortran passes it, the length after all the other
    # arguments (size_t, by value: see string_lengths). Comparisons pad the shorter
    # string with blanks, as Fortran does (adgen_str_cmp in the output).

    def char_length(self, tspec, ent, node):
        """The declared length of a CHARACTER entity (ent None: of the type spec alone):
        '*' (assumed: the caller's), ':' (deferred: see deferred_string) or an int
        (`character(len=8)`, `character(8)`, `character*8`, `c*8`; 1 if none)."""
        text = None
        if ent is not None and len(ent.items) > 2 and ent.items[2] is not None:
            text = str(ent.items[2])
        elif len(tspec.items) > 1 and tspec.items[1] is not None:
            text = str(tspec.items[1])
        if text is None:
            return 1
        t = text.replace(" ", "").lower()
        t = t[1:] if t.startswith("*") else t
        t = t[1:-1] if t.startswith("(") and t.endswith(")") else t
        parts = [x for x in t.split(",") if not x.startswith("kind=")]
        value = parts[0][4:] if parts and parts[0].startswith("len=") else \
            (parts[0] if parts else "1")
        if value in ("*", ":"):
            return value
        n = int(value) if value.isdigit() else self.named_constant_int(value)
        if n is None:
            raise self.error(node, f"the length '{value}' of a CHARACTER variable is not a "
                                   "constant")
        return n

    def declare_string(self, name, length, dims, node, is_param, init, module_level, saved):
        """A CHARACTER scalar: a dummy, a local, a SAVEd or module variable, or a
        parameter (a literal)."""
        what = f"the CHARACTER variable '{name}'"
        if dims is not None:
            return self.declare_string_array(name, length, dims, node, is_param, init,
                                             module_level, saved)
        if getattr(self.vars.get(name), "dims", None):
            raise self.error(node, f"{what} is an array given its shape by a DIMENSION "
                                   "statement: not supported (give the shape in its type "
                                   "declaration)")
        if is_param:
            text = self.constant_text(init.items[1]) if init is not None else None
            if text is None:
                raise self.error(node, f"{what} is a parameter whose value is not a constant "
                                       "string: not supported")
            v = FVar(name, ir.Prim("char"), loc=self.loc(node))
            v.string_literal = text if length == "*" else text[:length].ljust(length)
            self.vars[name] = v
            return
        if getattr(self.vars.get(name), "common", None) is not None:
            raise self.error(node, f"{what} in a COMMON block is not supported")
        # (a module variable's initial value is in the compiled module's object; a local
        # one makes it SAVEd, a static variable of the output given it here)
        initial = init is not None and not module_level
        if initial and self.constant_text(init.items[1]) is None:
            raise self.error(node, f"{what} has an initial value that is not a constant "
                                   "string: not supported")
        v = self.declare(name, ir.Prim("char"), None, node, False, None, module_level,
                         saved or initial)
        if v.by_ref:
            v.char_len_param = ir.Symbol(self.unique(f"{name}_len"), ir.Prim("size_t"),
                                         "param", v.loc)
            v.char_len_param.char_len_of = v.sym    # (the interface module leaves it out)
            v.char_len = ir.Ref(v.char_len_param) if length == "*" else ir_int(length)
            return
        if length == "*":
            raise self.error(node, f"{what} has an assumed length (*) but is not a dummy "
                                   "argument")
        v.sym.type = ir.Arr(ir.Prim("char"), ir_int(length))
        v.char_len = ir_int(length)
        if initial:
            text = self.constant_text(init.items[1])[:length].ljust(length)
            v.sym.init_text = "{" + ", ".join(c_char(ch) for ch in text) + "}"

    def deferred_string(self, name, dims, node, allocatable, module_level, saved):
        """A local deferred-length string (`character(len=:), allocatable :: label`): a
        char array as long as the longest value the procedure assigns it can be (see
        deferred_capacity), its length in a local that each assignment of a whole value
        sets (allocating it, as Fortran 2003 does: see string_assignment), and the flag of
        an allocatable scalar for allocated() and DEALLOCATE. No heap: its values carry no
        derivative and their lengths are bounded as a concatenation's are."""
        what = f"the deferred-length CHARACTER variable '{name}'"
        refused = "not ALLOCATABLE" if not allocatable else "an array" if dims is not None \
            else "a module variable" if module_level or self.func is None \
            else "a dummy argument" if name in self.dummies \
            else "a function result" if name == self.result_name else "SAVEd" if saved \
            else None
        if refused is not None:
            raise self.error(node, f"{what} is {refused}: not supported (a local ALLOCATABLE "
                                   "scalar is; pass it to a character(len=*) dummy)")
        v = self.declare(name, ir.Prim("char"), None, node)
        v.scalar_allocated = self.temp(f"{name}_allocated", ir.INT)
        self.allocatable_scalars.append(v)
        v.char_len = ir.Ref(self.temp(f"{name}_len", ir.LONG))
        v.deferred = True
        self.deferred_strings.append(v)

    def size_deferred_strings(self, region):
        """Storage for the deferred-length strings declared and not sized yet, as long as
        the values the assignments of region (the statements of their procedure or
        BLOCK) give them can be."""
        pending, self.deferred_strings = self.deferred_strings, []
        for v in pending:
            v.assigned_in = region
        for v in pending:
            self.deferred_capacity(v, v.loc)

    def deferred_capacity(self, v, node):
        """The length of the storage of deferred-length string v (an int expression of
        constants and the hidden lengths of dummies): the longest of the values its
        assignments give it can be, at least 1. A value that reads v itself (`s = s //
        'x'`, or `t = s` with `s = t // 'x'`) could grow past any such bound: refused, at
        the assignment being sized (else at node)."""
        if getattr(v, "capacity", None) is None:
            if getattr(v, "sizing", False):
                raise self.error(getattr(self, "sizing_at", None) or node,
                                 f"the deferred-length CHARACTER variable '{v.name}' "
                                 "assigned a value that reads it (here, or through other "
                                 "such variables): not supported (its length could grow "
                                 "past any bound adgen can tell; declare it with a length, "
                                 "`character(len=80)`)")
            F = f2003()
            v.sizing, outer, bounds = True, getattr(self, "sizing_at", None), []
            for st in walk_type(v.assigned_in, F.Assignment_Stmt):
                if isinstance(st.items[0], F.Name) and name_of(st.items[0]) == v.name and \
                        self.is_string(st.items[2]):
                    self.sizing_at = st
                    bounds.append(self.string_bound(st.items[2]))
            v.sizing, self.sizing_at = False, outer
            capacity = functools.reduce(_longest, bounds, ir_int(1))
            self.temp_arrays.append((v.sym, [(capacity, capacity)], v.loc))
            v.sym.type = ir.Arr(ir.Prim("char"), c_array_length(X.clone(capacity)))
            v.capacity = capacity
        return X.clone(v.capacity)

    def constant_text(self, node):
        """The characters of a CHARACTER constant expression (literals, named string
        constants, concatenations, trim, repeat, char, achar, new_line of constants);
        None for anything else."""
        F = f2003()
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return char_literal(node)
        if kind == "Parenthesis":
            return self.constant_text(node.items[1])
        if kind == "Level_3_Expr":
            parts = [self.constant_text(p) for p in _concatenated(node)]
            return None if None in parts else "".join(parts)
        if isinstance(node, F.Name):
            return getattr(self.vars.get(name_of(node)), "string_literal", None)
        if not isinstance(node, F.Intrinsic_Function_Reference):
            return None
        name = name_of(node.items[0])
        args = self.intrinsic_arguments(name, call_arguments(node), node)
        if name == "new_line" and len(args) == 1:
            return "\n"
        if name in ("char", "achar") and len(args) == 1:
            code = const_int(X.fold(self.expr(args[0])))
            return chr(code) if code is not None and 0 <= code < 256 else None
        text = self.constant_text(args[0]) if args else None
        if text is None:
            return None
        if name == "trim" and len(args) == 1:
            return text.rstrip(" ")
        if name == "repeat" and len(args) == 2:
            return text * self.repeat_count(node, args[1])
        return None

    def constant_texts(self, node):
        """The strings of a constant CHARACTER array constructor (its elements cut or
        padded to the length its type spec gives, `[character(len=8) :: ...]`), or of one
        constant string; None in the list for an element that is not constant."""
        F = f2003()
        if not isinstance(node, F.Array_Constructor):
            return [self.constant_text(node)]
        spec = node.items[1]
        if type(spec).__name__ != "Ac_Spec":
            return [self.constant_text(x) for x in constructor_items(node)]
        type_spec, values = spec.items
        items = [] if values is None else values.items \
            if type(values).__name__.endswith("List") else [values]
        if type_spec is not None and not str(type_spec).upper().startswith("CHARACTER"):
            return [None] * len(items)      # a constructor of numbers
        length = self.char_length(type_spec, None, node) if type_spec is not None else None
        texts = [None if isinstance(x, F.Ac_Implied_Do) else self.constant_text(x)
                 for x in items]
        if length in (None, "*"):
            return texts
        return [t if t is None else t[:length].ljust(length) for t in texts]

    def declare_string_array(self, name, length, dims, node, is_param, init, module_level,
                             saved):
        """A CHARACTER array (names, units, labels: data that carries no derivative): a
        char array holding its elements one after the other, each of its length; a dummy a
        `char *` with the elements' length passed as a scalar's. Its elements are read,
        compared, assigned and passed as strings are, the whole array passed to a
        procedure; a reference to the whole array elsewhere is refused where it is met (in
        output, which the derivative code leaves out, it does not matter)."""
        what = f"the CHARACTER array '{name}'"
        char = ir.Prim("char")
        loc = self.loc(node)
        values = None
        # (a module variable's initial value is in the compiled module's object)
        if init is not None and (is_param or not module_level):
            values = self.constant_texts(init.items[1])
            if None in values:
                raise self.error(node, f"{what} has an initial value that is not constant "
                                       "strings: not supported")
            if length == "*":
                length = max(len(t) for t in values)
        if length == "*" and name not in self.dummies:
            raise self.error(node, f"{what} has an assumed length (*) but is not a dummy "
                                   "argument")
        if is_param:
            if values is None:
                raise self.error(node, f"{what} is a parameter whose value is not literals: "
                                       "not supported")
            v = FVar(name, char, loc=loc)
            self.set_dims(v, dims, node)
            sym = ir.Symbol(self.unique(f"{(self.func.name if self.func else 'm')}_{name}"),
                            char, "global", loc, is_static=True)
            sym.is_library = False
            self.front.globals.append(sym)
            v.sym = sym
            self.vars[name] = v
        else:
            v = self.declare(name, char, dims, node, False, None, module_level,
                             saved or values is not None)
        if v.by_ref:
            if v.assumed_shape:
                raise self.error(node, f"{what} is an assumed-shape dummy argument: not "
                                       "supported (give it an explicit shape, `names(n)`)")
            v.char_len_param = ir.Symbol(self.unique(f"{name}_len"), ir.Prim("size_t"),
                                         "param", v.loc)
            v.char_len_param.char_len_of = v.sym
            v.char_len = ir.Ref(v.char_len_param) if length == "*" else ir_int(length)
            v.sym.char_array = True
            return
        size = constant_size(v)
        if size is None:
            raise self.error(node, f"{what} needs constant bounds")
        v.sym.type = ir.Arr(char, ir_int(size * length))
        v.char_len = ir_int(length)
        if values is not None:
            if len(values) == 1:
                values *= size
            if len(values) != size:
                raise self.error(node, f"'{name}' has {size} elements, given {len(values)} "
                                       "initial values")
            text = "".join(t[:length].ljust(length) for t in values)
            v.sym.init_text = "{" + ", ".join(c_char(ch) for ch in text) + "}"

    def is_string(self, node):
        """Whether node is a CHARACTER expression adgen reads (see string)."""
        F = f2003()
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return True
        if kind == "Parenthesis":
            return self.is_string(node.items[1])
        if kind == "Level_3_Expr":             # a // b: the only level-3 operator
            return True
        if T.is_component_name(node):
            comp = T.peek_component(self, name_of(node))
            return comp is not None and comp.char_len is not None
        if isinstance(node, F.Name):
            v = self.vars.get(name_of(node))
            if v is None and self.may_be_host_variable(name_of(node)):
                v = self.host.vars.get(name_of(node))   # (see is_array)
            return v is not None and (getattr(v, "char_len", None) is not None or
                                      getattr(v, "string_literal", None) is not None)
        if isinstance(node, F.Intrinsic_Function_Reference) and \
                name_of(node.items[0]) in STRING_INTRINSICS:
            return True     # (string refuses those it does not know)
        if isinstance(node, F.Part_Ref):        # a substring s(i:j), an element a(i)
            return self.is_string(node.items[0])
        if kind == "Array_Section":             # an element's substring, a(i)(j:k)
            return self.is_string(node.items[0])
        return False

    def string(self, node, pre, whole_array=False):
        """(pointer to its first character, length) of a CHARACTER expression: a
        literal, a variable, a parameter, an element of an array, a substring, trim() of
        one, a concatenation (built in a temporary by statements appended to pre).
        whole_array: a whole CHARACTER array is accepted (an actual argument: its first
        element, and the elements' length)."""
        F = f2003()
        loc = self.loc(node)
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return _string_constant(char_literal(node), loc)
        if kind == "Parenthesis":
            return self.string(node.items[1], pre)
        if kind == "Level_3_Expr":
            return self.joined(_concatenated(node), pre, loc)
        if T.is_component_name(node):
            v = self.lookup(name_of(node), node)
            return self.value(v, node), X.clone(v.char_len)
        if isinstance(node, F.Name):
            v = self.lookup(name_of(node), node)
            text = getattr(v, "string_literal", None)
            if text is not None:
                return _string_constant(text, loc)
            if v.dims and not whole_array:
                raise self.error(node, f"the CHARACTER array '{v.name}' is supported element "
                                       "by element here (or passed whole to a procedure)")
            return ir.Ref(v.sym, loc), X.clone(v.char_len)
        if isinstance(node, F.Part_Ref):
            v = self.vars.get(name_of(node.items[0])) \
                if isinstance(node.items[0], F.Name) else None
            if v is not None and v.dims:
                return self.string_element(v, node, pre)
            return self.substring(node, pre)
        if kind == "Array_Section":
            ptr, length = self.string(node.items[0], pre)
            return self.characters(ptr, length, node.items[1].items, pre, loc)
        name = name_of(node.items[0])
        args = self.intrinsic_arguments(name, call_arguments(node), node)
        if name in ("char", "achar", "new_line") and len(args) == 1:
            return self.one_character(name, args[0], pre, loc)
        if name == "repeat" and len(args) == 2:
            return self.repeated(node, args, pre, loc)
        if name not in ("trim", "adjustl", "adjustr") or len(args) != 1:
            raise self.error(node, f"'{node}': of the CHARACTER intrinsics, trim, adjustl, "
                                   "adjustr, repeat, char, achar, new_line, ichar, iachar, "
                                   "index, len and len_trim are supported")
        ptr, length = self.string(args[0], pre)
        if name == "trim":
            return ptr, ir.Call("adgen_len_trim", [X.clone(ptr), length], ir.LONG, loc)
        return self.adjusted(name, ptr, length, self.string_bound(args[0]), pre, loc)

    def one_character(self, name, arg, pre, loc):
        """char(i) and achar(i): the character of code i; new_line(a): a newline. Built
        in a one-character temporary; (the temporary, 1)."""
        char = ir.Prim("char")
        buf = self.text_buffer(ir_int(1), loc)
        value = ir.Const("'\\n'", char) if name == "new_line" else \
            ir.Cast(char, self.expr(arg, None, pre))
        pre.append(ir.Assign(ir.Index(X.clone(buf), ir_int(0), char), value, loc))
        return buf, ir_int(1)

    def repeated(self, node, args, pre, loc):
        """repeat(s, n): n copies of s one after the other, built in a temporary (n a
        constant, so that the temporary's length is known); (the temporary, n len(s))."""
        copies = self.repeat_count(node, args[1])
        char = ir.Prim("char")
        buf = self.text_buffer(self.string_bound(node), loc)
        ptr, length = self.string(args[0], pre)
        n = _long(length)
        if not isinstance(n, (ir.Const, ir.Ref)):
            n = ir.Ref(self.once(n, "length", pre, loc))
        total = X.fold(X.mul(ir_int(copies), X.clone(n)))
        k = self.temp("k", ir.LONG)
        pre.append(_char_loop(k, X.clone(total), ir.Index(X.clone(buf), ir.Ref(k), char),
                              ir.Index(ptr, ir.Binary("%", ir.Ref(k), X.clone(n), ir.LONG),
                                       char), loc))
        return buf, total

    def repeat_count(self, node, count):
        """The number of copies of repeat(s, n): n, a constant not below zero."""
        n = const_int(X.fold(self.expr(count)))
        if n is None or n < 0:
            raise self.error(node, f"'{node}': repeat() is supported with a count known "
                                   "when adgen runs (a constant or a PARAMETER)")
        return n

    def string_element(self, v, node, pre):
        """a(i, ...) of the CHARACTER array v: its characters, at their place in the
        char array."""
        F = f2003()
        subs = node.items[1].items
        if any(isinstance(x, F.Subscript_Triplet) for x in subs):
            raise self.error(node, f"'{node}': a section of the CHARACTER array '{v.name}' is "
                                   "not supported (its elements are)")
        loc = self.loc(node)
        flat = self.array_element(v, [self.expr(x, None, pre) for x in subs], node).index
        char = ir.Prim("char")
        first = ir.Index(self.array_base(v, node), X.mul(_long(flat), _long(v.char_len)),
                         char, loc)
        return ir.AddrOf(first, ir.Ptr(char), loc), X.clone(v.char_len)

    def substring(self, node, pre):
        """s(i:j): the characters i to j of s (from 1; i is 1 and j len(s) when left
        out), none when j < i."""
        F = f2003()
        subs = node.items[1].items
        if len(subs) != 1 or not isinstance(subs[0], F.Subscript_Triplet) or \
                subs[0].items[2] is not None:
            raise self.error(node, f"'{node}': a CHARACTER variable is not an array (a "
                                   "substring is written s(i:j))")
        ptr, length = self.string(node.items[0], pre)
        return self.characters(ptr, length, subs[0].items[:2], pre, self.loc(node))

    def characters(self, ptr, length, bounds, pre, loc):
        """The characters i to j (the nodes bounds, either None) of the string (ptr,
        length)."""
        lo, hi = (_long(self.expr(b, None, pre)) if b is not None else None
                  for b in bounds)
        lo = lo if lo is not None else ir_int(1)
        hi = hi if hi is not None else _long(length)
        lo, hi = (ir.Ref(self.once(b, "bound", pre, loc)) if X.has_call(b) else b
                  for b in (lo, hi))
        start = ir.AddrOf(ir.Index(ptr, X.sub(X.clone(lo), ir_int(1)), ir.Prim("char")),
                          ir.Ptr(ir.Prim("char")), loc)
        return start, at_least_zero(X.add(X.sub(hi, lo), ir_int(1)))

    def adjusted(self, name, ptr, length, bound, pre, loc):
        """adjustl(s): s without its leading blanks, blanks after; adjustr(s): s without
        its trailing blanks, blanks before. Built in a temporary (see text_buffer);
        (the temporary, len(s))."""
        char = ir.Prim("char")
        buf = self.text_buffer(bound, loc)
        n = _long(length)
        if X.has_call(n) or not isinstance(n, (ir.Const, ir.Ref, ir.Cast)):
            n = ir.Ref(self.once(n, "length", pre, loc))
        # the blanks the result starts with (adjustr) or that the source does (adjustl)
        if name == "adjustl":
            blanks = ir.Call("adgen_len_lead", [X.clone(ptr), X.clone(n)], ir.LONG, loc)
        else:
            blanks = X.sub(X.clone(n), ir.Call("adgen_len_trim", [X.clone(ptr), X.clone(n)],
                                               ir.LONG, loc))
        shift = self.once(blanks, "blanks", pre, loc)
        k = self.temp("k", ir.LONG)
        if name == "adjustl":
            value = ir.Cond(ir.Binary("<", ir.Ref(k), X.sub(X.clone(n), ir.Ref(shift)),
                                      ir.INT),
                            ir.Index(ptr, X.add(ir.Ref(k), ir.Ref(shift)), char),
                            ir.Const("' '", char), char)
        else:
            value = ir.Cond(ir.Binary(">=", ir.Ref(k), ir.Ref(shift), ir.INT),
                            ir.Index(ptr, X.sub(ir.Ref(k), ir.Ref(shift)), char),
                            ir.Const("' '", char), char)
        pre.append(_char_loop(k, n, ir.Index(X.clone(buf), ir.Ref(k), char), value, loc))
        return buf, X.clone(n)

    def string_index(self, node, pre):
        """index(s, t[, back]): the position (from 1) of the first (with back true, the
        last) occurrence of t in s; 0 when there is none."""
        s_node, t_node, *rest = self.intrinsic_arguments("index", node.items[1].items, node)
        if not (self.is_string(s_node) and self.is_string(t_node)):
            raise self.error(node, "index() of something that is not a CHARACTER string")
        if len(rest) > 1 and rest[1] is not None:
            raise self.error(node, "index() with KIND is not supported")
        back = self.expr(rest[0], None, pre) if rest and rest[0] is not None else ir_int(0)
        ps, ns = self.string(s_node, pre)
        pt, nt = self.string(t_node, pre)
        return convert_to(ir.Call("adgen_str_index", [ps, ns, pt, nt, back], ir.LONG,
                                self.loc(node)), ir.INT)

    def text_buffer(self, bound, loc):
        """A temporary char array declared on entry, of bound characters (an int
        expression of constants and the hidden lengths of dummies): the text a
        concatenation or adjustl builds."""
        char = ir.Prim("char")
        if const_int(bound) is not None:
            bound = ir_int(max(const_int(bound), 1))
        return ir.Ref(self.entry_temp("text", char, [(bound, bound)], [(ir_int(1), bound)],
                                      loc).sym)

    def string_bound(self, node):
        """The longest length a CHARACTER expression can have (an int expression):
        its declared length, through trim, substrings and concatenations."""
        F = f2003()
        kind = type(node).__name__
        if kind == "Char_Literal_Constant":
            return ir_int(len(char_literal(node)))
        if kind == "Parenthesis":
            return self.string_bound(node.items[1])
        if kind == "Level_3_Expr":
            bounds = [self.string_bound(p) for p in _concatenated(node)]
            return X.fold(functools.reduce(X.add, bounds))
        if T.is_component_name(node):
            return ir_int(T.peek_component(self, name_of(node)).char_len)
        if isinstance(node, F.Name):
            v = self.vars.get(name_of(node))
            text = getattr(v, "string_literal", None)
            if text is None and getattr(v, "char_len", None) is None:
                raise self.error(node, f"'{node}' is not a CHARACTER string")
            if getattr(v, "deferred", False):
                return convert_to(self.deferred_capacity(v, node), ir.INT)
            return ir_int(len(text)) if text is not None else convert_to(X.clone(v.char_len),
                                                                      ir.INT)
        if isinstance(node, F.Part_Ref) or kind == "Array_Section":    # (an element's)
            return self.string_bound(node.items[0])
        name = name_of(node.items[0])
        args = call_arguments(node)
        if name in ("char", "achar", "new_line"):
            return ir_int(1)
        if name == "repeat":
            args = self.intrinsic_arguments(name, args, node)
            return X.fold(X.mul(ir_int(self.repeat_count(node, args[1])),
                                self.string_bound(args[0])))
        return self.string_bound(args[0])      # trim, adjustl, adjustr

    def joined(self, parts, pre, loc):
        """The CHARACTER expressions parts one after the other, copied (by statements
        appended to pre) into a temporary declared on entry as long as they can be (their
        declared lengths, constants or the lengths of dummies): (the temporary, the sum of
        the parts' lengths)."""
        char = ir.Prim("char")
        buf = self.text_buffer(
            X.fold(functools.reduce(X.add, [self.string_bound(p) for p in parts])), loc)
        offset = ir_int(0)
        for p in parts:
            ptr, length = self.string(p, pre)
            length = _long(length)
            if X.has_call(length):
                length = ir.Ref(self.once(length, "length", pre, loc))
            nbytes = ir.Binary("*", ir.Cast(ir.SIZE_T, X.clone(length)), ir.SizeOf(char),
                               ir.SIZE_T)
            pre.append(ir.ExprStmt(ir.Call("memcpy", [
                ir.AddrOf(ir.Index(X.clone(buf), offset, char), ir.Ptr(char), loc), ptr,
                nbytes], ir.VOID, loc), loc))
            offset = X.fold(X.add(offset, length))
        return buf, offset

    def string_comparison(self, node, pre):
        """a == b (or /=, <, ...) of CHARACTER strings: adgen_str_cmp(a, b) against 0."""
        a, op, b = node.items
        if not (self.is_string(a) and self.is_string(b)):
            raise self.error(node, f"'{node}' compares a CHARACTER string with a number")
        op = C_OPERATORS.get(op.strip().upper(), op.strip())
        return ir.Binary(op, self.string_compare(a, b, node, pre), ir_int(0), ir.INT,
                         self.loc(node))

    def string_compare(self, a, b, node, pre):
        """adgen_str_cmp(a, b): negative, 0 or positive as a sorts before, with or after
        b (blank-padded)."""
        pa, na = self.string(a, pre) if not isinstance(a, tuple) else a
        pb, nb = self.string(b, pre) if not isinstance(b, tuple) else b
        return ir.Call("adgen_str_cmp", [X.clone(pa), X.clone(na), pb, nb], ir.INT,
                       self.loc(node))

    def string_assignment(self, lhs, rhs, out, loc):
        """s = t (or s(i:j) = t): t's characters, then blanks up to s's length (t cut to
        it). A substring given a value that reads its own variable takes it through a
        temporary, as Fortran evaluates the right-hand side first."""
        F = f2003()
        v = self.vars.get(name_of(lhs)) if isinstance(lhs, F.Name) else None
        if v is not None and v.dims:
            return self.string_array_assignment(v, lhs, rhs, out, loc)
        if not self.is_string(rhs):
            raise self.error(lhs, f"the CHARACTER variable '{lhs}' assigned a value that "
                                  "is not a string")
        if v is not None and getattr(v, "deferred", False):
            # the value's length becomes the variable's (allocated, or reallocated)
            src, m = self.string(rhs, out)
            out.append(ir.Assign(X.clone(v.char_len), _long(m), loc))
            self.copy_string(ir.Ref(v.sym, loc), X.clone(v.char_len), src, X.clone(v.char_len),
                             out, loc)
            self.allocated_by_assignment(lhs, out, loc)
            return
        dst, n = self.string(lhs, out)
        target = lhs.items[0] if isinstance(lhs, F.Part_Ref) else lhs
        if isinstance(lhs, F.Part_Ref) and not isinstance(rhs, F.Level_3_Expr) and \
                name_of(target) in {name_of(x) for x in walk_type(rhs, F.Name)}:
            src, m = self.joined([rhs], out, loc)
        else:
            src, m = self.string(rhs, out)
        self.copy_string(dst, n, src, m, out, loc)

    def string_array_assignment(self, v, lhs, rhs, out, loc):
        """a = t for the CHARACTER array a: each element given the string t (`names =
        ''`), or the items of an array constructor in order (`names = ['u', 'v']`)."""
        F = f2003()
        size = constant_size(v)
        base = self.array_base(v, lhs)
        char = ir.Prim("char")
        element = lambda e: ir.AddrOf(ir.Index(X.clone(base), X.mul(e, _long(v.char_len)),  # noqa: E731
                                               char, loc), ir.Ptr(char), loc)
        if isinstance(rhs, F.Array_Constructor):
            items = constructor_items(rhs)
            if size is None or len(items) != size or not all(map(self.is_string, items)):
                raise self.error(lhs, f"the CHARACTER array '{v.name}' assigned an array "
                                      "constructor is supported with one string per element")
            values = [self.joined([x], out, loc) if name_of(lhs) in
                      {name_of(n) for n in walk_type(x, F.Name)} else self.string(x, out)
                      for x in items]
            for k, (src, m) in enumerate(values):
                self.copy_string(element(ir_int(k)), X.clone(v.char_len), src, m, out, loc)
            return
        if not self.is_string(rhs) or size is None:
            raise self.error(lhs, f"the CHARACTER array '{v.name}' is supported element by "
                                  "element here (or given one string, or a constructor)")
        src, m = self.joined([rhs], out, loc)
        e = self.temp("e", ir.LONG)
        body = []
        self.copy_string(element(ir.Ref(e)), X.clone(v.char_len), src, m, body, loc)
        loop = counted_loop(e, ir_int(size), body)
        loop.loc = loop.body.loc = loc
        out.append(loop)

    def copy_string(self, dst, n, src, m, out, loc):
        """The n characters at dst set (by statements in out) to the m at src, blanks
        after them (src cut to n)."""
        n, m = _long(n), _long(m)
        n, m = (ir.Ref(self.once(x, "length", out, loc)) if X.has_call(x) or
                isinstance(x, ir.Cond) else x for x in (n, m))
        k = self.temp("k", ir.LONG)
        char = ir.Prim("char")
        value = ir.Cond(ir.Binary("<", ir.Ref(k), m, ir.INT),
                        ir.Index(src, ir.Ref(k), char), ir.Const("' '", char), char)
        out.append(_char_loop(k, n, ir.Index(dst, ir.Ref(k), char), value, loc))

    def string_selector(self, sel_stmt, setup):
        """SELECT CASE (s) on a CHARACTER string: (pointer, length), the length read once."""
        ptr, length = self.string(sel_stmt.items[0], setup)
        if X.has_call(length):
            length = ir.Ref(self.once(length, "selector_length", setup, self.loc(sel_stmt)))
        return ptr, length


def _char_loop(k, n, target, value, loc):
    """for (k = 0; k < n; k++) target = value; (k a long counter)."""
    return ir.For([ir.Assign(ir.Ref(k), ir_int(0), loc)], ir.Binary("<", ir.Ref(k), n, ir.INT),
                  [ir.Assign(ir.Ref(k), ir.Binary("+", ir.Ref(k), ir_int(1), ir.LONG), loc)],
                  ir.Block([ir.Assign(target, value, loc)]), loc)


def _longest(a, b):
    """The larger of two int expressions (folded when both are constants)."""
    if const_int(a) is not None and const_int(b) is not None:
        return ir_int(max(const_int(a), const_int(b)))
    return ir.Call("adgen_imax", [a, b], ir.LONG)


def _long(e):
    """An integer expression as a long (a length or a position in a string), constants
    as they are."""
    return e if const_int(e) is not None else convert_to(e, ir.LONG)


def _concatenated(node):
    """The operands of a // b // ..., in order."""
    if type(node).__name__ == "Level_3_Expr":
        return _concatenated(node.items[0]) + _concatenated(node.items[2])
    return [node]
