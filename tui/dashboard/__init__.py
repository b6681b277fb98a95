"""The Textual dashboard: the shell, keys, connection, start-up, a kit of shared parts, and one folder per feature."""
