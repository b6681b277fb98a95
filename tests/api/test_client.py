"""The client object: construction, lifecycle, and the key kept out of sight."""

from __future__ import annotations

import logging
import ssl

import httpx
import pytest
from pydantic import SecretStr

from tests.api.mock_service import API_KEY, BASE_URL, Recorder, SleepRecorder, error_body, json_response
from tui.api import errors
from tui.api.client import WdsClient


def test_repr_masks_the_key() -> None:
    client = WdsClient(BASE_URL, API_KEY)
    assert API_KEY not in repr(client) and API_KEY not in str(client)
    assert repr(client) == "WdsClient(base_url='http://wds.test', api_key='…cdef')"
    assert client.api_key_hint == "…cdef"
    assert API_KEY not in repr(client.browser)


def test_secretstr_key_is_accepted() -> None:
    assert WdsClient(BASE_URL, SecretStr(API_KEY)).api_key_hint == "…cdef"


@pytest.mark.parametrize("base_url", ["wds.test", "ftp://wds.test", "http://", "http://wds.test/?x=1"])
def test_bad_base_url(base_url: str) -> None:
    with pytest.raises(ValueError, match="base_url"):
        WdsClient(base_url, API_KEY)


def test_surrounding_whitespace_of_the_key_is_dropped() -> None:
    assert WdsClient(BASE_URL, f" {API_KEY}\n")._headers()["Authorization"] == f"Bearer {API_KEY}"


def test_trailing_slash_is_dropped() -> None:
    assert WdsClient("http://wds.test/", API_KEY).base_url == "http://wds.test"


@pytest.mark.parametrize("key", ["", "  ", "wds-abc def", "wds-abc\x07def"])
def test_bad_api_key_is_refused_without_quoting_it(key: str) -> None:
    with pytest.raises(ValueError, match="api_key") as caught:
        WdsClient(BASE_URL, key)
    if key.strip():
        assert key.strip() not in str(caught.value)


async def test_owned_http_client_is_closed() -> None:
    async with WdsClient(BASE_URL, API_KEY) as client:
        assert not client.is_closed
    assert client.is_closed


async def test_injected_http_client_is_left_open() -> None:
    http = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: json_response(200, {})))
    async with WdsClient(BASE_URL, API_KEY, http_client=http):
        pass
    assert not http.is_closed
    await http.aclose()


async def test_with_options_shares_the_pool(client: WdsClient, recorder: Recorder) -> None:
    quick = client.with_options(timeout=2.0, max_retries=0)
    recorder.queue.append(json_response(200, {"success": True, "crawls": []}))
    await quick.crawl.active()
    assert recorder.last.extensions["timeout"]["read"] == 2.0
    assert quick.retry_policy.max_retries == 0 and client.retry_policy.max_retries == 2
    await quick.aclose()
    assert not client.is_closed


async def test_path_base_url_is_kept(recorder: Recorder) -> None:
    http = httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    recorder.queue.append(json_response(200, {"success": True, "crawls": []}))
    async with WdsClient("http://wds.test/prefix/", API_KEY, http_client=http) as client:
        await client.crawl.active()
    assert recorder.last.url.path == "/prefix/v2/crawl/active"
    await http.aclose()


async def test_the_key_never_reaches_logs(
    client: WdsClient, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="tui.api")
    recorder.queue += [
        json_response(429, error_body(f"slow down {API_KEY}", "RATE_LIMITED")),
        json_response(200, {"success": True, "crawls": []}),
    ]
    await client.crawl.active()
    assert caplog.records, "the calls were logged"
    assert API_KEY not in caplog.text


async def test_the_key_is_in_no_exception(client: WdsClient, recorder: Recorder, sleeper: SleepRecorder) -> None:
    failures: list[Exception] = []
    recorder.queue += [
        httpx.Response(200, text=f"<html>{API_KEY}</html>", headers={"content-type": "text/html"}),
        json_response(200, {"success": True, "crawls": [{"id": API_KEY}]}),
        json_response(200, {"success": True, "sessions": [{"id": "s", "status": "active", "createdAt": API_KEY}]}),
        httpx.ConnectError(f"refused {API_KEY}"),
    ]
    for call in (
        client.crawl.active,
        client.crawl.active,
        client.browser.list,
        client.with_options(max_retries=0).crawl.active,
    ):
        with pytest.raises(errors.APIError) as caught:
            await call()
        failures.append(caught.value)
    for failure in failures:
        assert API_KEY not in str(failure) and API_KEY not in repr(failure)
        assert API_KEY not in str(getattr(failure, "excerpt", ""))


def test_every_error_has_a_title() -> None:
    for name in errors.__all__:
        value = getattr(errors, name)
        if isinstance(value, type) and issubclass(value, errors.WdsError):
            assert value.title and value.title != "" and value.__doc__


def test_package_exports_resolve() -> None:
    import tui.api

    missing = [name for name in tui.api.__all__ if getattr(tui.api, name, None) is None]
    assert missing == []
    assert {"WdsClient", "RateLimitError", "ActivityPage", "parse_event"} <= set(tui.api.__all__)


def test_a_number_as_timeout_keeps_a_short_connect_limit() -> None:
    # An unreachable host must be reported in seconds, not after the whole answer budget.
    client = WdsClient("http://127.0.0.1:9", "wds-" + "1" * 32, timeout=30)
    assert client.timeout.read == 30 and client.timeout.connect == 5
    assert WdsClient("http://127.0.0.1:9", "wds-" + "1" * 32, timeout=2).timeout.connect == 2


def test_a_remote_service_gets_the_environment_and_verified_tls() -> None:
    client = WdsClient("https://api.example.com", "wds-" + "0" * 32)
    assert client._http._trust_env is True


def test_a_loopback_http_service_gets_no_proxy_and_a_tls_context_that_trusts_nothing() -> None:
    client = WdsClient("http://127.0.0.1:8000", "wds-" + "0" * 32)
    assert client._http._trust_env is False
    context = client._http._transport._pool._ssl_context
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0  # fails closed should TLS ever be spoken


@pytest.mark.parametrize(
    "base_url",
    [f"http://{API_KEY}@wds.test", f"https://user:{API_KEY}@wds.test/v2", f"{API_KEY}@wds.test", f"ftp://{API_KEY}@x"],
)
def test_credentials_in_the_base_url_are_refused_without_quoting_them(base_url: str) -> None:
    # httpx would send them as basic auth, and a URL is printed freely
    with pytest.raises(ValueError, match="must not carry credentials") as caught:
        WdsClient(base_url, API_KEY)
    assert API_KEY not in str(caught.value) and f"…{API_KEY[-4:]}@" in str(caught.value)  # masked as a key is


def test_an_at_sign_after_the_host_is_no_credential() -> None:
    assert WdsClient("http://wds.test/team@x", API_KEY).base_url == "http://wds.test/team@x"
