"""The start-up floor of our stack: the bare app, after importing what wds-tui must import.

wds-tui's first frame with data needs, besides Textual, pydantic (models and
settings), httpx (the client) and Starlette on uvicorn (the embedded
emulator, which runs inside the process). This app imports just those and
then draws the same bare table, so its start-up time is what any program on
this stack pays before doing any work of its own.
"""

from __future__ import annotations

import httpx  # noqa: F401
import pydantic  # noqa: F401
import pydantic_settings  # noqa: F401
import starlette.applications  # noqa: F401
import uvicorn  # noqa: F401
from bare_app import BareApp

if __name__ == "__main__":
    BareApp().run()
