"""Turning pydantic's validation errors into messages a person can act on.

Shared by the client (which raises before sending) and the emulator (which
answers 400 with `details`), so both name fields and limits the same way:
by their wire names (`activityTtl`, not `activity_ttl`).
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tui.contract.requests import WireModel

_T = TypeVar("_T")


def _subclasses(cls: type[_T]) -> list[type[_T]]:
    found: list[type[_T]] = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found.extend(_subclasses(sub))
    return found


@cache
def _wire_names() -> dict[str, str]:
    """Python field name -> wire name, over every request model."""
    names: dict[str, str] = {}
    for model in _subclasses(WireModel):
        for name, info in model.model_fields.items():
            names[name] = info.alias or name
    return names


@cache
def _model_names() -> frozenset[str]:
    return frozenset(model.__name__ for model in _subclasses(BaseModel))


def _is_union_tag(part: Any) -> bool:
    """pydantic names the union member it tried in `loc`; the user never wrote it."""
    if not isinstance(part, str):
        return False
    return (
        part in _model_names()
        or part in ("str", "int", "float", "bool")
        or part.startswith(("function-", "literal[", "list[", "dict[", "is-instance", "json-or-python"))
    )


def _split(loc: tuple[Any, ...]) -> tuple[str, bool]:
    """The wire path of a loc, and whether it went through a union member."""
    out = ""
    via_union = False
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _is_union_tag(part):
            via_union = True
            break  # what lies below a union member is that member's detail
        else:
            out += ("." if out else "") + _wire_names().get(str(part), str(part))
    return out, via_union


def validation_details(exc: ValidationError) -> list[dict[str, Any]]:
    """The `details` list of a 400: each issue's wire path and message.

    Of the several errors a union produces for one value (one per member),
    only the first is kept: it is the one for the simplest form of the field.
    """
    details: list[dict[str, Any]] = []
    union_paths: set[str] = set()
    for error in exc.errors(include_url=False):
        path, via_union = _split(tuple(error.get("loc", ())))
        if via_union:
            if path in union_paths:
                continue
            union_paths.add(path)
        message = str(error.get("msg", "is invalid")).removeprefix("Value error, ")
        text = f"{path}: {message}" if path else message
        details.append({"path": path, "message": text})
    return details


def validation_summary(exc: ValidationError) -> str:
    """All issues in one line, for an exception message or a status bar."""
    return "; ".join(item["message"] for item in validation_details(exc))
