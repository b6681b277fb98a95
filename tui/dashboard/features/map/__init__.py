"""The map explorer: the form, its fields and refusals, the results, the links table and saving."""
