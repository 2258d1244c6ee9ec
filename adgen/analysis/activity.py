"""Memory model and activity analysis.

Memory is abstracted as nodes of a points-to graph built by unification (Steensgaard):
every variable has a node (for an array, all its elements); a pointer's node has a
`pointee`; a struct's node has one node per field. Pointer assignments, struct copies and
argument passing unify nodes, so aliases (`p = x + k`, a swap of two buffers, `&x[i*d]`
passed to a callee) share their node. The analysis is flow- and context-insensitive: a
node is active everywhere if it is active anywhere. That over-approximates activity,
which costs some work but never a derivative.

Activity: a node is *varied* when it depends (differentiably) on an independent, *useful*
when a dependent depends on it, *active* when both, plus the head's named independents and
dependents themselves (they always get derivatives). A node *needs a shadow* when it is
active or holds pointers (or fields) leading to something active.
"""
from adgen import ir
from adgen.analysis.extent import field_expr
from adgen.analysis.loops import bodies_fixed
from adgen.errors import AdgenError
from adgen.ir import own_stack
from adgen.rules import LIBRARY_FUNCTIONS, MPI_NETWORK


class Node:
    __slots__ = ("parent", "pointee", "fields", "label", "uid")
    _count = 0

    def __init__(self, label):
        self.parent = None
        self.pointee = None
        self.fields = {}
        self.label = label
        Node._count += 1
        self.uid = Node._count

    def __repr__(self):
        return f"<node {self.label}>"


def reachable_nodes(nodes):
    """The nodes, and every node their pointees and fields lead to."""
    seen = set()
    todo = [find(n) for n in nodes]
    while todo:
        n = find(todo.pop())
        if n in seen:
            continue
        seen.add(n)
        if n.pointee is not None:
            todo.append(n.pointee)
        todo += list(n.fields.values())
    return seen


def field_closure(node):
    """node and the nodes of its fields, at any depth: the memory of one variable (a
    struct's members, those of an array of structs) that the points-to graph tells apart,
    kept together as the whole variable."""
    out, todo = set(), [find(node)]
    while todo:
        n = todo.pop()
        if n not in out:
            out.add(n)
            todo += [find(f) for f in n.fields.values()]
    return out


def find(n):
    while n.parent is not None:
        if n.parent.parent is not None:
            n.parent = n.parent.parent
        n = n.parent
    return n


class Memory:
    """The points-to graph of a program."""

    def __init__(self, prog):
        self.prog = prog
        self.var_nodes = {}
        self.ret_nodes = {}
        self.heap_blocks = []       # the nodes of malloc'd blocks, as created
        self.const_nodes = []       # what constant pointers (null, a string) point to
        self.version = 0            # changes whenever the graph does (for caches)
        # changes when nodes already made change (a field added, a pointee set, two nodes
        # unified); not when a new variable gets its node, nor a pointer its first pointee
        self.shape = 0
        # pointees made: with shape, what changes the links between nodes already made (a
        # new variable's node, a new heap block, links nothing until one of those changes)
        self.pointees = 0
        self._held = None           # ((shape, pointees), held_pointees())
        self._own = {}              # function name -> (function, key, own_nodes(function))
        self._owners = None     # (key, owner_counts, the functions, as given) of the last call

    # --------------------------------------------------------------- node access
    def var(self, sym):
        n = self.var_nodes.get(sym)
        if n is None:
            n = self.var_nodes[sym] = Node(sym.name)
            self.version += 1
        return find(n)

    def ret(self, fname):
        n = self.ret_nodes.get(fname)
        if n is None:
            n = self.ret_nodes[fname] = Node(f"{fname}()")
            self.version += 1
        return find(n)

    def pointee(self, n):
        n = find(n)
        if n.pointee is None:
            n.pointee = Node(f"*{n.label}")
            self.version += 1
            self.pointees += 1
        return find(n.pointee)

    def point_to(self, n, target):
        """Make pointer memory n point to target (a pointer the transform adds)."""
        find(n).pointee = find(target)
        self.version += 1
        self.shape += 1

    def field(self, n, name):
        n = find(n)
        f = n.fields.get(name)
        if f is None:
            f = n.fields[name] = Node(f"{n.label}.{name}")
            self.version += 1
            self.shape += 1
        return find(f)

    def not_named(self):
        """Memory that variables do not name by themselves: heap blocks, and what pointers
        held in memory (array elements, struct fields, pointees) point to. Such memory
        cannot be kept by copying the variables' arrays."""
        return {find(b) for b in self.heap_blocks} | self.held_pointees()

    def own_nodes(self, func):
        """The memory of func's parameters and local variables (their fields, an array's
        elements) and what its local pointers point to: func's own while it runs. Read
        once per shape of the graph (a caller's question, asked at each of its calls)."""
        key = (self.shape, tuple(func.locals), tuple(func.params))
        known = self._own.get(func.name)
        if known is not None and known[0] is func and known[1] == key:
            return known[2]
        out = set()
        for sym in list(func.locals) + list(func.params):
            out |= field_closure(self.var(sym))
            if isinstance(sym.type.resolved(), ir.Ptr) and sym in func.locals:
                out.add(find(self.pointee(self.var(sym))))
        out = frozenset(out)
        self._own[func.name] = (func, key, out)     # (a new pointee left the shape as is)
        return out

    def owner_counts(self, functions):
        """{node: how many of functions hold it among their own_nodes}, kept while each
        function's own_nodes stays the same: while the shape, the functions and their
        numbers of variables do (each caller's call asks, with every function of the
        program: checking each function's own_nodes would make that quadratic)."""
        last = self._owners
        if last is not None and functions is last[3] and last[0][0] == self.shape and \
                isinstance(functions, tuple) and bodies_fixed():
            return last[1]      # the same functions, whose variables stay as they are
        key = (self.shape, tuple(map(id, functions)),
               tuple(len(h.locals) + len(h.params) for h in functions))
        if self._owners is None or self._owners[0] != key:
            owned = [self.own_nodes(h) for h in functions]
            counts = {}
            for nodes in owned:
                for n in nodes:
                    counts[n] = counts.get(n, 0) + 1
            # (functions keeps the ids in the key valid)
            self._owners = (key, counts, list(functions), functions)
        else:
            self._owners = self._owners[:3] + (functions,)
        return self._owners[1]

    def held_pointees(self):
        """What pointers held in memory (array elements, struct fields, pointees) point to."""
        # (the same while the links are: the pointees of the nodes the holders reach)
        if self._held is None or self._held[0] != (self.shape, self.pointees):
            self._held = ((self.shape, self.pointees), frozenset(self._held_pointees()))
        return self._held[1]

    def _held_pointees(self):
        holders = []        # memory that holds pointers, not being a pointer variable
        for sym, v in self.var_nodes.items():
            v = find(v)
            holders += list(v.fields.values())
            if isinstance(sym.type.resolved(), ir.Arr):
                holders.append(v)
            elif v.pointee is not None:
                holders.append(v.pointee)
        return {find(n.pointee) for n in reachable_nodes(holders) if n.pointee is not None}

    def unify(self, a, b):
        a, b = find(a), find(b)
        if a is b:
            return a
        self.version += 1
        self.shape += 1
        b.parent = a
        pa, pb = a.pointee, b.pointee
        fa, fb = a.fields, b.fields
        a.fields = dict(fa)
        if pa is None:
            a.pointee = pb
        elif pb is not None:
            self.unify(pa, pb)
        for k, v in fb.items():
            if k in a.fields:
                self.unify(a.fields[k], v)
            else:
                a.fields[k] = v
        return find(a)

    # ---------------------------------------------------------------- expressions
    def loc(self, e):
        """The node of the storage an lvalue expression names."""
        if isinstance(e, ir.Ref):
            return self.var(e.sym)
        if isinstance(e, ir.Index):
            return self.target(e.base)
        if isinstance(e, ir.Deref):
            return self.target(e.ptr)
        if isinstance(e, ir.Member):
            base = self.target(e.base) if e.arrow else self.loc(e.base)
            return self.field(base, e.field)
        if isinstance(e, ir.Call):
            return self.ret(e.func)
        if isinstance(e, ir.Cond):
            return self.unify(self.loc(e.then), self.loc(e.other))
        if isinstance(e, ir.Cast):
            return self.loc(e.arg)
        return Node("rvalue")

    def target(self, e):
        """The node a pointer-valued (or array-valued) expression points into."""
        t = e.type.resolved() if e.type is not None else None
        if isinstance(e, ir.Ref) and isinstance(t, ir.Arr):
            return self.var(e.sym)
        if isinstance(t, ir.Arr) and isinstance(e, (ir.Index, ir.Member, ir.Deref)):
            return self.loc(e)                       # a row of a 2-D array, an array field
        if isinstance(e, ir.Binary) and e.op in "+-":
            lt = e.left.type.resolved()
            return self.target(e.left if isinstance(lt, (ir.Ptr, ir.Arr)) else e.right)
        if isinstance(e, ir.AddrOf):
            return self.loc(e.arg)
        if isinstance(e, ir.Cast):
            return self.target(e.arg)
        if isinstance(e, ir.Cond):
            return self.unify(self.target(e.then), self.target(e.other))
        if isinstance(e, ir.Call):
            lib = LIBRARY_FUNCTIONS.get(e.func)
            if lib is not None and lib.kind == "alloc" and self.prog.functions.get(e.func) is None \
                    or getattr(self.prog.functions.get(e.func), "is_library", False):
                block = Node(f"heap@{e.loc.line if e.loc else 0}")
                self.heap_blocks.append(block)
                self.version += 1
                return block
            return self.pointee(self.ret(e.func))
        if isinstance(e, ir.Const):
            n = Node("const")
            self.const_nodes.append(n)
            return n
        return self.pointee(self.loc(e))

    def only_constant(self, node):
        """True when node is memory that only constant pointers reach (a null pointer
        passed for an OPTIONAL argument, a string): no variable's storage."""
        return find(node) in {find(n) for n in self.const_nodes}


class Activity:
    """Activity of every node for a set of heads (independents and dependents)."""

    def __init__(self, prog, memory, functions, inactive=()):
        self.prog = prog
        self.mem = memory
        self.functions = functions          # names of the functions analysed
        self.inactive = set(inactive)       # external functions whose results are constants
        self.edges = []                     # (dst node, src node): dst depends on src
        self.indep = []
        self.dep = []
        self.active = set()
        self.shadowed = set()

    # --------------------------------------------------------------- constraints
    def build(self):
        """Unify aliases (first pass), then record the differentiable data flow."""
        for name in self.functions:
            self._walk(self.prog.functions[name], self._unify_stmt)
        for name in self.functions:
            self._walk(self.prog.functions[name], self._flow_stmt)
            f = self.prog.functions[name]
            if getattr(f, "result", None) is not None:
                self._flow_assign_nodes(self.mem.ret(f.name), f.result.type,
                                        [self.mem.var(f.result)])
                if f.result.type.resolved().is_pointer or f.result.type.resolved().is_struct:
                    self.mem.unify(self.mem.ret(f.name), self.mem.var(f.result))

    def _walk(self, f, visit):
        for s in ir.stmts_walk(f.body.stmts):
            visit(f, s)

    def _unify_stmt(self, f, s):
        m = self.mem
        moved = own_stack.pushed(s)
        moved = own_stack.popped(s) if moved is None else moved
        if moved is not None and moved.type.resolved().is_pointer:
            # pointers saved on adgen's stack and restored point where they pointed
            m.unify(m.pointee(m.var(own_stack.STACK)), m.target(moved))
            return
        if moved is not None and moved.type.resolved().is_struct:
            m.unify(m.var(own_stack.struct_stack(moved.type)), m.loc(moved))
            return
        if isinstance(s, ir.Assign):
            t = s.lhs.type.resolved()
            if isinstance(t, ir.Ptr):
                m.unify(m.pointee(m.loc(s.lhs)), m.target(s.rhs))
            elif isinstance(t, ir.Struct):
                m.unify(m.loc(s.lhs), m.loc(s.rhs))
            if isinstance(s.rhs, ir.Call):
                self._unify_call(s.rhs)
        elif isinstance(s, ir.ExprStmt) and isinstance(s.expr, ir.Call):
            self._unify_call(s.expr)
        for e in ir.stmt_exprs(s):
            for sub in ir.walk(e):
                if isinstance(sub, ir.Call) and sub is not getattr(s, "rhs", None) and \
                        sub is not getattr(s, "expr", None):
                    self._unify_call(sub)

    def _unify_call(self, call):
        m = self.mem
        g = self.prog.functions.get(call.func)
        # A ruled function has no body: what it reads and writes is its arguments' memory
        # at each call (ruled_call_arrays, below); unifying them with its parameters
        # would make one memory of the arrays given to it anywhere in the program.
        if g is None or getattr(g, "is_library", False) or not g.has_body:
            if call.func in ("memcpy", "memmove"):
                m.unify(m.target(call.args[0]), m.target(call.args[1]))
            return
        for p, a in zip(g.params, call.args):
            t = p.type.resolved()
            if isinstance(t, (ir.Ptr, ir.Arr)):
                m.unify(m.pointee(m.var(p)), m.target(a))
            elif isinstance(t, ir.Struct):
                m.unify(m.var(p), m.loc(a))

    def _flow_stmt(self, f, s):
        m = self.mem
        value = own_stack.pushed(s)
        if value is not None:
            # adgen's value stack, in its own output read again: one variable
            if not value.type.resolved().is_struct:     # (structs: _unify_stmt)
                self._flow_assign_nodes(m.var(own_stack.STACK), own_stack.STACK.type,
                                        self.reads(value))
            return
        call = s.rhs if isinstance(s, ir.Assign) else getattr(s, "expr", None)
        if isinstance(call, ir.Call) and self._ruled(call.func):
            self._flow_ruled_call(call)
            if isinstance(s, ir.Assign):
                self._flow_assign_nodes(m.loc(s.lhs), s.lhs.type, [m.ret(call.func)])
            return
        if isinstance(s, ir.Assign):
            if isinstance(s.rhs, ir.Call) and self._is_user(s.rhs.func):
                self._flow_call(s.rhs)
                self._flow_assign_nodes(m.loc(s.lhs), s.lhs.type, [m.ret(s.rhs.func)])
            else:
                self._flow_assign_nodes(m.loc(s.lhs), s.lhs.type, self.reads(s.rhs))
        elif isinstance(s, ir.ExprStmt) and isinstance(s.expr, ir.Call) and \
                self._is_user(s.expr.func):
            self._flow_call(s.expr)

    def _flow_assign_nodes(self, dst, t, srcs):
        if not ir.base_float(t) and not t.resolved().is_struct:
            return
        for src in srcs:
            self.edges.append((dst, src))

    def _flow_call(self, call):
        g = self.prog.functions[call.func]
        for p, a in zip(g.params, call.args):
            if p.type.resolved().is_float:
                for src in self.reads(a):
                    self.edges.append((self.mem.var(p), src))

    def _ruled(self, name):
        g = self.prog.functions.get(name)
        return g is not None and getattr(g, "user_rule", None) is not None

    def _flow_ruled_call(self, call):
        """A ruled function's outputs depend on its inputs (frontend/user_rules.py)."""
        g = self.prog.functions[call.func]
        rule = g.user_rule
        srcs = []
        for p, a in zip(g.params, call.args):
            if p.name in rule.indep:
                srcs += [self.mem.target(a)] if p.type.resolved().is_pointer \
                    else self.reads(a)
        dsts = ruled_call_arrays(self.mem, g, call, written=True)
        if g.name in rule.dep:
            dsts.append(self.mem.ret(g.name))
        for d in dsts:
            for src in srcs:
                self.edges.append((d, src))
        if rule.communicates:
            # every buffer of a message both ways with the network (rules.MPI_NETWORK)
            network = self.mem.ret(MPI_NETWORK)
            for p, a in zip(g.params, call.args):
                if rule.named(p.name) and p.type.resolved().is_pointer:
                    n = self.mem.target(a)
                    self.edges += [(network, n), (n, network)]

    def _is_user(self, name):
        g = self.prog.functions.get(name)
        return g is not None and not getattr(g, "is_library", False) and g.has_body

    def reads(self, e):
        """Nodes whose values flow differentiably into expression e."""
        return [self.mem.loc(x) for x in self.read_exprs(e)]

    def read_exprs(self, e):
        """The lvalues whose values flow differentiably into expression e."""
        out = []
        self._reads(e, out)
        return out

    def _reads(self, e, out, spans=None):
        start = len(out)
        try:
            self._reads_of(e, out, spans)
        finally:
            if spans is not None:   # (active_parts)
                spans[id(e)] = (e, start, len(out))

    def _reads_of(self, e, out, spans):
        t = e.type.resolved() if e.type is not None else None
        if isinstance(e, (ir.Ref, ir.Index, ir.Member, ir.Deref)):
            if t is not None and (t.is_float or t.is_struct):
                out.append(e)
            return
        if isinstance(e, ir.Binary):
            if e.op in ir.COMPARISONS or e.op in ir.LOGICAL or not (t and t.is_float):
                return
            self._reads(e.left, out, spans)
            self._reads(e.right, out, spans)
        elif isinstance(e, ir.Unary):
            if e.op in "-+":
                self._reads(e.arg, out, spans)
        elif isinstance(e, ir.Cast):
            if t is not None and t.is_float:
                self._reads(e.arg, out, spans)
        elif isinstance(e, ir.Cond):
            self._reads(e.then, out, spans)
            self._reads(e.other, out, spans)
        elif isinstance(e, ir.Call):
            lib = LIBRARY_FUNCTIONS.get(e.func)
            if e.func == own_stack.POPPED:
                if t is not None and t.is_float:    # (structs: _unify_stmt)
                    out.append(ir.Ref(own_stack.STACK))
                return
            if e.func in self.inactive:
                return          # --inactive: a constant, whatever its rule
            if lib is not None and lib.kind == "math":
                for k, a in enumerate(e.args):
                    if k < len(lib.partials) and lib.partials[k] is not None:
                        self._reads(a, out, spans)
            elif lib is None and t is not None and t.is_float and e.func not in self.inactive \
                    and getattr(self.prog.functions.get(e.func), "is_library", False):
                # a library function with no rule: its value may depend on its arguments,
                # and differentiating it must be an error, not a zero
                for a in e.args:
                    self._reads(a, out, spans)

    # ------------------------------------------------------------------ solving
    def solve(self, indep_nodes, dep_nodes):
        fwd, bwd = {}, {}
        for dst, src in self.edges:
            d, s = find(dst), find(src)
            fwd.setdefault(s, set()).add(d)
            bwd.setdefault(d, set()).add(s)
        indep = {find(n) for n in indep_nodes}
        dep = {find(n) for n in dep_nodes}
        varied = _closure(indep, fwd)
        useful = _closure(dep, bwd)
        self.active = (varied & useful) | indep | dep
        self.varied, self.useful = varied, useful
        self._shadow_cache = {}

    def is_active(self, node):
        return find(node) in self.active

    def needs_shadow(self, node, seen=None):
        node = find(node)
        cached = self._shadow_cache.get(node)
        if cached is not None:
            return cached
        top = seen is None
        seen = set() if top else seen
        if node in seen:
            return False
        seen.add(node)
        result = node in self.active
        if not result and node.pointee is not None:
            result = self.needs_shadow(node.pointee, seen)
        if not result:
            result = any(self.needs_shadow(f, seen) for f in node.fields.values())
        if result:
            self._shadow_cache[node] = True
        elif top:
            # no active memory is reachable from node, so none from the nodes the search
            # passed; below the top, False is not final: a node met again on a cycle (a
            # struct's field pointing to a struct of its type) was cut short there
            for n in seen:
                self._shadow_cache[n] = False
        return result

    def computes_in_single(self, functions):
        """Whether a single-precision value lies on the way from the independents to the
        dependents in these functions: an active assignment or returned value that holds
        or computes a float (not a default-real literal in double code, `2.0 * u(i)`).
        Finite differences then need float's step and tolerance, whatever the types of
        the independents and dependents; a float the derivatives do not see (an error
        estimate of a set-up routine) does not count."""
        def single(e):
            return any(not isinstance(x, ir.Const) and getattr(x, "type", None) is not None
                       and getattr(x.type.resolved(), "name", None) == "float"
                       for x in ir.walk(e))
        for name in functions:
            f = self.prog.functions[name]
            returns = self.ret_active(f)
            for st in ir.stmts_walk(f.body.stmts):
                if isinstance(st, ir.Assign) and self.active_value(st.lhs) and \
                        (single(st.lhs) or single(st.rhs)):
                    return True
                if isinstance(st, ir.Return) and st.value is not None and returns and \
                        single(st.value):
                    return True
        return False

    # ---------------------------------------------------------- expression queries
    def active_value(self, e):
        """True when e is a float lvalue whose storage is active."""
        t = e.type.resolved()
        return t.is_float and ir.is_lvalue(e) and self.is_active(self.mem.loc(e))

    def has_shadow(self, e):
        """True when expression e (a variable, pointer, array or struct) has a shadow."""
        t = e.type.resolved()
        if t.is_float:
            return ir.is_lvalue(e) and self.is_active(self.mem.loc(e))
        if isinstance(t, (ir.Ptr, ir.Arr)):
            if ir.is_lvalue(e) and isinstance(t, ir.Ptr):
                return self.needs_shadow(self.mem.loc(e))
            return self.needs_shadow(self.mem.target(e))
        if isinstance(t, ir.Struct):
            return ir.is_lvalue(e) and self.needs_shadow(self.mem.loc(e))
        return False

    def ret_active(self, func):
        """True when func's result carries a derivative (a float, or a struct with one)."""
        t = func.ret.resolved()
        n = self.mem.ret(func.name)
        if t.is_float:
            return self.is_active(n)
        if t.is_struct:
            return self.needs_shadow(n)
        return False

    def ret_pointer_shadowed(self, func):
        """True when func returns a pointer into memory that has a shadow: its derivative
        routines return that pointer's shadow too (through an extra argument)."""
        t = func.ret.resolved()
        return isinstance(t, ir.Ptr) and self.needs_shadow(self.mem.ret(func.name))

    def ret_struct_pointers(self, func):
        """True when func returns a struct holding pointers into memory that has a shadow:
        its forward sweep returns that struct's shadow too (through an extra argument)."""
        t = func.ret.resolved()
        return t.is_struct and ir.holds_pointers(t) and self.needs_shadow(self.mem.ret(func.name))

    def returns_shadow(self, func):
        """True when func's result leads to memory that has a shadow (a pointer, a struct
        holding pointers): its forward sweep returns that shadow too."""
        return self.ret_pointer_shadowed(func) or self.ret_struct_pointers(func)

    def shadowed_pointer_field(self, sym):
        """The first field (`v`, `inner.v`) of struct variable sym, or of the struct sym
        points to, holding a pointer to memory that needs a shadow; None if there is none.
        A derivative routine cannot make storage for such memory by itself: only the code
        that made the struct knows how large it is."""
        t, node = sym.type.resolved(), self.mem.var(sym)
        if isinstance(t, ir.Ptr):
            t, node = t.target.resolved(), self.mem.pointee(node)
        while isinstance(t, ir.Arr):
            t = t.elem.resolved()

        def search(t, node, prefix):
            for fname, ftype in t.sdef.fields:
                ft, fnode = ftype.resolved(), self.mem.field(node, fname)
                while isinstance(ft, ir.Arr):
                    ft = ft.elem.resolved()
                if isinstance(ft, ir.Ptr) and self.needs_shadow(self.mem.pointee(fnode)):
                    return prefix + fname
                if ft.is_struct:
                    inner = search(ft, fnode, prefix + fname + ".")
                    if inner is not None:
                        return inner
            return None

        return search(t, node, "") if t.is_struct else None

    def sym_has_shadow(self, sym):
        return self.needs_shadow(self.mem.var(sym))

    def active_reads(self, e):
        """The active float lvalues read differentiably in e."""
        return [n for n in self.reads(e) if self.is_active(n)]

    def active_parts(self, e):
        """{id(x): (x, whether active_reads(x) is not empty)} for e and each subexpression
        x of e that reads(e) looks into, in one walk of e (what reads finds in x does not
        depend on where x is)."""
        out, spans = [], {}
        self._reads(e, out, spans)
        before = [0]        # before[k]: how many of out[:k] are active
        for x in out:
            before.append(before[-1] + self.is_active(self.mem.loc(x)))
        return {k: (x, before[end] > before[start]) for k, (x, start, end) in spans.items()}


def _closure(start, graph):
    seen = set(start)
    todo = list(start)
    while todo:
        n = todo.pop()
        for m in graph.get(n, ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def float_struct(t):
    """Whether t points to structs holding floating-point values and no pointers (their
    whole memory is the head's data)."""
    def plain(st):
        st = st.resolved()
        while isinstance(st, ir.Arr):
            st = st.elem.resolved()
        if isinstance(st, ir.Struct):
            kinds = [plain(ft) for _, ft in st.sdef.fields]
            return None if None in kinds else any(kinds)
        if st.is_pointer:
            return None
        return st.is_float

    inner = ir.pointee(t)
    return isinstance(inner.resolved(), ir.Struct) and bool(plain(inner))


def _float_fields(mem, node, t):
    """The nodes of the floating-point values in memory `node` of type t: node itself, or
    for a struct the fields holding them (nested structs included)."""
    t = t.resolved()
    while isinstance(t, ir.Arr):
        t = t.elem.resolved()
    if not isinstance(t, ir.Struct):
        return [node]
    out = []
    for fname, ftype in t.sdef.fields:
        # (a field holding an array of structs: `struct body b[2]`)
        if ir.base_float(ftype) or float_struct(ir.Ptr(ir.array_element(ftype))):
            out += _float_fields(mem, mem.field(node, fname), ftype)
    return out


def struct_with_pointers(t):
    """True when t is a struct holding pointers, or a pointer to one (a handle: `Mesh *m`
    with `double *x` in it). As an independent or dependent, its derivative is a struct of
    the same type whose pointer fields point to the derivatives of what they point to."""
    t = t.resolved()
    inner = t.target.resolved() if isinstance(t, ir.Ptr) else t
    return inner.is_struct and ir.holds_pointers(inner)


def row_pointers(t):
    """True when t is a pointer to pointers to numbers (`double **rows`, `double *rows[]`,
    deeper too): an array of row pointers. As an independent or dependent, its derivative
    is an array of row pointers of the same shape, each leading to the derivatives of what
    the primal's row leads to."""
    t = t.resolved()
    return isinstance(t, ir.Ptr) and t.target.resolved().is_pointer and ir.base_float(t)


def handle_fields(p, loc):
    """The parts of a head's parameter p (a struct holding pointers, or a pointer to one
    struct: a handle) that its derivative struct carries derivatives in, walked with the
    field names leading to them. Yields (kind, path): kind 'value' for a
    floating-point field or one of numbers and structs without pointers (an array, a
    nested struct), 'array' for a pointer field to such values, 'handle' for a pointer
    field to a struct holding pointers, whose own parts follow; analysis.extent.field_expr
    builds a part's expression on p or on its derivative."""
    t = p.type.resolved()
    struct = t.target.resolved() if isinstance(t, ir.Ptr) else t

    def walk(struct, path, seen):
        if struct.sdef in seen:
            raise AdgenError(f"'{ir.source_name(p)}': a struct that points to a struct of "
                             "its own type (a linked structure) cannot be an independent "
                             "or a dependent", loc)
        seen = seen + (struct.sdef,)
        for fname, ftype in struct.sdef.fields:
            ft, where = ftype.resolved(), path + (fname,)
            elem = ft
            while isinstance(elem, ir.Arr):
                elem = elem.elem.resolved()
            if isinstance(ft, ir.Ptr):
                target = ft.target.resolved()
                if target.is_pointer and ir.base_float(target):
                    raise AdgenError(f"'{ir.source_name(p)}': its field '{fname}' is a "
                                     "pointer to pointers: it cannot be an independent or a "
                                     "dependent (not supported yet)", loc)
                if target.is_struct and ir.holds_pointers(target):
                    yield "handle", where
                    yield from walk(target, where, seen)
                elif ir.base_float(target) or target.is_struct and float_struct(ir.Ptr(target)):
                    yield "array", where
            elif elem.is_struct and ir.holds_pointers(elem):
                if ft.is_array:
                    raise AdgenError(f"'{ir.source_name(p)}': its field '{fname}' is an array "
                                     "of structs holding pointers: it cannot be an "
                                     "independent or a dependent (not supported yet)", loc)
                yield from walk(elem, where, seen)
            elif elem.is_float or elem.is_struct and float_struct(ir.Ptr(elem)):
                yield "value", where
            elif isinstance(elem, ir.Ptr) and ir.base_float(elem):
                raise AdgenError(f"'{ir.source_name(p)}': its field '{fname}' is an array "
                                 "of pointers: it cannot be an independent or a dependent "
                                 "(not supported yet)", loc)

    yield from walk(struct, (), ())


def head_nodes(mem, func, names, what, loc):
    """Nodes of a head's independents or dependents, by name."""
    nodes = []
    for name in names:
        if name == func.name:
            if what == "independent":
                raise AdgenError(f"the result of '{func.name}' cannot be an independent", loc)
            if not func.ret.resolved().is_float:
                raise AdgenError(f"'{func.name}' does not return a floating-point value", loc)
            nodes.append(mem.ret(func.name))
            continue
        sym = next((p for p in func.params if p.name == name), None)
        if sym is None:
            sym = head_global(mem.prog, func, name, what, loc)
        if sym is None:
            import difflib
            names = [p.name for p in func.params]
            if what == "dependent" and func.ret.resolved().is_float:
                # its return value: by the function's name, or a Fortran RESULT name
                names += [ir.source_name(func)] + [n for n in [getattr(func, "result_name",
                                                                       None)] if n]
            near = difflib.get_close_matches(name, names, n=1)
            raise AdgenError(f"'{name}' is not a parameter of '{func.name}'" +
                             (f"; did you mean '{near[0]}'?" if near else ""), loc)
        t = sym.type.resolved()
        by_value = t.is_float or isinstance(t, ir.Struct) and float_struct(ir.Ptr(t))
        if by_value and what == "dependent" and sym.kind == "param":
            raise AdgenError(f"'{name}' is passed by value: it cannot be a dependent "
                             "(output)", loc)
        if t.is_float:
            nodes.append(mem.var(sym))
        elif by_value:      # a struct of floating-point fields (model parameters)
            nodes += _float_fields(mem, mem.var(sym), t)
        elif isinstance(t, (ir.Ptr, ir.Arr)) and (ir.base_float(t) or float_struct(t)):
            node = mem.var(sym) if isinstance(t, ir.Arr) else mem.pointee(mem.var(sym))
            inner = ir.pointee(t).resolved()
            while isinstance(inner, ir.Arr):        # rows of a 2-D array: double a[n][m]
                inner = inner.elem.resolved()
            while isinstance(inner, ir.Ptr):
                node, inner = mem.pointee(node), inner.target.resolved()
            nodes += _float_fields(mem, node, inner)
        elif struct_with_pointers(t):
            for kind, path in handle_fields(sym, loc):
                e = field_expr(ir.Ref(sym), path)
                if kind == "value" and what == "dependent" and not isinstance(t, ir.Ptr):
                    continue        # the fields of a copy are no output
                if kind == "value":
                    nodes += _float_fields(mem, mem.loc(e), e.type)
                elif kind == "array":
                    nodes += _float_fields(mem, mem.target(e), ir.pointee(e.type))
        else:
            raise AdgenError(f"'{name}' is not floating-point: it cannot be "
                             f"{'an' if what == 'independent' else 'a'} {what}", loc)
    return nodes


def names_global(names, g):
    """Whether a head's list of names names the global g (a Fortran name in any case)."""
    fortran = getattr(g, "fortran_name", None)
    return g.name in names or (fortran is not None and
                               fortran.lower() in {n.lower() for n in names})


def head_global(prog, func, name, what, loc):
    """The global variable a head names as an independent or a dependent (C): its
    derivative is a global of the output, `gx` + b or d, which the caller sets or reads
    around the call. None when no global has that name."""
    g = next((g for g in prog.globals if names_global([name], g) and
              not getattr(g, "is_library", False)), None)
    if g is None:
        return None
    role = "an independent" if what == "independent" else "a dependent"
    if prog.language == "fortran" and (getattr(g, "fortran_dims", None) is None or
                                       getattr(g, "descriptor_size", None) is not None):
        # a COMMON block, a SAVEd local, an allocatable (whose derivative's block the
        # caller could not allocate): no derivative the interface module can declare
        raise AdgenError(f"'{ir.source_name(g)}' is not a dummy argument of "
                         f"'{ir.source_name(func)}': {role} must be a dummy argument"
                         + (" or the result" if what == "dependent" else "") +
                         ", or a module variable that is not allocatable; pass it as an "
                         "argument", loc)
    if g.is_static or getattr(g, "static_local", False):
        raise AdgenError(f"'{ir.source_name(g)}' is a static variable: {role} must be "
                         "a parameter or a global without 'static', whose derivative the "
                         "caller can reach", loc)
    t = g.type.resolved()
    elem = t
    while isinstance(elem, ir.Arr):
        elem = elem.elem.resolved()
    if isinstance(t, ir.Arr) and t.size is None:
        raise AdgenError(f"global array '{g.name}' is declared without its size: declare it "
                         f"with its size to make it {role}", loc)
    if not (elem.is_float or elem.is_struct and float_struct(ir.Ptr(elem)) and
            prog.language == "c"):
        raise AdgenError(f"the global '{g.name}' is not floating-point (nor an array or a "
                         f"struct of floating-point values): it cannot be {role}", loc)
    return g


def library_call_reads(mem, prog, call):
    """The memory nodes a call of a library function reads through its pointer arguments:
    the strings a comparison, a length or a search reads (`adgen_str_cmp(kind, ...)`,
    `strlen(s)`), a copy's source. Running the call again (a procedure in joint mode)
    needs them as the first run saw them."""
    lib = LIBRARY_FUNCTIONS.get(call.func)
    g = prog.functions.get(call.func)
    if lib is None or g is not None and g.has_body and not getattr(g, "is_library", False):
        return []
    args = call.args if lib.kind == "int" else call.args[1:2] \
        if call.func in ("memcpy", "memmove") else []
    return [find(mem.target(a)) for a in args
            if not isinstance(a, ir.Const) and a.type is not None and
            (a.type.resolved().is_pointer or a.type.resolved().is_array)]


def ruled_call_arrays(mem, f, call, written=False):
    """The memory nodes of the arrays a call of ruled function f is given (written=True:
    those it writes, its pointer outputs and those written with no derivative)."""
    rule = f.user_rule
    return [find(mem.target(a)) for p, a in zip(f.params, call.args)
            if p.type.resolved().is_pointer and
            (p.name in rule.dep or p.name in rule.writes or not written)]
