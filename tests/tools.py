"""The tools the tests run that do not come from PyPI: found, or installed with Debian's
apt-get where they are missing and this is root (CI), saying so. `make test` runs this
before the tests; a tool still missing afterwards makes its tests skip with the reason
printed here.

    python tests/tools.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def main():
    import shutil
    found = shutil.which(harness.FC)
    if found:
        print(f"tests/tools.py: gfortran: {found}")
        return 0
    print("tests/tools.py: gfortran is missing: installing it with apt-get "
          "(apt-get install gfortran)", flush=True)
    reason = harness.ensure_gfortran(install=True)
    if reason is None:
        print(f"tests/tools.py: gfortran: {shutil.which(harness.FC)} (installed)")
    else:
        print(f"tests/tools.py: gfortran: not available ({reason}); the Fortran tests "
              "will be skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
