"""Initializers of C declarations (InitializersMixin of the C front end): lists, with
brace elision and designators, lowered to assignments of a local's elements and fields,
and the C text of a global's or static local's initializer."""
from pycparser import c_ast

from adgen import ir
from adgen.errors import AdgenError
from adgen.frontend.c_strings import is_string, string_array_init


def _static_locals_renamed(gen, init, scope):
    """The C text of init (gen: pycparser's generator) with the static locals it names
    under their names at file scope, where the output defines them (`static cilist io =
    {0, 6, 0, fmt_100, 0};` of f2c names the format string declared before it)."""
    renamed = []
    for node in _ids(init):
        sym = scope.lookup(node.name) if scope is not None else None
        if isinstance(sym, ir.Symbol) and getattr(sym, "static_local", False):
            renamed.append((node, node.name))
            node.name = sym.name
    try:
        return gen.visit(init)
    finally:
        for node, name in renamed:      # the program's AST as it was
            node.name = name


def _ids(node):
    """The identifiers node names (not the fields after `.` or `->`)."""
    if isinstance(node, c_ast.ID):
        yield node
    for name, child in node.children():
        if not (isinstance(node, c_ast.StructRef) and name == "field"):
            yield from _ids(child)


class InitializersMixin:
    def init_text(self, init, t, scope):
        """The C text of the initializer of a variable of type t, kept as it is but for a
        list: that one fully braced, the fields it leaves out of a struct given as 0 (the
        output compiles cleanly with -Wall -Wextra whatever braces the input elides)."""
        r = t.resolved()
        if not isinstance(init, c_ast.InitList):
            return _static_locals_renamed(self.gen, init, scope)
        if not isinstance(r, (ir.Arr, ir.Struct)) or \
                any(isinstance(x, c_ast.NamedInitializer) for x in init.exprs):
            return "{" + self.gen.visit(init) + "}"
        if isinstance(r, ir.Arr) and r.size is None:
            r = ir.Arr(r.elem, ir.Const(str(self.list_length(r.elem, init.exprs, scope)),
                                        ir.INT))
        return self.braced_text(r, init.exprs, 0, scope)[0]

    def braced_text(self, r, items, pos, scope):
        """(text, position after) of the braced list setting an array or struct of type r
        from items[pos:], as fill reads them."""
        parts = []
        for k in range(self.subobject_count(r, None)):
            st = r.sdef.fields[k][1] if isinstance(r, ir.Struct) else r.elem
            if pos >= len(items):
                if isinstance(r, ir.Arr):
                    break
                parts.append("{0}" if isinstance(st.resolved(), (ir.Arr, ir.Struct)) else "0")
            elif self.elided(items[pos], st, scope):
                text, pos = self.braced_text(st.resolved(), items, pos, scope)
                parts.append(text)
            else:
                parts.append(self.init_text(items[pos], st, scope))
                pos += 1
        return "{" + ", ".join(parts) + "}", pos

    def initialise(self, target, t, init, scope, out, loc):
        r = t.resolved()
        if isinstance(init, c_ast.InitList) and \
                any(isinstance(x, c_ast.NamedInitializer) for x in init.exprs):
            return self.designated(target, r, init, scope, out, loc)
        if isinstance(init, c_ast.InitList):
            # what the list leaves out is zero, as C has it (a declaration in a loop body
            # sets it again on every iteration)
            if isinstance(r, (ir.Arr, ir.Struct)):
                if self.fill(target, r, init.exprs, 0, scope, out, loc) < len(init.exprs):
                    raise AdgenError("too many values in an initializer list", loc)
                return
            if len(init.exprs) == 1:
                return self.initialise(target, t, init.exprs[0], scope, out, loc)
            raise AdgenError("unsupported initializer", loc)
        if isinstance(r, ir.Arr) and is_string(init):
            out.extend(string_array_init(target, r, init.value, loc))
            return
        pre, post = [], []
        stored = self.function_value(init, scope, loc, pre, post) \
            if isinstance(r, ir.FuncPtr) else None
        if stored is not None:
            out.extend(pre)
            out.append(ir.Assign(target, stored, loc))
            out.extend(post)
            return
        value = self.expr(init, scope, pre, post)
        out.extend(pre)
        out.append(ir.Assign(target, self.convert(value, t), loc))
        out.extend(post)

    def fill(self, target, r, items, pos, scope, out, loc):
        """Sets the array or struct target (of type r) from items[pos:], its elements or
        fields in order, zero those the items do not reach; returns the position of the
        first item left. An item that is no list for an element or field that is an array
        or struct (but a struct given whole) starts its own elements: C's brace elision
        (`struct {double a[3]; double b;} s = {0}`, `double m[2][2] = {1, 2, 3, 4}`)."""
        for k in range(self.subobject_count(r, loc)):
            sub, st = self.place(target, r, k, loc)[:2]
            if pos >= len(items):
                if isinstance(r, ir.Arr):
                    self.zero_elements(target, r, k, out, loc)
                    break
                self.zero(sub, st, out, loc)
            elif self.elided(items[pos], st, scope):
                pos = self.fill(sub, st.resolved(), items, pos, scope, out, loc)
            else:
                self.initialise(sub, st, items[pos], scope, out, loc)
                pos += 1
        return pos

    def subobject_count(self, r, loc):
        """How many fields or elements the struct or array type r has."""
        if isinstance(r, ir.Struct):
            return len(r.sdef.fields)
        size = self.int_constant(r.size) if r.size is not None else None
        if size is None:
            raise AdgenError("an initializer list for an array whose size is not a constant",
                             loc)
        return size

    def elided(self, item, t, scope):
        """True when item, in a list, starts the elements of an array or struct of type t
        without braces of its own (not a list, nor a struct variable given whole)."""
        r = t.resolved()
        if isinstance(item, c_ast.InitList) or not isinstance(r, (ir.Arr, ir.Struct)) or \
                isinstance(r, ir.Arr) and is_string(item):    # a char array's characters
            return False
        if isinstance(r, ir.Struct) and isinstance(item, (c_ast.ID, c_ast.StructRef,
                                                          c_ast.ArrayRef)):
            return not self.expr(item, scope, [], []).type.resolved().is_struct
        if isinstance(r, ir.Struct) and isinstance(item, c_ast.CompoundLiteral):
            return not self.type_of(item.type, scope).resolved().is_struct
        return True

    def list_length(self, elem, items, scope, loc=None):
        """How many elements of type elem a list of items sets (an array of unknown size
        declared with it), brace elision and designators counted."""
        top = ir.Arr(elem, None)
        return max((path[0] + 1 for path, _, _ in self.designations(top, items, scope, loc)),
                   default=0)

    def designated(self, target, r, init, scope, out, loc):
        """An initializer list with designators (`{.k = 2.0, [3] = x}`): the whole object
        zero, then each item at its place (designations)."""
        if not isinstance(r, (ir.Arr, ir.Struct)):
            raise AdgenError("a designated initializer for a scalar", loc)
        self.zero(target, r, out, loc)
        for path, t, value in self.designations(r, init.exprs, scope, loc):
            elem, et = target, r
            for k in path:
                elem, et = self.place(elem, et.resolved(), k, loc)[:2]
            self.initialise(elem, t, value, scope, out, loc)

    def designations(self, r, items, scope, loc):
        """[(path, type, item)]: the subobject of an object of type r each item of its list
        sets, as the indices of fields and elements from the outermost in, and its type.
        As C has it (C99 6.7.8p17-20): the items fill the current object in order; a
        designator (`.in.a`, `[0][1]`) makes the aggregate holding what it names the current
        object, so the items after it go on inside that aggregate (`{.v[1] = x, y}` sets
        v[2] = y), and one that is full gives way to the aggregate around it. An item that
        is no list for an aggregate starts its subobjects (brace elision). r may be an
        array of unknown size (list_length)."""
        # the current object and those around it, outermost first, each with the index
        # of its subobject the next item sets
        stack = [[r, 0]]
        placed = []
        for item in items:
            value = item
            if isinstance(item, c_ast.NamedInitializer):
                del stack[1:]
                for depth, d in enumerate(item.name):
                    k = self.designator_index(stack[-1][0], d, scope, loc)
                    stack[-1][1] = k
                    if depth < len(item.name) - 1:
                        stack.append([self.subobject_type(stack[-1][0], k).resolved(), 0])
                value = item.expr
            while True:
                current, k = stack[-1]
                if k >= self.subobject_limit(current, loc):
                    if len(stack) == 1:
                        raise AdgenError("too many values in an initializer list", loc)
                    stack.pop()
                    stack[-1][1] += 1
                    continue
                t = self.subobject_type(current, k)
                if self.elided(value, t, scope):
                    stack.append([t.resolved(), 0])
                    continue
                placed.append(([k for _, k in stack], t, value))
                stack[-1][1] += 1
                break
        return placed

    def subobject_limit(self, r, loc):
        """How many fields or elements the struct or array type r has; no limit for an
        array of unknown size."""
        if isinstance(r, ir.Arr) and r.size is None:
            return float("inf")
        return self.subobject_count(r, loc)

    @staticmethod
    def subobject_type(r, k):
        """The type of field or element k of the struct or array type r."""
        return r.sdef.fields[k][1] if isinstance(r, ir.Struct) else r.elem

    def designator_index(self, r, d, scope, loc):
        """The index of the field or element one designator (`.k`, `[3]`) names in an
        object of type r."""
        if type(d).__name__ == "ArrayDesignator":
            d = d.expr      # `[3]` as newer pycparsers give it (older ones: the index alone)
        if isinstance(d, c_ast.ID) and isinstance(r, ir.Struct):
            names = [f for f, _ in r.sdef.fields]
            if d.name not in names:
                raise AdgenError(f"no field '{d.name}' to initialize", loc)
            return names.index(d.name)
        if not isinstance(d, c_ast.ID) and isinstance(r, ir.Arr):
            k = self.int_constant(self.expr(d, scope))
            if k is None:
                raise AdgenError("an array designator that is not a constant", loc)
            if k < 0 or k >= self.subobject_limit(r, loc):
                raise AdgenError(f"the array designator [{k}] is outside the array", loc)
            return k
        raise AdgenError("unsupported designator in an initializer", loc)

    def place(self, target, r, k, loc):
        """(element, its type, k): field or element k of target, of type r."""
        if isinstance(r, ir.Struct):
            if k >= len(r.sdef.fields):
                raise AdgenError("too many values in an initializer list", loc)
            fname, ftype = r.sdef.fields[k]
            return ir.Member(target, fname, False, ftype, loc), ftype, k
        size = self.int_constant(r.size) if r.size is not None else None
        if size is not None and k >= size:
            raise AdgenError("too many values in an initializer list", loc)
        return ir.Index(target, ir.Const(str(k), ir.INT), r.elem, loc), r.elem, k

    def zero(self, target, t, out, loc):
        """target = 0, element by element and field by field."""
        r = t.resolved()
        if isinstance(r, ir.Arr):
            self.zero_elements(target, r, 0, out, loc)
        elif isinstance(r, ir.Struct):
            for fname, ftype in r.sdef.fields:
                self.zero(ir.Member(target, fname, False, ftype, loc), ftype, out, loc)
        else:
            out.append(ir.Assign(target, self.convert(ir.Const("0", ir.INT), t), loc))

    def zero_elements(self, target, r, first, out, loc):
        """Elements first.. of the array target (of type r) set to 0: one by one when they
        are few, else by a loop."""
        size = self.int_constant(r.size) if r.size is not None else None
        if size is None:
            raise AdgenError("an initializer list for an array whose size is not a constant",
                             loc)
        if size - first <= 4:
            for k in range(first, size):
                self.zero(ir.Index(target, ir.Const(str(k), ir.INT), r.elem, loc), r.elem,
                          out, loc)
            return
        k = self.hidden_local("k", ir.INT, loc)
        body = []
        self.zero(ir.Index(target, ir.Ref(k, loc), r.elem, loc), r.elem, body, loc)
        out.append(ir.For([ir.Assign(ir.Ref(k, loc), ir.Const(str(first), ir.INT), loc)],
                          ir.Binary("<", ir.Ref(k, loc), ir.Const(str(size), ir.INT),
                                    ir.INT, loc),
                          [ir.Assign(ir.Ref(k, loc), ir.Binary(
                              "+", ir.Ref(k, loc), ir.Const("1", ir.INT), ir.INT, loc), loc)],
                          ir.Block(body), loc))
