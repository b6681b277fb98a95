"""A request as the `curl` command that makes it, to paste into a ticket or a terminal.

The key is never in it: the header reads `"Authorization: Bearer $WDS_API_KEY"`,
so a ticket carries no secret and the command runs as pasted wherever that
variable is set (a masked key would only earn a 401). Every other part is
quoted for a POSIX shell, so a URL or a body with quotes or spaces survives.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

KEY_VARIABLE = "WDS_API_KEY"
"""The environment variable the copied command reads the key from (the one the dashboard reads too)."""


def curl_command(
    method: str, base_url: str, path: str, *, body: Any = None, params: dict[str, Any] | None = None
) -> str:
    """`curl -X POST 'https://…/v2/scrape' -H "Authorization: Bearer $WDS_API_KEY" -H '…' -d '{…}'`.

    `body` is the JSON body as sent on the wire (already in the service's spelling);
    lines are broken with backslashes so the command stays readable.
    """
    url = base_url.rstrip("/") + path
    if params:
        from urllib.parse import urlencode

        url += "?" + urlencode({key: value for key, value in params.items() if value is not None})
    parts = [f"curl -X {method.upper()} {shlex.quote(url)}"]
    # Double quotes, not shlex's single ones: the shell must expand the variable.
    parts.append(f'-H "Authorization: Bearer ${KEY_VARIABLE}"')
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
