"""The browser sessions pane, its notes, the new-session form and the session detail screen."""
