"""The contract's limits, laid out like `service-api.md`'s tables.

One section per endpoint, in the contract's order, then the rows of its
"Limits" table that belong to no request body. Comments quote the contract's
wording; a bound the contract does not state is marked "not stated" with the
reason it is ours. `tui.contract.requests` builds the request models from these
names, and the emulator validates incoming bodies with those models, so the
client and the emulator share every number here. An independent test written
by hand from the contract's tables (`tests/contract/test_limits_table.py`)
checks the emulator against the contract, not against this module.

Plain numbers only: this module imports nothing, so anything may import it.
"""

from __future__ import annotations

# --- POST /v2/support/docs-search ----------------------------------------------------
# | question | string | yes | length 1 to 8000 |
SUPPORT_QUESTION_MIN, SUPPORT_QUESTION_MAX = 1, 8000

# --- POST /v2/support/ask ------------------------------------------------------------
# | question  | string | yes | length 1 to 8000; what to diagnose |  (as docs-search)
# | rationale | string | no  | length 1 to 2000; what the end user is trying to do |
SUPPORT_RATIONALE_MIN, SUPPORT_RATIONALE_MAX = 1, 2000
# "504 (60-second hard budget hit; a partial envelope is returned)"
ASK_BUDGET_SECONDS = 60

# --- POST /v2/browser -----------------------------------------------------------------
# | ttl          | integer | no | see note | total lifetime in seconds, 30 to 3600 |
TTL_MIN, TTL_MAX = 30, 3600
# "two statements disagree (600 in one, 300 in another)": callers should send ttl.
TTL_DEFAULT_CANDIDATES = (600, 300)
# | activityTtl  | integer | no | 300 | seconds of inactivity before destruction, 10 to 3600 |
ACTIVITY_TTL_MIN, ACTIVITY_TTL_MAX = 10, 3600
ACTIVITY_TTL_DEFAULT = 300
# | profile.name | string | yes when profile is given | | 1 to 128 chars |
PROFILE_NAME_MIN, PROFILE_NAME_MAX = 1, 128
# | profile.saveChanges | ... only one saver at a time |  (Limits: "one at a time per profile")
PROFILE_SAVERS_MAX = 1

# --- POST /v2/browser/{sessionId}/execute ---------------------------------------------
# | code    | string  | yes | | 1 to 100000 characters |
CODE_MIN, CODE_MAX = 1, 100_000
# | timeout | integer | no | no default is stated | seconds, 1 to 300 |
EXEC_TIMEOUT_MIN, EXEC_TIMEOUT_MAX = 1, 300
# Not stated by the contract; observed-behaviour.md: "Execute: `timeout` default 30".
EXECUTE_TIMEOUT_DEFAULT = 30

# --- POST /v2/scrape/{jobId}/interact -------------------------------------------------
# | code    | string | one of code/prompt | | 1 to 100000 chars |  (CODE_MIN, CODE_MAX)
# | prompt  | string | one of code/prompt | | 1 to 10000 chars; natural-language task |
PROMPT_MIN, PROMPT_MAX = 1, 10_000
# | timeout | number | no | 30 | seconds, 1 to 300 |  (EXEC_TIMEOUT_MIN, EXEC_TIMEOUT_MAX)
INTERACT_TIMEOUT_DEFAULT = 30

# --- POST /v2/batch/scrape (scrape options, shared with scrape and crawl) -------------
# | timeout | integer (ms) | no | 60000 | 1000 to 300000 |
BATCH_TIMEOUT_MIN, BATCH_TIMEOUT_MAX = 1000, 300_000
BATCH_TIMEOUT_DEFAULT = 60_000
# | maxAge  | integer (ms) | no | 172800000 (2 days) | serve cache if younger than this |
MAX_AGE_MIN = 0  # not stated: an age cannot be negative
MAX_AGE_DEFAULT = 172_800_000
# | lockdown | boolean | no | false | ... default maxAge extended to 2 years ... |
LOCKDOWN_MAX_AGE_DEFAULT = 2 * 365 * 24 * 3600 * 1000
# | minAge  | integer (ms) | no | | cache-only mode ...; 1 accepts any cached data |
MIN_AGE_MIN = 1
# | waitFor | integer (ms) | no | 0 | extra delay before fetching |
WAIT_FOR_MIN = 0  # not stated: a delay cannot be negative
# | maxConcurrency | integer | no | team's concurrency limit | per-batch concurrency cap |
MAX_CONCURRENCY_MIN = 1  # not stated: a cap of 0 would never scrape
# | urls | array of string (URI) | yes | | URLs to scrape |
BATCH_URLS_MIN = 1  # not stated: a batch of nothing is no job
# | actions | ... wait by duration (`type` `wait`, `milliseconds`) ... |
ACTION_WAIT_MS_MIN = 0  # not stated: a wait cannot be negative
# | location | object | no | country `US` | `country` string ... |
LOCATION_COUNTRY_DEFAULT = "US"
LOCATION_COUNTRY_LENGTH = 2  # not stated: an ISO 3166-1 alpha-2 code, as `US`

# --- POST /v2/map ---------------------------------------------------------------------
# | limit   | integer | no | 5000 | maximum 100000 |
MAP_LIMIT_MIN = 1  # not stated: a limit of 0 asks for nothing
MAP_LIMIT_DEFAULT, MAP_LIMIT_MAX = 5000, 100_000
# | timeout | integer (ms) | no | none | no timeout by default |
MAP_TIMEOUT_MIN = 1  # not stated: 0 ms could never succeed
# | search | string | no | | orders results by relevance |
MAP_SEARCH_MAX = 8000  # not stated: as docs-search's question; ranking costs time per character
# | ignoreCache | boolean | no | false | bypass sitemap cache (cached up to 7 days) |
SITEMAP_CACHE_DAYS = 7

# --- GET /v2/team/activity ------------------------------------------------------------
# "Lists API activity of the last 24 hours"
ACTIVITY_WINDOW_HOURS = 24
# | limit | integer | 50 | 1 to 100 |
ACTIVITY_LIMIT_MIN, ACTIVITY_LIMIT_MAX, ACTIVITY_LIMIT_DEFAULT = 1, 100, 50

# --- POST /v2/crawl/params-preview ----------------------------------------------------
# | prompt | string | yes | max length 10000 |
CRAWL_PREVIEW_PROMPT_MAX = 10_000
CRAWL_PREVIEW_PROMPT_MIN = 1  # not stated: a required prompt that is empty asks for nothing

# --- POST /v2/crawl (request shape "not shown"; bounds from the crawl parameters) ------
CRAWL_MAX_DEPTH_MIN = 0  # not stated: depth 0 is the start page alone
CRAWL_DELAY_MIN = 0  # not stated: a delay cannot be negative
# not stated: an hour between two pages is already a crawl that outlives its
# 24-hour retention; past it the emulator's date arithmetic would overflow.
CRAWL_DELAY_MAX = 3600
CRAWL_LIMIT_MIN = 1  # not stated: a limit of 0 would crawl nothing

# --- Every request body (not stated; what any JSON reader can hold) ----------------
# Integers beyond JavaScript's Number.MAX_SAFE_INTEGER are not kept exactly by
# every JSON reader (a browser's dashboard, a node SDK), so no field takes one.
JSON_INT_MAX = 2**53 - 1
# Nesting deeper than this is no request anyone writes; deeper still and Python's
# JSON reader and writer hit their recursion limit.
JSON_DEPTH_MAX = 64

# --- Limits table rows that constrain no request body ----------------------------------
# | Credits to tokens | 1 credit = 15 tokens |
TOKENS_PER_CREDIT = 15
# | Proxy cost | enhanced up to 5 credits; auto retry success 5 credits |
ENHANCED_PROXY_CREDITS = 5
# | PDF parsing | 1 credit per page, or flat 1 credit without parser |
PDF_CREDITS_PER_PAGE = 1
# | Lockdown | 5 credits hit, 1 credit miss |
LOCKDOWN_HIT_CREDITS, LOCKDOWN_MISS_CREDITS = 5, 1
