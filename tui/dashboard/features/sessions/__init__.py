"""The browser sessions pane, its notes and the new-session form."""
