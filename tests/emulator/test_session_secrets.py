"""A session's three secrets: the read-only live view link cannot click, and neither live view link drives CDP."""

from __future__ import annotations

import re

import httpx

from tests.support.emulator_teams import ALPHA_KEY, auth
from tui.emulator.browser.access import Access, SessionSecrets
from tui.emulator.service import Emulator


def token_of(url: str) -> str:
    found = re.search(r"token=([^&]+)", url)
    assert found is not None, url
    return found.group(1)


async def created_tokens(client: httpx.AsyncClient) -> tuple[str, str, str, str]:
    """(session id, view token, interact token, cdp token) of a new session."""
    body = (await client.post("/v2/browser", json={}, headers=auth(ALPHA_KEY))).json()
    return body["id"], token_of(body["liveViewUrl"]), token_of(body["interactiveLiveViewUrl"]), token_of(body["cdpUrl"])


def test_each_secret_grants_only_its_access() -> None:
    secrets = SessionSecrets.new()
    assert len({secrets.view, secrets.interact, secrets.cdp}) == 3
    assert secrets.grants(secrets.view, Access.VIEW) and secrets.grants(secrets.interact, Access.VIEW)
    assert not secrets.grants(secrets.cdp, Access.VIEW)
    assert secrets.grants(secrets.interact, Access.INTERACT)
    assert not secrets.grants(secrets.view, Access.INTERACT) and not secrets.grants(secrets.cdp, Access.INTERACT)
    assert secrets.grants(secrets.cdp, Access.CDP)
    assert not secrets.grants(secrets.view, Access.CDP) and not secrets.grants(secrets.interact, Access.CDP)
    assert not any(secrets.grants(secrets.view + "x", access) for access in Access)


async def test_manager_checks_the_token_against_the_access_asked_for(
    browser_client: httpx.AsyncClient, browser_emulator: Emulator
) -> None:
    sid, view, interact, cdp = await created_tokens(browser_client)
    manager = browser_emulator.browser
    assert manager.get_for_token(sid, cdp) is not None  # the CDP proxy's default
    assert manager.get_for_token(sid, view) is None and manager.get_for_token(sid, interact) is None
    assert manager.get_for_token(sid, view, Access.VIEW) is not None
    assert manager.get_for_token(sid, view, Access.INTERACT) is None
    assert manager.get_for_token(sid, interact, Access.INTERACT) is not None


async def test_the_view_only_link_neither_shows_nor_grants_interaction(browser_client: httpx.AsyncClient) -> None:
    sid, view, interact, cdp = await created_tokens(browser_client)
    page = await browser_client.get(f"/live/{sid}", params={"token": view})
    assert page.status_code == 200 and "view only" in page.text
    assert interact not in page.text and cdp not in page.text
    assert (await browser_client.get(f"/live/{sid}", params={"token": view, "interactive": "1"})).status_code == 403
    click = {"type": "click", "x": 1, "y": 1}
    for token in (view, cdp):
        refused = await browser_client.post(
            f"/live/{sid}/input", params={"token": token, "interactive": "1"}, json=click
        )
        assert refused.status_code == 403
    interactive = await browser_client.get(f"/live/{sid}", params={"token": interact, "interactive": "1"})
    assert interactive.status_code == 200 and interact in interactive.text and cdp not in interactive.text
