"""Scrape, crawl, batch, map and agent jobs: the store, its model, the scrape engine and webhook deliveries."""
