"""`python -m tui` is the same as the `wds-tui` command."""

from tui.dashboard.startup.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
