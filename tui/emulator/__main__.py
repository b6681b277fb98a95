"""`python -m tui.emulator` serves the emulator, like `wds-tui emulator`."""

from tui.emulator.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
