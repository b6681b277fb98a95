"""The one backoff every retry loop waits with."""

import pytest

from tui.api.backoff import Backoff


def test_waits_double_up_to_the_ceiling_when_exact() -> None:
    backoff = Backoff(0.25, 2.0, jitter=0)
    assert [backoff.delay(n) for n in range(6)] == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]


def test_a_client_that_has_retried_for_hours_still_waits_the_ceiling() -> None:
    # An unbounded reconnect loop (CdpClient with max_attempts=None) counts past 1024.
    assert Backoff(0.5, 30.0, jitter=0).delay(5000) == 30.0


def test_jitter_only_shortens_a_wait_by_its_share() -> None:
    backoff = Backoff(1.0, 8.0, jitter=0.25)
    waits = [backoff.delay(2) for _ in range(200)]
    assert all(3.0 <= wait <= 4.0 for wait in waits)
    assert len(set(waits)) > 1  # clients refused together do not come back together


@pytest.mark.parametrize("kwargs", [{"initial": -1}, {"maximum": -1}, {"jitter": 1.5}])
def test_nonsense_bounds_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Backoff(**kwargs)
