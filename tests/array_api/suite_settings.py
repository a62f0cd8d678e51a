"""A pytest plugin that tools/array_api_suite.sh loads into runs of the
official Array API test suite (``-p suite_settings``): the suite's own
Hypothesis profile (max examples, derandomized, no deadline) without the
shrink phase.

A failing test then reports the example that failed as generated instead of
searching for a smaller one.  Whether a test passes is decided before
shrinking, so the outcomes, and the expected-failures file, do not change;
the time does: with most of the namespace still missing, shrinking every
failing example took a run past 20 minutes, and about 2 without it."""

import pytest
from hypothesis import Phase, settings


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    # After the suite's conftest, which registers and loads its profile.
    settings.register_profile(
        "usmarray-suite",
        parent=settings.get_profile("array-api-tests"),
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )
    settings.load_profile("usmarray-suite")
