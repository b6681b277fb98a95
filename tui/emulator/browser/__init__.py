"""Browser backends for the emulator's browser sessions."""
