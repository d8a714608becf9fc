"""CI draws the same property-test examples on every run (conftest.py's "ci" profile)."""
import os

import pytest
from hypothesis import settings


@pytest.mark.skipif(bool(os.environ.get("HYPOTHESIS_PROFILE")), reason="a profile was named")
def test_ci_runs_are_derandomised_and_others_are_not():
    assert settings().derandomize == bool(os.environ.get("CI"))
