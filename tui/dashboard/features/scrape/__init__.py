"""The scrape form, its fields and refusals, and the scrape result screen."""
