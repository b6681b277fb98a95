"""State that survives a restart: snapshots of an emulator (`snapshot`) and the SQLite file they live in (`state_file`)."""
