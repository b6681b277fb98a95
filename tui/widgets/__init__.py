"""Small self-contained widgets shared by panes and screens."""
