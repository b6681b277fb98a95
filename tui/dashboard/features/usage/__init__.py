"""The usage pane: its chart, projection and capacity line."""
