"""Reading the service's answers: JSON bodies into models, failures into typed errors.

Nothing here raises a raw httpx or pydantic exception: a body that is not
JSON, JSON of the wrong shape and every non-2xx status all become a
`tui.api.errors` exception whose message says what the server sent.
"""

from __future__ import annotations

import gc
import json
import reprlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from tui.api.errors import APIStatusError, GatewayTimeoutError, RateLimitError, ResponseNotJSONError, ResponseShapeError
from tui.api.retries import retry_after_seconds
from tui.api.status_errors import status_error_class

ModelT = TypeVar("ModelT", bound=BaseModel)
Scrub = Callable[[str], str]

EXCERPT_CHARS = 200
# What a message reads of a body: enough for an excerpt after runs of whitespace are squeezed.
EXCERPT_SOURCE_BYTES = 16 * 1024
# The offending value of a shape error, shortened as it is written: `repr` of a
# wrong-typed field of a large answer (a map's links as one object) is as long as the answer.
_SHORT_REPR = reprlib.Repr()  # Python 3.11's takes no arguments: set after
_SHORT_REPR.maxlevel, _SHORT_REPR.maxlist, _SHORT_REPR.maxdict = 2, 4, 4
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = _SHORT_REPR.maxlong = 60
_SHOWN_ISSUES = 3


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The start of a body on one line, cut at `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _content_type(response: httpx.Response) -> str:
    return response.headers.get("content-type", "").split(";")[0].strip() or "(no content type)"


def body_start(response: httpx.Response) -> str:
    """The first `EXCERPT_SOURCE_BYTES` of the body as text, for messages.

    Never the whole body: `response.text` of a 200 MB answer is another 200 MB
    (and `excerpt` splits all of it into words), only to show 200 characters.
    """
    start = response.content[:EXCERPT_SOURCE_BYTES]
    return start.decode(response.encoding or "utf-8", errors="replace")


def _describe_body(response: httpx.Response, scrub: Scrub) -> str:
    content = response.content
    if not content:
        return "an empty body"
    if content.isspace():  # in place: `strip()` of a long body would copy it
        return f"a body of {len(content):,} bytes of whitespace and nothing else"
    return f"a {_content_type(response)} body: {scrub(excerpt(body_start(response)))!r}"


def _try_json(response: httpx.Response) -> Any:
    """The parsed body, or None when it is not JSON (an error page, say)."""
    try:
        return json.loads(response.content) if response.content else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


@contextmanager
def collections_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (as it was when the block ends).

    Reading a large answer makes a burst of containers that all stay alive: a
    map of 100,000 links is 200,000 dicts and links, whose allocation set off
    dozens of collections (full ones among them) that free nothing. Used
    around synchronous parsing only: no other task runs until it ends.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_json(response: httpx.Response, scrub: Scrub) -> Any:
    """The JSON body of a 2xx answer, or `ResponseNotJSONError`.

    The content type is not trusted either way: JSON sent as `text/plain` is
    read, HTML sent as `application/json` is refused.

    Read by pydantic-core first: a quarter faster than `json` on a map of
    100,000 links, and each object key is made once, not once per object.
    What it refuses (a lone surrogate escape, nesting past its 200 levels,
    UTF-16, a byte-order mark) is read again by `json`, which decides.
    """
    try:
        return from_json(response.content, cache_strings="keys")
    except ValueError:
        pass
    try:
        return json.loads(response.content)
    except RecursionError:
        # JSON nested deeper than Python's recursion limit: no answer of the contract is
        too_deep = True
    except (ValueError, UnicodeDecodeError):
        too_deep = False
    # raised out here: the JSONDecodeError holds the whole body decoded, as long as it is alive
    if too_deep:
        raise _too_deep(response, scrub)
    raise _invalid(
        ResponseNotJSONError,
        f"the server sent {_describe_body(response, scrub)} (status {response.status_code}) where JSON was expected",
        response,
        scrub,
    )


def _too_deep(response: httpx.Response, scrub: Scrub) -> ResponseShapeError:
    return _invalid(
        ResponseShapeError,
        f"the server sent JSON nested too deeply to read (status {response.status_code}); "
        "no answer of the service is shaped like that",
        response,
        scrub,
    )


InvalidT = TypeVar("InvalidT", ResponseNotJSONError, ResponseShapeError)


def _invalid(cls: type[InvalidT], message: str, response: httpx.Response, scrub: Scrub) -> InvalidT:
    """An answer the client cannot read, with the start of its body."""
    request = response.request
    return cls(
        message,
        status=response.status_code,
        content_type=_content_type(response),
        excerpt=scrub(excerpt(body_start(response))),
        method=request.method,
        url=str(request.url),
    )


_UNION_MEMBER_NAMES = frozenset({"str", "int", "float", "bool", "list", "dict", "none"})


def _is_union_member(part: Any) -> bool:
    # pydantic names the union member it tried (`str`, `str-enum[SessionStatus]`)
    # in `loc`; no field of the response models is spelt like that
    return isinstance(part, str) and (part in _UNION_MEMBER_NAMES or "[" in part)


def _issue_path(loc: tuple[Any, ...]) -> str:
    path = ""
    for part in loc:
        if _is_union_member(part):
            continue
        path += f"[{part}]" if isinstance(part, int) else ("." if path else "") + str(part)
    return path or "body"


def _issue_texts(issues: list[Any], scrub: Scrub) -> list[str]:
    """One line per offending field (a union's several complaints count once)."""
    texts: dict[str, str] = {}
    for issue in issues:
        path = _issue_path(tuple(issue.get("loc", ())))
        if path in texts:
            continue
        text = f"{path}: {issue.get('msg', 'is invalid')}"
        if issue.get("type") != "missing":
            text += f" (got {scrub(excerpt(_SHORT_REPR.repr(issue.get('input')), 60))})"
        texts[path] = text
    return list(texts.values())


def parse_model(model: type[ModelT], data: Any, response: httpx.Response, scrub: Scrub) -> ModelT:
    """Validate a 2xx body into `model`, or raise `ResponseShapeError`."""
    try:
        return model.model_validate(data)
    except RecursionError:
        raise _too_deep(response, scrub) from None
    except ValidationError as exc:
        issues = _issue_texts(exc.errors(include_url=False), scrub)
        shown = "; ".join(issues[:_SHOWN_ISSUES])
        more = f" and {len(issues) - _SHOWN_ISSUES} more" if len(issues) > _SHOWN_ISSUES else ""
        server_said = ""
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            server_said = f"; the server said: {scrub(excerpt(data['error']))!r}"
        raise _invalid(
            ResponseShapeError,
            f"the server sent a response that is not a valid {model.__name__}: {shown}{more}{server_said}",
            response,
            scrub,
        ) from None


def _error_message(body: Any) -> str | None:
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    if isinstance(error, dict):  # some gateways nest it: {"error": {"message": ...}}
        error = error.get("message")
    if isinstance(error, str) and error.strip():
        return error
    message = body.get("message")
    return message if isinstance(message, str) and message.strip() else None


def status_error(
    response: httpx.Response, scrub: Scrub, *, partial_model: type[BaseModel] | None = None
) -> APIStatusError:
    """The typed exception for a non-2xx answer (returned, not raised).

    Reads the standard body `{success, error, code, details}` as well as the
    support endpoints' `{"error": ...}`; a body that is not JSON (a proxy's
    HTML page) still gives a readable message.
    """
    status = response.status_code
    body = _try_json(response)
    message = _error_message(body)
    code = body.get("code") if isinstance(body, dict) and isinstance(body.get("code"), str) else None
    details = body.get("details") if isinstance(body, dict) else None
    request_id = response.headers.get("x-request-id")
    if request_id is None and isinstance(body, dict) and isinstance(body.get("requestId"), str):
        request_id = body["requestId"]
    location = response.headers.get("location")
    if 300 <= status < 400 and location:
        # usually http:// given for an https:// service, or a missing path prefix
        message = f"the server redirected to {location}; check the base URL"
    elif message is None:
        reason = response.reason_phrase or "error"
        message = f"the server answered {status} {reason} with {_describe_body(response, scrub)}"
    request = response.request
    kwargs: dict[str, Any] = {
        "status": status,
        "code": code,
        "details": details,
        "request_id": request_id,
        "body": body if body is not None else scrub(response.text),
        "response": response,
        "method": request.method,
        "url": str(request.url),
    }
    cls = status_error_class(status, code)
    if issubclass(cls, RateLimitError):
        kwargs["retry_after"] = retry_after_seconds(response.headers, message)
    if issubclass(cls, GatewayTimeoutError) and partial_model is not None and isinstance(body, dict):
        try:
            kwargs["partial"] = partial_model.model_validate(body)
        except ValidationError:
            kwargs["partial"] = None  # a partial we cannot read is as good as none
    return cls(scrub(message), **kwargs)
