"""A step of the start-up breakdown: the bare app after importing everything wds-tui imports before its first frame.

Its time minus the floor's is what our own modules cost to import; wds-tui's
time minus this one's is settings, composing the panes and the first round trip.
"""

from __future__ import annotations

from bare_app import BareApp

import tui.api.client  # noqa: F401
import tui.dashboard.shell.app  # noqa: F401
import tui.dashboard.startup.cli  # noqa: F401
import tui.dashboard.startup.launch  # noqa: F401
import tui.dashboard.startup.settings  # noqa: F401

if __name__ == "__main__":
    BareApp().run()
