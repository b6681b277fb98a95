"""`wds-tui serve`'s checks and what each browser tab runs (tui.dashboard.startup.serve), without a server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.dashboard.startup.serve import ServeRefused, is_loopback, plan_serve, service_environment


def plan(**overrides):  # type: ignore[no-untyped-def]
    options = {
        "host": "127.0.0.1",
        "port": 8000,
        "allow_remote": False,
        "public_url": None,
        "dashboard_flags": [],
        "service_environment": {},
        "python": "/usr/bin/python3",
    }
    return plan_serve(**{**options, **overrides})


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_hosts(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.4", "myserver", "::", "example.com"])
def test_other_hosts_are_remote(host: str) -> None:
    assert not is_loopback(host)


def test_the_default_serves_loopback_with_the_dashboard_as_the_command() -> None:
    served = plan()
    assert served.public_url == "http://127.0.0.1:8000"
    assert served.command == "/usr/bin/python3 -m tui"


def test_a_remote_host_needs_allow_remote_and_says_why() -> None:
    with pytest.raises(ServeRefused, match="--allow-remote") as refused:
        plan(host="192.168.1.4")
    assert "API key" in str(refused.value)
    assert plan(host="192.168.1.4", allow_remote=True).public_url == "http://192.168.1.4:8000"


def test_listening_everywhere_needs_the_public_address() -> None:
    with pytest.raises(ServeRefused, match="--public-url"):
        plan(host="0.0.0.0", allow_remote=True)
    served = plan(host="0.0.0.0", allow_remote=True, public_url="http://ops-box:8000/")
    assert served.public_url == "http://ops-box:8000"


def test_an_ipv6_host_is_bracketed_in_the_page_address() -> None:
    assert plan(host="::1").public_url == "http://[::1]:8000"


def test_a_bracketed_ipv6_host_is_bracketed_once() -> None:
    assert plan(host="[::1]").public_url == "http://[::1]:8000"


@pytest.mark.parametrize(
    "public_url",
    ["ops-box:8000", "ftp://ops-box", "http://", "http://ops-box:99999", "http://ops-box/?token=x", "http://bad host"],
)
def test_a_public_url_that_is_not_a_page_address_is_refused(public_url: str) -> None:
    with pytest.raises(ServeRefused, match="--public-url: .* is not a page address: give http"):
        plan(public_url=public_url)


@pytest.mark.parametrize("port", [0, -1, 65536])
def test_a_port_out_of_range_is_refused(port: int) -> None:
    with pytest.raises(ServeRefused, match="1 to 65535"):
        plan(port=port)


def test_the_key_goes_to_the_tabs_by_environment_never_on_their_command_line(tmp_path: Path) -> None:
    environment = service_environment(base_url="https://api.example", api_key="wds-secret", config=tmp_path / "c.toml")
    served = plan(service_environment=environment, dashboard_flags=["--refresh", "5.0"])
    assert served.environment == {
        "WDS_BASE_URL": "https://api.example",
        "WDS_API_KEY": "wds-secret",
        "WDS_CONFIG": str(tmp_path / "c.toml"),
    }
    assert "wds-secret" not in served.command
    assert served.command == "/usr/bin/python3 -m tui --refresh 5.0"


def test_serve_without_textual_serve_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    from tui.dashboard.startup import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "textual_serve" else real(name, *a)
    )
    monkeypatch.setenv("WDS_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("WDS_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("WDS_API_KEY", "wds-" + "1" * 32)
    assert cli.main(["serve", "--port", "8999"]) == 2
    assert capsys.readouterr().err.strip() == "wds-tui: serve needs textual-serve: run pip install textual-serve"


def test_serve_gives_every_tab_the_context_and_read_only_it_was_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A tab resolves its settings itself: `serve --context staging --read-only` must not give it the current
    context, writable."""
    from tui.dashboard.startup import cli, serve

    for name in ("WDS_BASE_URL", "WDS_API_KEY", "WDS_CONTEXT", "WDS_READ_ONLY", "WDS_API_KEY_COMMAND"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "config.toml"
    config.write_text(
        'current = "prod"\n[contexts.prod]\nbase_url = "https://api.example.com"\n'
        f'api_key = "wds-{"1" * 32}"\n[contexts.staging]\nbase_url = "https://staging.example.com"\n'
        f'api_key = "wds-{"2" * 32}"\n'
    )
    config.chmod(0o600)
    planned: list[serve.ServePlan] = []
    monkeypatch.setattr(serve, "run_server", lambda plan: planned.append(plan) or 0)
    assert cli.main(["serve", "--config", str(config), "--context", "staging", "--read-only", "--port", "8999"]) == 0
    assert planned[0].command.endswith(" -m tui --context staging --read-only")
    assert planned[0].environment == {"WDS_CONFIG": str(config.resolve())}
