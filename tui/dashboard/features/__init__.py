"""One folder per feature a person can open; features do not import each other."""
