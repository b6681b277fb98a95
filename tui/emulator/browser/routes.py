"""The browser package's routes in the emulator app: the CDP proxy and the live view.

`tui.emulator.app.create_app` picks this module up by name and calls `routes(emulator)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from tui.emulator.browser.cdp_proxy import cdp_proxy_route
from tui.emulator.browser.live_view import live_view_routes

if TYPE_CHECKING:
    from tui.emulator.state import Emulator


def routes(emulator: Emulator) -> list[BaseRoute]:
    """`/cdp/{session_id}` (websocket) and `/live/{session_id}...` over the emulator's session manager."""
    return [cdp_proxy_route(emulator.browser), *live_view_routes(emulator.browser)]
