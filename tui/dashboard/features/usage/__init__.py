"""The usage pane and its bars, chart, projection and series."""
