"""The test run's own limit: a test that hangs (adgen, a compiler or a built derivative
that never returns) fails after TEST_TIME_LIMIT seconds, its program killed, and the run
goes on (tests/conftest.py)."""
import shutil
import subprocess
import sys
import time
from pathlib import Path


def test_a_hanging_test_fails_at_the_time_limit(tmp_path):
    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_hang.py").write_text(
        "import subprocess, sys\n\n\ndef test_hangs():\n"
        "    subprocess.run([sys.executable, '-c', 'import time; time.sleep(60)'])\n\n\n"
        "def test_after():\n    assert True\n")
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path)], cwd=tmp_path, capture_output=True, text=True,
                          env={"ADGEN_TEST_TIME_LIMIT": "2", "PATH": "/usr/bin:/bin"},
                          timeout=120)
    took = time.monotonic() - start
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "test_hang.py::test_hangs ran over 2 s" in proc.stdout, proc.stdout
    assert "1 failed, 1 passed" in proc.stdout, proc.stdout
    assert took < 40, f"the run took {took:.0f} s: the hanging program was not killed"
