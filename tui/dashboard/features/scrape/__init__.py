"""The scrape form, its fields (and the words of its refusals), and the scrape result screen."""
