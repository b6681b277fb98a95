"""Support: ask the support agent, its answer and log, and the docs search."""
