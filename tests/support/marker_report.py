"""A pytest plugin (`-p tests.support.marker_report`): prints each collected test's markers, one line each.

Lets one `--collect-only` run show what every selection by marker would take
(tests/test_suite_setup.py), instead of one slow collection per `-m` expression.
"""

from __future__ import annotations

import pytest

PREFIX = "markers\t"


def pytest_collection_finish(session: pytest.Session) -> None:
    for item in session.items:
        names = sorted({marker.name for marker in item.iter_markers()})
        print(f"{PREFIX}{item.nodeid}\t{','.join(names)}")
