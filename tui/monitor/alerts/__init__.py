"""Alert rules: typed observations in, fired/repeated/resolved events out, on an injected clock (no I/O).

- `observations`: what the dashboard's polls and `wds-tui watch` feed;
- `rules`: one pydantic model per rule kind, with its limits and meaning;
- `watching`, `job_watchers`, `service_watchers`: what each rule remembers, bounded;
- `engine`: the lifecycle (fire, repeat, resolve, acknowledge, silence);
- `config`: a context's `[alerts]` table into rules, and the rules in words.
"""
