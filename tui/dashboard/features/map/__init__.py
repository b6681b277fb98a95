"""The map explorer: the form, its fields (and the words of its refusals), the results, the links table and saving."""
