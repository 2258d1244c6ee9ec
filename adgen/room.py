"""Room for a run of adgen.

Deep recursion: the parser and the analyses follow nested expressions, nested statements
and call chains recursively, several Python frames per level: the command line and the
Python API run adgen in a thread with a large stack and a high recursion limit.

Fewer garbage collections: adgen builds and drops IR trees by the million, most of what
it allocates stays alive until the output is written, and Python's default collects the
youngest objects every 700 allocations, each collection tracing the survivors again: on
a 10,000-line input a fifth of the run. A run collects every YOUNG_COLLECTION
allocations instead (cyclic garbage is still collected, later).
"""
import contextlib
import gc
import sys
import threading

RECURSION_LIMIT = 30000
THREAD_STACK = 512 * 1024 * 1024
YOUNG_COLLECTION = 20000

_here = threading.local()       # .inside: this thread is one with_room started


def with_room(fn, *args, **kwargs):
    """fn(*args, **kwargs), run in a thread with room for deep recursion (in this thread
    where it already has that room, or where no such thread can be started), with fewer
    garbage collections."""
    if getattr(_here, "inside", False):
        return fn(*args, **kwargs)
    with fewer_collections():
        return _in_thread(fn, *args, **kwargs)


@contextlib.contextmanager
def fewer_collections():
    """Collect the youngest generation every YOUNG_COLLECTION allocations at most, and
    as before after the block."""
    before = gc.get_threshold()
    if before[0]:       # (0: the caller turned collection off, and it stays off)
        gc.set_threshold(max(before[0], YOUNG_COLLECTION), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _in_thread(fn, *args, **kwargs):
    outcome = {}

    def run():
        _here.inside = True
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:   # re-raised in the calling thread
            outcome["error"] = exc

    limit = sys.getrecursionlimit()
    try:
        size = threading.stack_size(THREAD_STACK)
    except (ValueError, RuntimeError):
        return fn(*args, **kwargs)      # no room for a larger stack: the usual depth
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
    except RuntimeError:        # the thread could not start: in this one, as usual
        sys.setrecursionlimit(limit)
        return fn(*args, **kwargs)
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
