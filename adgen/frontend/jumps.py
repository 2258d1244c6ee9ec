"""Structured control flow from jumps: C's goto, Fortran's GOTO and the EXIT and CYCLE of
an outer named loop.

The front ends leave `Label` and `Goto` markers in a function's statements (Fortran's
EXIT and CYCLE of an outer loop jump to labels after that loop and ending its body);
lower_gotos replaces them with flags, guards and loops, so that nothing after the front
ends sees a jump. One flag per target label and per statement list holding it:

- a forward goto (`goto done;`, the label later in the same list or in a list around
  it) sets its flag; the statements it skips run only while the flag is clear; a loop
  it leaves breaks right after the statement that set it; the label clears it (on entry
  to the list that holds the label, the flags start at zero);
- a backward goto (`again: ... goto again;`) makes the statements from the label to the
  last statement holding a goto back to it a loop, `do { again = 0; ... } while (again)`,
  the goto setting `again` and skipping the rest of the loop's body.

A break or continue inside such a loop, for a loop around it, becomes a flag of its loop
too. Refused, at the goto: a jump into a loop, an if or a block the goto is not in; loops
formed by backward gotos that overlap without nesting; a label defined twice. (A switch
whose cases fall through converts a case's statements once per case running them: the
labels of each further copy are renamed, with the gotos of that copy, by relabel_copy.)"""
from dataclasses import dataclass
from typing import Optional

from adgen import ir
from adgen.errors import AdgenError
from adgen.ir import exprs as X


@dataclass(eq=False)
class Label(ir.Stmt):
    """`name:`, before the statement it labels (the front end's marker)."""
    name: str = ""
    loc: Optional[ir.Loc] = None


@dataclass(eq=False)
class Goto(ir.Stmt):
    """`goto name;` (the front end's marker)."""
    name: str = ""
    loc: Optional[ir.Loc] = None


def lower_gotos(func, new_flag):
    """Replaces the Label and Goto markers in func's body with structured code;
    new_flag(base) makes a fresh int local of the function."""
    markers = [s for s in ir.stmts_walk(func.body.stmts) if isinstance(s, (Label, Goto))]
    if not any(isinstance(s, Goto) for s in markers):
        _drop_labels(func.body.stmts)
        return
    defined = {}
    for s in markers:
        if isinstance(s, Label):
            if s.name in defined:
                raise AdgenError(f"label '{s.name}' is defined twice", s.loc)
            defined[s.name] = s
    for s in markers:
        if isinstance(s, Goto) and s.name not in defined:
            raise AdgenError(f"goto '{s.name}': no such label in '{func.name}'", s.loc)
    targets = {s.name for s in markers if isinstance(s, Goto)}
    _Lowering(targets, new_flag).into(func.body)


def relabel_copy(stmts, taken, suffix):
    """Renames the labels stmts define whose names are in taken (labels of another copy
    of the same statements), and the gotos in stmts to them: `name` becomes `name_suffix`
    (with a number added if that is taken too). Adds the labels stmts define to taken."""
    markers = [s for s in ir.stmts_walk(stmts) if isinstance(s, (Label, Goto))]
    renamed = {}
    for s in markers:
        if isinstance(s, Label) and s.name in taken and s.name not in renamed:
            new, k = f"{s.name}_{suffix}", 1
            while new in taken or new in renamed.values():
                new, k = f"{s.name}_{suffix}_{k}", k + 1
            renamed[s.name] = new
    for s in markers:
        s.name = renamed.get(s.name, s.name)
    taken.update(s.name for s in markers if isinstance(s, Label))


# the flags of a loop's own break and continue (see _Lowering.loop_jump)
_BREAK, _CONTINUE = object(), object()
_FLAG_NAMES = {_BREAK: "brk", _CONTINUE: "cont"}


class _Frame:
    """A statement list being lowered: its flags (target label -> symbol), the target
    labels still ahead in it, whether it is a loop's body (a jump out of it breaks), the
    label it loops back to (a loop formed by backward gotos)."""

    def __init__(self, is_loop=False, repeat=None):
        self.is_loop = is_loop
        self.repeat = repeat
        self.flags = {}
        self.ahead = set()


@dataclass(eq=False)
class _Repeat:
    """The statements from a label to the last one holding a goto back to it."""
    label: str
    stmts: list
    loc: Optional[ir.Loc]


class _Lowering:
    def __init__(self, targets, new_flag):
        self.targets = targets
        self.new_flag = new_flag
        self.frames = []
        self.raised = set()     # the flags the statement being lowered may set

    def into(self, block, is_loop=False):
        block.stmts = self.lower_list(block.stmts, _Frame(is_loop))

    def lower_list(self, stmts, frame):
        stmts = self.repeat_regions(stmts, frame)
        self.frames.append(frame)
        body = []
        skipping = set()        # flags set earlier in the list whose label is ahead
        guard = None            # (flags, the If) guarding the statements last added
        ahead_at, ahead = [], set()     # the target labels after each statement
        for x in reversed(stmts):
            ahead_at.append(ahead)
            if isinstance(x, (Label, _Repeat)):
                ahead = ahead | ({x.label if isinstance(x, _Repeat) else x.name} & self.targets)
        ahead_at.reverse()
        for k, s in enumerate(stmts):
            frame.ahead = ahead_at[k]
            if isinstance(s, (Label, _Repeat)):
                # a forward jump lands here (at the start of a loop formed by gotos)
                skipping.discard(frame.flags.get(s.label if isinstance(s, _Repeat) else s.name))
            if isinstance(s, Label):
                continue
            outer, self.raised = self.raised, set()
            lowered = self.lower(s)
            raised, self.raised = self.raised, outer
            if not skipping:
                body += lowered
                guard = None
            elif lowered:
                if guard is None or guard[0] != skipping:
                    test = ir.Unary("!", _any_of(skipping), ir.INT, lowered[0].loc)
                    guard = (set(skipping), ir.If(test, ir.Block([]), None, lowered[0].loc))
                    body.append(guard[1])
                guard[1].then.stmts += lowered
            own = set(frame.flags.values())
            leaving = raised - own
            self.raised |= leaving
            exits = leaving | (raised & {frame.flags.get(_BREAK)})
            if frame.is_loop and exits:
                # the jump leaves the loop: at once, before the rest of the body and the step
                body.append(ir.If(_any_of(exits), ir.Block([ir.Break(s.loc)]), None, s.loc))
                guard = None
                skipping |= (raised & own) - exits
            else:
                skipping |= raised
            if raised:
                guard = None    # the statements after it test the flags again
        self.frames.pop()
        return [ir.Assign(ir.Ref(f), ir.Const("0", ir.INT)) for f in frame.flags.values()] + body

    def lower(self, s):
        """The statements s becomes."""
        if isinstance(s, Goto):
            return [self.jump(s)]
        if isinstance(s, (ir.Break, ir.Continue)):
            return [self.loop_jump(s)]
        if isinstance(s, _Repeat):
            frame = _Frame(repeat=s.label)
            again = self.flag(frame, s.label)
            body = self.lower_list(s.stmts, frame)
            return [ir.DoWhile(ir.Block(body, s.loc), ir.Ref(again), s.loc)]
        if isinstance(s, ir.Block):
            self.into(s)
        elif isinstance(s, ir.If):
            self.into(s.then)
            if s.other is not None:
                self.into(s.other)
        elif isinstance(s, (ir.For, ir.While, ir.DoWhile)):
            self.into(s.body, is_loop=True)
        return [s]

    def jump(self, s):
        for frame in reversed(self.frames):
            if s.name in frame.ahead or s.name == frame.repeat:
                flag = self.flag(frame, s.name)
                self.raised.add(flag)
                return ir.Assign(ir.Ref(flag), ir.Const("1", ir.INT), s.loc)
        raise AdgenError(f"goto '{s.name}' jumps into a loop, an if or a block it is not in, "
                         "or into a loop formed by other gotos: not supported", s.loc)

    def loop_jump(self, s):
        """break or continue: as it is, unless a loop formed by a backward goto lies between
        it and its loop (that do-while would take it): then a flag of its loop, which
        breaks at once (break) or skips the rest of the body (continue)."""
        crossing = False
        for frame in reversed(self.frames):
            if frame.is_loop:
                if not crossing:
                    return s
                flag = self.flag(frame, _BREAK if isinstance(s, ir.Break) else _CONTINUE)
                self.raised.add(flag)
                return ir.Assign(ir.Ref(flag), ir.Const("1", ir.INT), s.loc)
            crossing = crossing or frame.repeat is not None
        return s        # (not in a loop: the front end reports it)

    def flag(self, frame, label):
        if label not in frame.flags:
            sym = self.new_flag(_FLAG_NAMES.get(label) or
                                (f"goto_{label}" if frame.repeat != label else f"again_{label}"))
            sym.is_flag = True      # like the flags of break and return (see normalize)
            frame.flags[label] = sym
        return frame.flags[label]

    def repeat_regions(self, stmts, frame):
        """stmts with each run from a target label to the last statement holding a goto
        back to it made one _Repeat (the outermost runs; they must nest)."""
        ends = {}       # start -> (end, label)
        for start, s in enumerate(stmts):
            if isinstance(s, Label) and s.name in self.targets and s.name != frame.repeat:
                back = [k for k in range(start, len(stmts)) if _jumps_to(stmts[k], s.name)]
                if back:
                    ends[start] = (max(back), s.name)
        for s1, (e1, l1) in ends.items():
            for s2, (e2, l2) in ends.items():
                if s1 < s2 <= e1 < e2:
                    at = next(x for x in ir.stmts_walk([stmts[e2]])
                              if isinstance(x, Goto) and x.name == l2)
                    raise AdgenError(f"the loop formed by goto '{l2}' overlaps the loop "
                                     f"formed by goto '{l1}': not supported", at.loc)
        out, k = [], 0
        while k < len(stmts):
            if k in ends:
                end, label = ends[k]
                out.append(_Repeat(label, stmts[k:end + 1], stmts[k].loc))
                k = end + 1
            else:
                out.append(stmts[k])
                k += 1
        return out


def _drop_labels(stmts):
    stmts[:] = [s for s in stmts if not isinstance(s, Label)]
    for s in stmts:
        for inner in ir.nested_lists(s):
            _drop_labels(inner)


def _jumps_to(s, label):
    return any(isinstance(x, Goto) and x.name == label for x in ir.stmts_walk([s]))


def _any_of(flags):
    return X.any_of([ir.Ref(f) for f in sorted(flags, key=lambda f: f.name)])
