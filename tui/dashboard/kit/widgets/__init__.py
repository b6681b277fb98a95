"""Widgets shared by the features: live tables, document views, the footer, hyperlinks and the like."""
