"""The body of a launch form, declared as field specs: rows, reading, checking, problems under their fields.

A `FieldSpec` names a field's widget, the wire paths whose issues it shows,
its label and its placeholder; the limits a placeholder quotes are read from
the request model (`range_text`), so it cannot promise other bounds than the
check applies. `FormBody` turns the specs into rows and does the rest once
for every form: it validates what is typed with the request model the client
sends (`build_request`), puts each problem under its field and the others on
the line on top (`show_issues`, `show_problem`), and never clears what was
typed. A form says only what it reads (`wire_values`) and what it checks
beyond the model (`checks`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast

from annotated_types import Ge, Le
from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, TextArea

from tui.contract.limits import LOCATION_COUNTRY_DEFAULT
from tui.contract.requests import WireModel
from tui.contract.validation import validation_details
from tui.dashboard.kit.form_issues import PROBLEM, issues_by_field, mark_fields, problem_text
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.tick_box import TickBox


def model_field(model: type[WireModel], wire: str) -> Any:
    """The pydantic field of `model` sent as `wire`."""
    return next(info for name, info in model.model_fields.items() if (info.alias or name) == wire)


def bounds(model: type[WireModel], wire: str) -> tuple[float | None, float | None]:
    """The lower and upper bound `model` checks `wire` against (None: unbounded)."""
    metadata = model_field(model, wire).metadata
    low = next((item.ge for item in metadata if isinstance(item, Ge)), None)
    high = next((item.le for item in metadata if isinstance(item, Le)), None)
    return cast("tuple[float | None, float | None]", (low, high))  # the contract's bounds are numbers


def range_text(model: type[WireModel], wire: str, number: Callable[[Any], str] = "{:g}".format) -> str:
    """`≥ 0`, `1000 to 300000` or `≤ 5`: the limits of `wire` as `model` checks them ("" when none)."""
    low, high = bounds(model, wire)
    if low is not None and high is not None:
        return f"{number(low)} to {number(high)}"
    if low is not None:
        return f"≥ {number(low)}"
    return f"≤ {number(high)}" if high is not None else ""


Kind = Literal["text", "integer", "number", "boolean", "choice", "lines"]


@dataclass(frozen=True)
class FieldSpec:
    """One field of a form: its widget's id, the wire paths it shows the issues of, its label and placeholder.

    A spec with a label is a labelled row of its `kind` (`compose`): a one-line
    input (text or a number), a tick (`hint` its words), a choice of `choices`,
    or a list one a line; `default` is a tick's or a choice's value before it
    is touched (a choice without one may be left blank: "not given"). A spec
    without a label is a field the form lays out itself (a group of ticks),
    declared here for where its issues go.
    """

    field_id: str
    wires: tuple[str, ...]
    label: str = ""
    hint: str = ""
    kind: Kind = "text"
    group: bool = False  # a little space above: the first of a group of fields
    default: Any = None
    choices: tuple[str, ...] = ()

    def compose(self, select_on_focus: bool = False) -> ComposeResult:
        """The labelled widget and its (hidden until needed) error line.

        `select_on_focus` off (the forms' choice): coming back to the form, the first key
        typed must not replace the value.
        """
        with Horizontal(classes="field-row group" if self.group else "field-row"):
            yield Label(self.label, id=f"{self.field_id}-label", markup=False)
            if self.kind == "boolean":
                yield TickBox(self.hint, bool(self.default), id=self.field_id, compact=True)
            elif self.kind == "choice":
                yield Select(
                    [(choice, choice) for choice in self.choices],
                    prompt="not given (service default)",
                    allow_blank=self.default is None,
                    value=self.default or Select.NULL,
                    id=self.field_id,
                    compact=True,
                )
            elif self.kind == "lines":
                yield TextArea(id=self.field_id, soft_wrap=False, compact=True, placeholder=self.hint)
            else:
                yield Input(
                    placeholder=self.hint,
                    type="text" if self.kind == "text" else self.kind,
                    id=self.field_id,
                    compact=True,
                    select_on_focus=select_on_focus,
                )
        yield error_line(self.field_id)


def error_line(field_id: str) -> Static:
    """The line under a field that says what is wrong with it."""
    return Static("", id=f"{field_id}-error", classes="field-error", markup=False)


NO_INBOX_HINT = "optional; the webhook inbox is not listening (w starts the inbox)"
INBOX_HINT = "the dashboard's webhook inbox is listening here; clear it to send no webhook"
"""What `#webhook-hint` says under a form's webhook field, as the launch form finds the inbox."""


LOCATION = (
    FieldSpec(
        "country",
        ("location", "location.country"),
        "location country",
        f"2 letters (ISO 3166); default {LOCATION_COUNTRY_DEFAULT}",
        group=True,
    ),
    FieldSpec("languages", ("location.languages",), "location languages", "comma-separated, e.g. en, fr"),
)
"""The two fields of a request's `location` (read together by `location`)."""
URL_REQUIRED = {"path": "url", "message": "url: required, an absolute http:// or https:// URL"}
"""Said before the model's "Field required": what a form's URL must be."""


def location(form: Widget) -> dict[str, Any] | None:
    """The wire's `location` from the fields of `LOCATION` (`en, fr`: comma-separated), None when both are empty."""
    country = form.query_one("#country", Input).value.strip()
    spoken = [part.strip() for part in form.query_one("#languages", Input).value.split(",") if part.strip()]
    if not country and not spoken:
        return None
    return {"country": country or LOCATION_COUNTRY_DEFAULT, "languages": spoken or None}


class FormBody(VerticalScroll):
    """A form's fields, their error lines, and a line on top for problems of no single field."""

    MODEL: ClassVar[type[WireModel]]
    SPECS: ClassVar[tuple[FieldSpec, ...]]
    FOCUS: ClassVar[dict[str, str]] = {}
    """Field id -> the widget a person edits to fix it, where that is not the field's own id."""
    SENDS_DEFAULTS: ClassVar[bool] = False
    """Whether a tick or a choice left at its default is sent too (the crawl form sends what it shows)."""

    DEFAULT_CSS = """
    FormBody { padding: 0 1; }
    FormBody #form-problem { color: $error; margin-bottom: 1; height: auto; }
    FormBody .field-row { height: auto; }
    FormBody .field-row > Label { width: 20; }
    FormBody .field-row > Input, FormBody .field-row > Select { width: 1fr; }
    FormBody .field-error { color: $error; height: auto; padding-left: 20; }
    FormBody .group { margin-top: 1; }
    FormBody .field-hint { color: $text-muted; margin-top: 1; }
    """

    def on_mount(self) -> None:
        for line in self.query(".field-error"):
            line.display = False
        self.query_one(f"#{PROBLEM}").display = False

    def text(self, field_id: str) -> str:
        """What is typed in a one-line field, trimmed."""
        return self.query_one(f"#{field_id}", Input).value.strip()

    def value(self, spec: FieldSpec) -> Any:
        """What the field of `spec` holds, as the request model reads it; None when it is not sent.

        Numbers stay strings, so that pydantic parses them and names the field when
        they do not parse. An empty field or list is not sent (the service's default
        applies), nor a tick or choice at its default unless the form `SENDS_DEFAULTS`.
        """
        widget = self.query_one(f"#{spec.field_id}")
        if isinstance(widget, TextArea):
            return [line.strip() for line in widget.text.splitlines() if line.strip()] or None
        if isinstance(widget, Input):
            return widget.value.strip() or None
        value = widget.value  # type: ignore[attr-defined]  # a tick or a choice
        return None if value is Select.NULL or (value == spec.default and not self.SENDS_DEFAULTS) else value

    def field_of(self, path: str) -> str | None:
        """The field showing an issue at wire `path` (`location.languages[0]` -> languages), None for none."""
        table = {wire: spec.field_id for spec in self.SPECS for wire in spec.wires}
        base = path.split("[", 1)[0]
        return table.get(base) or table.get(base.split(".", 1)[0])

    # --- what each form says -----------------------------------------------------

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name, as the request model reads it.

        Here: every labelled field of one top-level wire name (`value`); a form adds the
        fields it lays out itself and those sent inside an object (`location`).
        """
        values = {}
        for spec in self.SPECS:
            if spec.label and len(spec.wires) == 1 and "." not in spec.wires[0]:
                if (value := self.value(spec)) is not None:
                    values[spec.wires[0]] = value
        return values

    def checks(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        """Issues found before the model looks (a required field left empty, ...)."""
        return []

    def keeps(self, issue: dict[str, Any], values: dict[str, Any], checked: list[dict[str, Any]]) -> bool:
        """Whether the model's `issue` is worth showing beside the issues `checks` found."""
        fields = {self.field_of(str(found["path"])) for found in checked}
        return self.field_of(str(issue["path"])) not in fields  # one word per field: ours said it better

    # --- the same for every form ---------------------------------------------------

    def build_request(self) -> Any:
        """The request, or None after putting each problem under its field."""
        values = self.wire_values()
        issues = self.checks(values)
        try:
            request = self.MODEL.model_validate(values)
        except ValidationError as exc:
            issues += [issue for issue in validation_details(exc) if self.keeps(issue, values, issues)]
            request = None
        self.show_issues(issues)
        return None if issues else request

    def show_issues(self, issues: list[dict[str, Any]], problem: str = "") -> None:
        """Put each issue under its field (one of no field on top, after `problem`), clearing the others."""
        problems = issues_by_field(issues, self.field_of)
        order = [spec.field_id for spec in self.SPECS]
        mark_fields(self, problems, order)
        self.show_problem(problem_text(problem, problems))
        first = next((field_id for field_id in order if field_id in problems), None)
        if first is not None:
            self.query_one(f"#{self.FOCUS.get(first, first)}").focus()

    def show_problem(self, text: str) -> None:
        """Say `text` above the fields (nothing: hide the line), scrolled into sight."""
        problem = self.query_one(f"#{PROBLEM}", Static)
        problem.update(shown(text, lines=True))
        problem.display = bool(text)
        if text:
            self.scroll_home(animate=False)
