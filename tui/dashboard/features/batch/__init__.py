"""The batch scrape form, its fields and refusals, and the batch status screen."""
