"""The batch scrape form, its fields (and the words of its refusals), and the batch status screen."""
