"""Any value a job, a delivery or a session holds, to JSON and back, by its shape.

Dataclasses and request models are written field by field with their class
named, so a field someone adds to a job tomorrow is saved without a change
here. Only what a shape cannot say is written by hand: a fetch result (its
document is written once and kept as it is), a cache entry (the same), and a
batch's run, which holds the scraper and the billing it works with
(`StateContext` gives them back on reading).

Reading builds only classes of the emulator and the contract: a snapshot is
data, and a PUT must not be able to name anything else.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from tui.emulator.core.ids import IdBlock
from tui.emulator.jobs.batch_run import BatchRun
from tui.emulator.jobs.progression import SteeredTimeline
from tui.emulator.jobs.rendered_pages import RenderedPages
from tui.emulator.jobs.scrape_cache import CacheEntry
from tui.emulator.jobs.scrape_engine import FetchResult
from tui.emulator.jobs.team_cache import TeamCacheScraper

TAG = "$t"
# Modules whose classes a snapshot may name.
READABLE_MODULES = ("tui.emulator.", "tui.contract.")

Charge = Callable[[int, datetime], None]


class SnapshotError(ValueError):
    """A snapshot that cannot be read: the message says where and what was expected."""


@dataclass(frozen=True)
class StateContext:
    """What restored values that work (a batch's run) are wired to again."""

    scraper: TeamCacheScraper
    rendered: RenderedPages
    charge_for: Callable[[str, str], Charge]  # (team id, api key) -> bills that key's credits


def class_path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def named_class(path: Any, where: str) -> type:
    """The class a snapshot names, if it is one of ours."""
    if not isinstance(path, str) or ":" not in path:
        raise SnapshotError(f"{where}: a class is named as 'module:Name', got {path!r}")
    module_name, _, name = path.partition(":")
    if not module_name.startswith(READABLE_MODULES):
        raise SnapshotError(f"{where}: class {path!r} is not one of the emulator's or the contract's")
    try:
        found: Any = importlib.import_module(module_name)
        for part in name.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        raise SnapshotError(f"{where}: class {path!r} does not exist in this version of the emulator") from None
    if not isinstance(found, type):
        raise SnapshotError(f"{where}: {path!r} is not a class")
    # Defined there, not imported there: `tui.emulator.x:BaseModel` must not reach pydantic's class.
    if found.__module__ != module_name or found.__qualname__ != name:
        raise SnapshotError(f"{where}: class {path!r} is not one of the emulator's or the contract's")
    return found


def encode(value: Any) -> Any:
    """`value` as JSON-able data (see the module's docstring for what is written how)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime):
        return {TAG: "datetime", "v": value.isoformat()}
    if isinstance(value, enum.Enum):
        return {TAG: "enum", "cls": class_path(type(value)), "v": value.value}
    if isinstance(value, bytes | bytearray):
        return {TAG: "bytes", "v": base64.b64encode(value).decode("ascii")}
    if isinstance(value, FetchResult):
        return {
            TAG: "fetch",
            "url": value.url,
            "failure": encode(value.failure),
            "credits": value.credits,
            "elapsed_ms": value.elapsed_ms,
            "document": value.document,
        }
    if isinstance(value, CacheEntry):
        return {TAG: "cache_entry", "stored_at": value.stored_at.isoformat(), "document": value.document}
    if isinstance(value, BaseModel):
        dumped = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        return {TAG: "model", "cls": class_path(type(value)), "v": dumped}
    if isinstance(value, SteeredTimeline):  # the plan is saved; the tester's modes are a part of their own
        return encode(value.natural())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if field.init:  # a batch job's run is billed to the key of the job that holds it
                fields[field.name] = (
                    encode_batch_run(item, value.api_key) if isinstance(item, BatchRun) else encode(item)  # type: ignore[attr-defined]
                )
        return {TAG: "dataclass", "cls": class_path(type(value)), "v": fields}
    if isinstance(value, IdBlock):
        return {TAG: "ids", "v": list(value)}
    if isinstance(value, dict):
        if all(isinstance(key, str) for key in value) and TAG not in value:
            return {key: encode(item) for key, item in value.items()}
        return {TAG: "items", "v": [[encode(key), encode(item)] for key, item in value.items()]}
    if isinstance(value, tuple):
        return {TAG: "tuple", "v": [encode(item) for item in value]}
    if isinstance(value, list | Sequence):  # lists, and packed sequences such as a batch's URLs
        return [encode(item) for item in value]
    raise TypeError(f"the state snapshot cannot write a {type(value).__name__}")


def encode_batch_run(run: BatchRun, api_key: str) -> dict[str, Any]:
    """A batch's run: its URLs, options and what has been scraped so far (how, at what cost, which hits).

    Its private record is read here, not through the run, so that the job modules stay as they are.
    """
    return {
        TAG: "batch_run",
        "urls": list(run.urls),
        "options": encode(run.options),
        "timeline": encode(run.timeline),
        "team_id": run._team_id,
        "api_key": api_key,
        "charges": run._charge is not None,
        "through_cache": run._through_cache,
        "served": base64.b64encode(run._served).decode("ascii"),
        "credits": base64.b64encode(run._credits).decode("ascii"),
        "hits": [[index, encode(entry)] for index, entry in run._hits.items()],
    }


def decode(data: Any, context: StateContext, where: str = "snapshot") -> Any:
    """The value `encode` wrote (`SnapshotError` naming `where` when it is not such data)."""
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return [decode(item, context, f"{where}[{i}]") for i, item in enumerate(data)]
    if not isinstance(data, dict):
        raise SnapshotError(f"{where}: unexpected {type(data).__name__}")
    tag = data.get(TAG)
    if tag is None:
        return {key: decode(item, context, f"{where}.{key}") for key, item in data.items()}
    try:
        return _decode_tagged(tag, data, context, where)
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise SnapshotError(f"{where}: a {tag!r} value that cannot be read ({type(exc).__name__}: {exc})") from None


def _decode_tagged(tag: str, data: dict[str, Any], context: StateContext, where: str) -> Any:
    if tag == "datetime":
        moment = datetime.fromisoformat(data["v"])
        if moment.tzinfo is None:
            raise SnapshotError(f"{where}: the time {data['v']!r} has no time zone")
        return moment
    if tag == "enum":
        cls = named_class(data["cls"], where)
        if not issubclass(cls, enum.Enum):
            raise SnapshotError(f"{where}: {data['cls']!r} is not an enumeration")
        return cls(data["v"])
    if tag == "bytes":
        return base64.b64decode(data["v"], validate=True)
    if tag == "fetch":
        document = data["document"]
        return FetchResult(
            data["url"],
            decode(data["failure"], context, f"{where}.failure"),
            int(data["credits"]),
            int(data["elapsed_ms"]),
            None if document is None else _keeps(document),
        )
    if tag == "cache_entry":
        return CacheEntry(_keeps(data["document"]), datetime.fromisoformat(data["stored_at"]))
    if tag == "model":
        cls = named_class(data["cls"], where)
        if not issubclass(cls, BaseModel):
            raise SnapshotError(f"{where}: {data['cls']!r} is not a request model")
        return _decode_model(cls, data["v"])
    if tag == "dataclass":
        cls = named_class(data["cls"], where)
        if not dataclasses.is_dataclass(cls):
            raise SnapshotError(f"{where}: {data['cls']!r} is not a dataclass")
        fields = {key: decode(item, context, f"{where}.{key}") for key, item in data["v"].items()}
        return cls(**fields)
    if tag == "ids":
        return IdBlock.of(data["v"])
    if tag == "items":
        return {decode(k, context, where): decode(v, context, where) for k, v in data["v"]}
    if tag == "tuple":
        return tuple(decode(item, context, where) for item in data["v"])
    if tag == "batch_run":
        return _decode_batch_run(data, context, where)
    raise SnapshotError(f"{where}: unknown value kind {tag!r}")


def _decode_model(cls: type[BaseModel], data: Any) -> BaseModel:
    """A request model as it was kept, which may be past its request's limits.

    A batch keeps its options with `urls` emptied (`model_copy`, no validation): such a
    model is built field by field, each field read by its type without the request's limits.
    """
    try:
        return cls.model_validate(data)
    except ValidationError:
        if not isinstance(data, dict):
            raise
    values: dict[str, Any] = {}
    for name, field in cls.model_fields.items():
        key = field.alias if field.alias is not None and field.alias in data else name
        if key in data:
            values[name] = TypeAdapter(field.annotation or Any).validate_python(data[key])
    return cls.model_construct(_fields_set=set(values), **values)


def _keeps(document: Any) -> Callable[[], dict[str, Any]]:
    if not isinstance(document, dict):
        raise SnapshotError("a document must be a JSON object")
    return lambda: document


def _decode_batch_run(data: dict[str, Any], context: StateContext, where: str) -> BatchRun:
    team_id, api_key = str(data["team_id"]), str(data["api_key"])
    run = BatchRun(
        urls=[str(url) for url in data["urls"]],
        options=decode(data["options"], context, f"{where}.options"),
        timeline=decode(data["timeline"], context, f"{where}.timeline"),
        scraper=context.scraper,
        team_id=team_id,
        charge=context.charge_for(team_id, api_key) if data["charges"] else None,
        through_cache=bool(data["through_cache"]),
        rendered=context.rendered,
    )
    served = bytearray(base64.b64decode(data["served"], validate=True))
    credits = bytearray(base64.b64decode(data["credits"], validate=True))
    if len(served) != len(credits) or len(served) > len(run.urls):
        raise SnapshotError(f"{where}: its scraped pages and their credits do not match its URLs")
    # The run's own record, set back as `encode_batch_run` read it.
    run._served, run._credits = served, credits
    run._hits = {int(index): decode(entry, context, f"{where}.hits") for index, entry in data["hits"]}
    return run
