"""The start-up floor of our stack: the bare app, after importing what wds-tui's own process must import.

wds-tui's first frame with data needs, besides Textual, pydantic (models and
settings) and httpx (the client). The emulator's server (Starlette on
uvicorn) runs in a child process on the other core when it is embedded, so
it is not part of this process's floor. This app imports just those and then
draws the same bare table, so its start-up time is what any program on this
stack pays before doing any work of its own.
"""

from __future__ import annotations

import httpx  # noqa: F401
import pydantic  # noqa: F401
import pydantic_settings  # noqa: F401
from bare_app import BareApp

if __name__ == "__main__":
    BareApp().run()
