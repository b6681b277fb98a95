"""The connection: its watch, the banner, the problem screen and the advice in words."""
