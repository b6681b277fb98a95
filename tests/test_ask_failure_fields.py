"""Which field a refused question points at: read from the refusal's issues as the launch forms read them."""

from __future__ import annotations

from tui.api.errors import BadRequestError, RequestValidationError
from tui.dashboard.features.support.log import AskFailure


def test_a_400_naming_the_rationale_by_a_list_path_points_at_the_rationale() -> None:
    # The service writes a path as a list (`["rationale"]`), as the emulator's 400 details do.
    error = BadRequestError(
        "Invalid request body", status=400, details=[{"path": ["rationale"], "message": "too long"}]
    )
    failure = AskFailure.of(error)
    assert failure.field == "rationale"
    assert failure.message.endswith("Edit the rationale and send it again.")


def test_a_400_naming_no_field_points_at_the_question() -> None:
    failure = AskFailure.of(BadRequestError("Invalid request body", status=400, details=None))
    assert failure.field == "question"


def test_our_own_refusal_points_at_the_field_it_names() -> None:
    error = RequestValidationError("rationale: too long", issues=[{"path": "rationale", "message": "too long"}])
    assert AskFailure.of(error).field == "rationale"
