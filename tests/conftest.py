"""Shared fixtures, and this checkout's adgen for every test. `adgen_cache`: one cache directory for adgen.build for the whole test
session, so that a module built by one test is reused by the others (the C compilation is
the slow part). Set ADGEN_TEST_CACHE=DIR to keep the builds across sessions."""
import os
import sys
from pathlib import Path

import pytest

# The tests test this checkout's adgen, whatever another installation says: in this process
# (`import adgen`) and in every `python -m adgen` they start.
ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[:1] != [ROOT]:
    sys.path.insert(0, ROOT)
os.environ["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in os.environ.get(
    "PYTHONPATH", "").split(os.pathsep) if p and p != ROOT])


@pytest.fixture(scope="session")
def adgen_cache(tmp_path_factory):
    keep = os.environ.get("ADGEN_TEST_CACHE")
    if keep:
        os.makedirs(keep, exist_ok=True)
        return keep
    return str(tmp_path_factory.mktemp("adgen-cache"))


# No test may hold the run: one that runs longer than this fails, and the program it was
# waiting for (adgen, a compiler, a built derivative) is killed with it (subprocess.run
# kills its child on any exception).
TEST_TIME_LIMIT = int(os.environ.get("ADGEN_TEST_TIME_LIMIT", "1200"))


class TestTimeLimit(Exception):
    pass


@pytest.fixture(autouse=True)
def _time_limit(request):
    import signal
    import threading
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not \
            threading.main_thread():
        yield
        return

    def over(signum, frame):
        raise TestTimeLimit(f"{request.node.nodeid} ran over {TEST_TIME_LIMIT} s")
    previous = signal.signal(signal.SIGALRM, over)
    signal.alarm(TEST_TIME_LIMIT)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
