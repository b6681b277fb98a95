"""Shared widgets, screens and helpers that know no feature."""
