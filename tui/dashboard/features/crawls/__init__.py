"""The crawls pane, its tracker, the crawl form and the crawl status screen."""
