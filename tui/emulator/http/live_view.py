"""The session's `liveViewUrl` and `interactiveLiveViewUrl`: a screenshot page.

`GET /live/{id}?token=...` is a small HTML page that reloads
`/live/{id}/screenshot.png?token=...` (CDP `Page.captureScreenshot` of the
page executed code sees as `page`) every second. With `&interactive=1` the page also sends
clicks, wheel scrolls and typed keys to `POST /live/{id}/input`, which replays
them with `Input.dispatch*Event`. Watching is not activity; interacting is.

Tokens (see `access.py`): the view secret opens the view-only page and the
screenshots; the interactive page and the input endpoint need the interact
secret. A page only ever embeds the token it was opened with, so the
view-only link never reveals the interact secret.
"""

from __future__ import annotations

import base64
import html
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tui.emulator.browser.access import Access
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.cdp_call import CdpCall, CdpCallError
from tui.emulator.http.cdp_proxy import CdpSessions, authorized_handle

REFRESH_MS = 1000
_NAMED_KEYS = {
    "Enter": ("\r", 13),
    "Tab": ("\t", 9),
    "Backspace": ("", 8),
    "Escape": ("", 27),
    "ArrowUp": ("", 38),
    "ArrowDown": ("", 40),
    "ArrowLeft": ("", 37),
    "ArrowRight": ("", 39),
}

_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Live view · {session}</title>
<style>
body {{ margin: 0; background: #202124; color: #e8eaed; font: 14px system-ui, sans-serif; }}
header {{ padding: 6px 10px; }} img {{ max-width: 100%; display: block; margin: auto; }}
.interactive img {{ cursor: crosshair; }}
</style></head>
<body class="{mode}"><header id="status">Session {session} · {label}</header>
<img id="screen" alt="the session's current page" tabindex="0">
<script>
const base = {base}, token = {token}, interactive = {interactive};
const img = document.getElementById("screen"), status = document.getElementById("status");
let ended = false;
async function refresh() {{
  if (ended) return;
  const response = await fetch(`${{base}}/screenshot.png?token=${{token}}&t=${{Date.now()}}`).catch(() => null);
  if (response && response.ok) {{
    const previous = img.src; img.src = URL.createObjectURL(await response.blob());
    if (previous) URL.revokeObjectURL(previous);
  }} else if (response && (response.status === 403 || response.status === 410)) {{
    ended = true; status.textContent = "This browser session has ended."; return;
  }}
  setTimeout(refresh, {refresh_ms});
}}
async function send(action) {{
  await fetch(`${{base}}/input?token=${{token}}`, {{method: "POST",
    headers: {{"content-type": "application/json"}}, body: JSON.stringify(action)}});
}}
function point(event) {{
  const box = img.getBoundingClientRect();
  return {{x: (event.clientX - box.left) * img.naturalWidth / box.width,
           y: (event.clientY - box.top) * img.naturalHeight / box.height}};
}}
if (interactive) {{
  img.addEventListener("click", (e) => send({{type: "click", ...point(e)}}));
  img.addEventListener("wheel", (e) => {{ e.preventDefault(); send({{type: "wheel", ...point(e), dy: e.deltaY}}); }});
  img.addEventListener("keydown", (e) => {{
    e.preventDefault();
    send(e.key.length === 1 ? {{type: "text", text: e.key}} : {{type: "key", key: e.key}});
  }});
}}
refresh();
</script></body></html>
"""


def _forbidden() -> Response:
    return Response("Invalid or expired live view link.", status_code=403, media_type="text/plain")


async def _first_page_session(cdp: CdpCall) -> str | None:
    """Attach to the page executed code gets as `page`.

    Chromium lists the most recently opened page first, and Playwright's
    `connect_over_cdp` attaches in that order, so `context.pages[0]` in a new
    execution and the first page target here are the same page.
    """
    targets = await cdp.send("Target.getTargets")
    pages = [info for info in targets.get("targetInfos", []) if info.get("type") == "page"]
    if not pages:
        return None
    attached = await cdp.send("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})
    return str(attached["sessionId"])


async def capture_screenshot(handle: BrowserHandle) -> bytes | None:
    """A PNG of the page executed code sees, or None when the session has no page."""
    async with CdpCall(handle.ws_endpoint) as cdp:
        page_session = await _first_page_session(cdp)
        if page_session is None:
            return None
        shot = await cdp.send("Page.captureScreenshot", {"format": "png"}, session_id=page_session)
        return base64.b64decode(shot["data"])


def _input_events(action: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """CDP commands for one viewer action; ValueError for anything else."""
    kind = action.get("type")
    if kind in ("click", "wheel"):
        x, y = float(action["x"]), float(action["y"])
        if kind == "wheel":
            return [
                (
                    "Input.dispatchMouseEvent",
                    {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": float(action.get("dy", 0))},
                )
            ]
        press = {"x": x, "y": y, "button": "left", "clickCount": 1}
        return [
            ("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}),
            ("Input.dispatchMouseEvent", {"type": "mousePressed", **press}),
            ("Input.dispatchMouseEvent", {"type": "mouseReleased", **press}),
        ]
    if kind == "text":
        return [("Input.insertText", {"text": str(action["text"])[:1000]})]
    if kind == "key" and action.get("key") in _NAMED_KEYS:
        key = str(action["key"])
        text, code = _NAMED_KEYS[key]
        base = {"key": key, "windowsVirtualKeyCode": code, "text": text}
        return [
            ("Input.dispatchKeyEvent", {"type": "keyDown", **base}),
            ("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "windowsVirtualKeyCode": code}),
        ]
    raise ValueError("unsupported input")


def live_view_routes(sessions: CdpSessions, prefix: str = "/live") -> list[BaseRoute]:
    """Routes for the live view page, its screenshots and (interactive) input."""

    async def page(request: Request) -> Response:
        session_id = request.path_params["session_id"]
        token = request.query_params.get("token")
        interactive = request.query_params.get("interactive") in ("1", "true")
        access = Access.INTERACT if interactive else Access.VIEW
        if authorized_handle(sessions, session_id, token, access) is None:
            return _forbidden()
        body = _PAGE.format(
            session=html.escape(session_id),
            label="interactive" if interactive else "view only",
            mode="interactive" if interactive else "",
            base=json.dumps(f"{prefix}/{session_id}"),
            token=json.dumps(token),
            interactive="true" if interactive else "false",
            refresh_ms=REFRESH_MS,
        )
        return HTMLResponse(body, headers={"cache-control": "no-store"})

    async def screenshot(request: Request) -> Response:
        handle = authorized_handle(
            sessions, request.path_params["session_id"], request.query_params.get("token"), Access.VIEW
        )
        if handle is None:
            return _forbidden()
        try:
            png = await capture_screenshot(handle)
        except CdpCallError as exc:
            return Response(f"Screenshot failed: {exc}", status_code=502, media_type="text/plain")
        if png is None:
            return Response("The session has no open page.", status_code=404, media_type="text/plain")
        return Response(png, media_type="image/png", headers={"cache-control": "no-store"})

    async def send_input(request: Request) -> Response:
        session_id = request.path_params["session_id"]
        handle = authorized_handle(sessions, session_id, request.query_params.get("token"), Access.INTERACT)
        if handle is None:
            return _forbidden()
        try:
            commands = _input_events(await request.json())
        except (ValueError, KeyError, TypeError, AttributeError):
            return JSONResponse({"error": "Send {type: click|wheel|text|key, ...}."}, status_code=400)
        sessions.touch(session_id)
        try:
            async with CdpCall(handle.ws_endpoint) as cdp:
                page_session = await _first_page_session(cdp)
                if page_session is None:
                    return JSONResponse({"error": "The session has no open page."}, status_code=404)
                for method, params in commands:
                    await cdp.send(method, params, session_id=page_session)
        except CdpCallError as exc:
            return JSONResponse({"error": f"Input failed: {exc}"}, status_code=502)
        return JSONResponse({"ok": True})

    return [
        Route(f"{prefix}/{{session_id}}", page, methods=["GET"], name="live_view"),
        Route(f"{prefix}/{{session_id}}/screenshot.png", screenshot, methods=["GET"], name="live_view_screenshot"),
        Route(f"{prefix}/{{session_id}}/input", send_input, methods=["POST"], name="live_view_input"),
    ]
