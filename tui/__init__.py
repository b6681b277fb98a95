"""wds-tui: a terminal dashboard for a web-data API service."""

__version__ = "0.1.0"
