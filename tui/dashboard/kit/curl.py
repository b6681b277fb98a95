"""A request as the `curl` command that makes it, to paste into a ticket or a terminal.

The key is masked (`Authorization: Bearer …abcd`): a ticket is no place for a
secret, and whoever runs the command puts their own key back. Every part is
quoted for a POSIX shell, so a URL or a body with quotes or spaces survives.
"""

from __future__ import annotations

import json
import shlex
from typing import Any


def curl_command(
    method: str, base_url: str, path: str, *, key_hint: str, body: Any = None, params: dict[str, Any] | None = None
) -> str:
    """`curl -X POST 'https://…/v2/scrape' -H 'Authorization: Bearer …abcd' -H 'Content-Type: application/json' -d '{…}'`.

    `body` is the JSON body as sent on the wire (already in the service's spelling);
    lines are broken with backslashes so the command stays readable. `key_hint`
    is the masked key (`client.api_key_hint`), never the key itself.
    """
    url = base_url.rstrip("/") + path
    if params:
        from urllib.parse import urlencode

        url += "?" + urlencode({key: value for key, value in params.items() if value is not None})
    parts = [f"curl -X {method.upper()} {shlex.quote(url)}"]
    parts.append(f"-H {shlex.quote('Authorization: Bearer ' + key_hint)}")
    if body is not None:
        parts.append(f"-H {shlex.quote('Content-Type: application/json')}")
        parts.append(f"-d {shlex.quote(json.dumps(body, ensure_ascii=False, separators=(',', ':')))}")
    return " \\\n  ".join(parts)


def readable_curl(command: str, body: dict[str, Any]) -> str:
    """The same command with its JSON body indented, one member a line.

    On screen a one-line body wraps wherever the width falls, in the middle of
    a string too, and a copy from the terminal then breaks the JSON; indented,
    the lines are short and every break falls between tokens.
    """
    compact = shlex.quote(json.dumps(body, ensure_ascii=False, separators=(",", ":")))
    indented = shlex.quote(json.dumps(body, ensure_ascii=False, indent=2))
    return command.replace(compact, indented)
