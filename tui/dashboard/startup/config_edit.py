"""Writing one key into the operator's config file, keeping everything else they wrote (comments too).

Only one edit exists: `api_key` of a context (or of the unnamed one), after
the operator confirmed it on the connection screen. The file is edited line
by line, not re-serialised, so comments and layout survive; it is written
beside and renamed, then left readable by its owner only (0600).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

_TABLE = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
_API_KEY = re.compile(r"^\s*api_key\s*=")


def _table_of(context: str | None, text: str) -> str | None:
    """The table whose api_key to set: the context's, `service` if the file has one, else the top level (None)."""
    if context is not None:
        return f"contexts.{context}"
    names = {m.group(1) for line in text.splitlines() if (m := _TABLE.match(line))}
    return "service" if "service" in names else None


def with_api_key(text: str, context: str | None, key: str) -> str:
    """`text` (a TOML config) with `api_key` set to `key` in the right table (added when missing)."""
    table = _table_of(context, text)
    line = f"api_key = {json.dumps(key)}"  # a TOML basic string: JSON's escaping is TOML's for these characters
    lines = text.splitlines()
    current: str | None = None
    start = 0 if table is None else None  # where the table's lines begin (after its header)
    end = len(lines)
    for index, raw in enumerate(lines):
        header = _TABLE.match(raw)
        if header:
            if current == table and start is not None and end == len(lines):
                end = index
            current = header.group(1)
            if current == table:
                start, end = index + 1, len(lines)
            elif table is None and start == 0 and end == len(lines):
                end = index  # the top level ends at the first table
    if start is None:  # the table is not there yet: add it at the end
        body = "\n".join(lines).rstrip("\n")
        return f"{body}\n\n[{table}]\n{line}\n" if body else f"[{table}]\n{line}\n"
    for index in range(start, end):
        if _API_KEY.match(lines[index]):
            lines[index] = line
            return "\n".join(lines) + "\n"
    lines.insert(start, line)
    return "\n".join(lines) + "\n"


def save_api_key(path: Path, context: str | None, key: str) -> None:
    """Set `api_key` in the config file at `path` (created if missing); mode 0600. Raises OSError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    updated = with_api_key(text, context, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".config-", suffix=".toml")
    try:
        os.fchmod(handle, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(updated)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
