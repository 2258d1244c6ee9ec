"""Shared fixtures. `adgen_cache`: one cache directory for adgen.build for the whole test
session, so that a module built by one test is reused by the others (the C compilation is
the slow part). Set ADGEN_TEST_CACHE=DIR to keep the builds across sessions."""
import os

import pytest


@pytest.fixture(scope="session")
def adgen_cache(tmp_path_factory):
    keep = os.environ.get("ADGEN_TEST_CACHE")
    if keep:
        os.makedirs(keep, exist_ok=True)
        return keep
    return str(tmp_path_factory.mktemp("adgen-cache"))
