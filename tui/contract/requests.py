"""Request models: the contract's request bodies and queries, with their constraints.

The numbers come from `tui.contract.limits` (laid out like the contract's tables).
The client builds these before sending, so a bad value fails locally with a
message naming the field and its limit; the emulator validates incoming bodies
with the very same models, so both sides agree on the limits by construction.

Field names are Python's; aliases are the wire's camelCase. Unknown fields are
ignored (the service ignores them too), so `extra` is left at pydantic's default.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, WithJsonSchema, model_validator
from pydantic.alias_generators import to_camel

from tui.contract.json_safety import encodes_as_utf8, json_problem
from tui.contract.limits import (
    ACTION_WAIT_MS_MIN,
    ACTIVITY_LIMIT_DEFAULT,
    ACTIVITY_LIMIT_MAX,
    ACTIVITY_LIMIT_MIN,
    ACTIVITY_TTL_MAX,
    ACTIVITY_TTL_MIN,
    BATCH_TIMEOUT_MAX,
    BATCH_TIMEOUT_MIN,
    BATCH_URLS_MIN,
    CODE_MAX,
    CODE_MIN,
    CRAWL_DELAY_MAX,
    CRAWL_DELAY_MIN,
    CRAWL_LIMIT_MIN,
    CRAWL_MAX_DEPTH_MIN,
    CRAWL_PREVIEW_PROMPT_MAX,
    CRAWL_PREVIEW_PROMPT_MIN,
    EXEC_TIMEOUT_MAX,
    EXEC_TIMEOUT_MIN,
    LOCATION_COUNTRY_DEFAULT,
    LOCATION_COUNTRY_LENGTH,
    MAP_LIMIT_MAX,
    MAP_LIMIT_MIN,
    MAP_TIMEOUT_MIN,
    MAX_AGE_MIN,
    MAX_CONCURRENCY_MIN,
    MIN_AGE_MIN,
    PROFILE_NAME_MAX,
    PROFILE_NAME_MIN,
    PROMPT_MAX,
    PROMPT_MIN,
    SUPPORT_QUESTION_MAX,
    SUPPORT_QUESTION_MIN,
    SUPPORT_RATIONALE_MAX,
    SUPPORT_RATIONALE_MIN,
    TTL_MAX,
    TTL_MIN,
    WAIT_FOR_MIN,
)

ActivityEndpoint = Literal[
    "scrape",
    "crawl",
    "batch_scrape",
    "search",
    "extract",
    "llmstxt",
    "deep_research",
    "map",
    "agent",
    "browser",
    "interact",
]
ACTIVITY_ENDPOINTS: tuple[str, ...] = get_args(ActivityEndpoint)

BrowserStatus = Literal["active", "destroyed"]
Language = Literal["python", "node", "bash"]
SitemapMode = Literal["skip", "include", "only"]
ProxyMode = Literal["basic", "enhanced", "auto"]
FormatKind = Literal[
    "markdown",
    "summary",
    "html",
    "rawHtml",
    "links",
    "images",
    "screenshot",
    "json",
    "changeTracking",
    "branding",
    "audio",
    "question",
    "highlights",
]
# An event filter names the event by its suffix or in full (observed-behaviour.md).
WebhookEventFilter = Literal[
    "started",
    "page",
    "completed",
    "failed",
    "crawl.started",
    "crawl.page",
    "crawl.completed",
    "crawl.failed",
    "batch_scrape.started",
    "batch_scrape.page",
    "batch_scrape.completed",
    "batch_scrape.failed",
]

# C0 controls and DEL: a URL holding them (a CR/LF above all) would split the
# request line or a header it is written into.
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")


def is_http_url(value: str, *, allow_ipv6: bool = False) -> bool:
    """True for an absolute http(s) URL with a host name, the only URLs the service scrapes.

    Refused besides: control characters (a CR/LF anywhere), lone surrogates, a
    port out of range, and IPv6 literal hosts (`http://[::1]/`): the service
    fetches public sites by name, and the emulator's synthetic web has none.
    `allow_ipv6` lifts the last rule, for URLs the emulator sends to (webhooks).
    """
    if not isinstance(value, str):
        return False
    text = value.strip()
    if _CONTROL_CHARS.search(text) or not encodes_as_utf8(text):
        return False
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(host) and (allow_ipv6 or ":" not in (host or ""))


def _check_url(value: str) -> str:
    if not is_http_url(value):
        raise ValueError("must be an absolute http:// or https:// URL with a host name")
    return value


HttpUrl = Annotated[str, AfterValidator(_check_url), WithJsonSchema({"type": "string", "format": "uri"})]


def _check_webhook_url(value: str) -> str:
    # The emulator POSTs to it later, outside any request: what httpx cannot send must fail now.
    import httpx  # late: the request models load at start-up, httpx's URL parser is only needed here

    url = value.strip()  # stored as sent to, so the delivery posts to what was checked
    if not is_http_url(url, allow_ipv6=True):
        raise ValueError("must be an absolute http:// or https:// URL with a host")
    try:
        httpx.URL(url)
    except (httpx.InvalidURL, UnicodeError, ValueError):
        raise ValueError("must be a URL an HTTP client can send to") from None
    return url


# A receiver on IPv6 loopback (`http://[::1]:9000/hook`) is a fine place to send to.
WebhookUrl = Annotated[str, AfterValidator(_check_webhook_url), WithJsonSchema({"type": "string", "format": "uri"})]

# RFC 9110 `token` for names; visible ASCII, space and tab for values (no CR/LF).
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_VALUE = re.compile(r"[\t\x20-\x7e]*")


def _check_headers(headers: dict[str, str]) -> dict[str, str]:
    for name, value in headers.items():
        if not _HEADER_NAME.fullmatch(name):
            raise ValueError(f"header name {name[:40]!r} is not an HTTP token")
        if not _HEADER_VALUE.fullmatch(value):
            raise ValueError(f"header {name!r} must be printable ASCII (no CR or LF)")
    return headers


HttpHeaders = Annotated[dict[str, str], AfterValidator(_check_headers)]


class WireModel(BaseModel):
    """Base of every request model: camelCase on the wire, snake_case in Python."""

    # defer_build: validators are built on first use, not at import (start-up time).
    # allow_inf_nan: `Infinity` / `NaN` are no JSON, and a stored one broke every listing.
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, defer_build=True, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _travels_as_json(cls, data: Any) -> Any:
        """Refuse what no response could carry back (see `tui.contract.json_safety`), anywhere in the body."""
        problem = json_problem(data)
        if problem is not None:
            raise ValueError(str(problem))
        return data

    def to_wire(self) -> dict[str, Any]:
        """The JSON body (or query) as the service expects it."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


# --- team -------------------------------------------------------------------


class TokenUsageQuery(WireModel):
    # a query string, so "true"/"false" are accepted (lax bool)
    by_api_key: bool = False


class ActivityQuery(WireModel):
    endpoint: ActivityEndpoint | None = None
    limit: int = Field(ACTIVITY_LIMIT_DEFAULT, ge=ACTIVITY_LIMIT_MIN, le=ACTIVITY_LIMIT_MAX)
    cursor: str | None = Field(None, min_length=1)


# --- support ----------------------------------------------------------------


class DocsSearchRequest(WireModel):
    question: str = Field(min_length=SUPPORT_QUESTION_MIN, max_length=SUPPORT_QUESTION_MAX)


class SupportAskRequest(WireModel):
    question: str = Field(min_length=SUPPORT_QUESTION_MIN, max_length=SUPPORT_QUESTION_MAX)
    rationale: str | None = Field(None, min_length=SUPPORT_RATIONALE_MIN, max_length=SUPPORT_RATIONALE_MAX)
    job_id: str | None = Field(None, alias="jobId")
    context: dict[str, Any] | None = None


# --- browser ----------------------------------------------------------------


class BrowserProfile(WireModel):
    name: str = Field(min_length=PROFILE_NAME_MIN, max_length=PROFILE_NAME_MAX)
    save_changes: StrictBool = True


class BrowserCreateRequest(WireModel):
    ttl: int | None = Field(None, ge=TTL_MIN, le=TTL_MAX)
    activity_ttl: int | None = Field(None, ge=ACTIVITY_TTL_MIN, le=ACTIVITY_TTL_MAX)
    stream_web_view: StrictBool | None = None
    profile: BrowserProfile | None = None


class BrowserListQuery(WireModel):
    status: BrowserStatus | None = None


class ExecuteRequest(WireModel):
    code: str = Field(min_length=CODE_MIN, max_length=CODE_MAX)
    language: Language = "node"
    timeout: int | None = Field(None, ge=EXEC_TIMEOUT_MIN, le=EXEC_TIMEOUT_MAX)


class InteractRequest(WireModel):
    code: str | None = Field(None, min_length=CODE_MIN, max_length=CODE_MAX)
    prompt: str | None = Field(None, min_length=PROMPT_MIN, max_length=PROMPT_MAX)
    language: Language | None = None
    timeout: float | None = Field(None, ge=EXEC_TIMEOUT_MIN, le=EXEC_TIMEOUT_MAX)
    origin: str | None = None

    @model_validator(mode="after")
    def _exactly_one_of_code_or_prompt(self) -> InteractRequest:
        if self.code is None and self.prompt is None:
            raise ValueError("Either 'code' or 'prompt' must be provided.")
        if self.code is not None and self.prompt is not None:
            raise ValueError("Provide exactly one of 'code' or 'prompt', not both.")
        return self


# --- scrape options (shared by scrape, batch scrape and crawl) ---------------


class FormatObject(WireModel):
    """A format given as an object: `type` plus options (`schema` for json)."""

    model_config = ConfigDict(extra="allow")

    type: FormatKind
    schema_: dict[str, Any] | None = Field(None, alias="schema")


class Location(WireModel):
    country: str = Field(
        LOCATION_COUNTRY_DEFAULT, min_length=LOCATION_COUNTRY_LENGTH, max_length=LOCATION_COUNTRY_LENGTH
    )
    languages: list[str] | None = None


class Action(WireModel):
    """A step run before capture; only `wait`'s fields are in the contract."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(min_length=1)
    milliseconds: int | None = Field(None, ge=ACTION_WAIT_MS_MIN)


class ScrapeProfile(WireModel):
    model_config = ConfigDict(extra="allow")

    name: str = Field(min_length=PROFILE_NAME_MIN, max_length=PROFILE_NAME_MAX)
    save_changes: StrictBool | None = None


class ScrapeOptions(WireModel):
    formats: list[FormatKind | FormatObject] | None = None
    only_main_content: StrictBool | None = None
    only_clean_content: StrictBool | None = None
    include_tags: list[str] | None = None
    exclude_tags: list[str] | None = None
    max_age: int | None = Field(None, ge=MAX_AGE_MIN)
    min_age: int | None = Field(None, ge=MIN_AGE_MIN)
    headers: dict[str, str] | None = None
    wait_for: int | None = Field(None, ge=WAIT_FOR_MIN)
    mobile: StrictBool | None = None
    skip_tls_verification: StrictBool | None = None
    timeout: int | None = Field(None, ge=BATCH_TIMEOUT_MIN, le=BATCH_TIMEOUT_MAX)
    parsers: list[str | dict[str, Any]] | None = None
    actions: list[Action] | None = None
    location: Location | None = None
    remove_base64_images: StrictBool | None = None
    block_ads: StrictBool | None = None
    proxy: ProxyMode | None = None
    store_in_cache: StrictBool | None = None
    lockdown: StrictBool | None = None
    profile: ScrapeProfile | None = None
    zero_data_retention: StrictBool | None = None


class WebhookConfig(WireModel):
    url: WebhookUrl
    headers: HttpHeaders | None = None
    metadata: dict[str, Any] | None = None
    events: list[WebhookEventFilter] | None = None


class ScrapeRequest(ScrapeOptions):
    url: HttpUrl


class BatchScrapeRequest(ScrapeOptions):
    # URLs stay plain strings: invalid ones are the server's to drop (or refuse)
    # according to ignoreInvalidURLs, as the contract describes.
    urls: list[str] = Field(min_length=BATCH_URLS_MIN)
    webhook: WebhookUrl | WebhookConfig | None = None
    max_concurrency: int | None = Field(None, ge=MAX_CONCURRENCY_MIN)
    ignore_invalid_urls: StrictBool | None = Field(None, alias="ignoreInvalidURLs")


# --- map and crawl ------------------------------------------------------------


class MapRequest(WireModel):
    url: HttpUrl
    search: str | None = None
    sitemap: SitemapMode | None = None
    include_subdomains: StrictBool | None = None
    ignore_query_parameters: StrictBool | None = None
    ignore_cache: StrictBool | None = None
    limit: int | None = Field(None, ge=MAP_LIMIT_MIN, le=MAP_LIMIT_MAX)
    timeout: int | None = Field(None, ge=MAP_TIMEOUT_MIN)
    location: Location | None = None


class CrawlParamsPreviewRequest(WireModel):
    url: HttpUrl
    # The contract gives only the maximum; the minimum is ours (see limits).
    prompt: str = Field(min_length=CRAWL_PREVIEW_PROMPT_MIN, max_length=CRAWL_PREVIEW_PROMPT_MAX)


class CrawlRequest(WireModel):
    url: HttpUrl
    prompt: str | None = Field(None, min_length=CRAWL_PREVIEW_PROMPT_MIN, max_length=CRAWL_PREVIEW_PROMPT_MAX)
    include_paths: list[str] | None = None
    exclude_paths: list[str] | None = None
    max_depth: int | None = Field(None, ge=CRAWL_MAX_DEPTH_MIN)
    max_discovery_depth: int | None = Field(None, ge=CRAWL_MAX_DEPTH_MIN)
    crawl_entire_domain: StrictBool | None = None
    allow_external_links: StrictBool | None = None
    allow_subdomains: StrictBool | None = None
    sitemap: SitemapMode | None = None
    ignore_query_parameters: StrictBool | None = None
    ignore_robots_txt: StrictBool | None = None
    robots_user_agent: str | None = None
    deduplicate_similar_urls: StrictBool | None = Field(None, alias="deduplicateSimilarURLs")
    delay: float | None = Field(None, ge=CRAWL_DELAY_MIN, le=CRAWL_DELAY_MAX)
    limit: int | None = Field(None, ge=CRAWL_LIMIT_MIN)
    webhook: WebhookUrl | WebhookConfig | None = None
    scrape_options: ScrapeOptions | None = None
