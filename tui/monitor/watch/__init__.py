"""`wds-tui watch` without its command line: the polls that feed a context's `Monitor`, and what it says.

- `feed`: what the poller needs of a `Monitor` (a Protocol, so tests feed a recorder);
- `job_states`: the state of each new activity entry's job, asked sparingly (bounded, cached, 429-aware);
- `activity_reader`: the activity entries not seen before, page by page, with a bounded memory;
- `poll_stats`: poll errors by endpoint and a latency histogram, for the metrics;
- `poller`: one context's polls, each on its own interval, a failure turned into the service's health;
- `event_log`: the JSON lines `watch` writes (alerts and notable events), to stdout or a file;
- `metrics`, `metrics_server`: the Prometheus collector and the loopback HTTP server that serves it
  (imported only with `--metrics`: `prometheus_client` is not loaded otherwise);
- `run`: several contexts watched until a signal, then stopped in order.
"""
