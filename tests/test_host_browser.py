"""Two people in two headless Chromium sessions play one hosted room with a bot in the third seat; each sees
the other's moves. Set TRAILWRIGHT_SCREENSHOTS=docs/images to refresh docs/host.md's pictures."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.browser_helpers import headless_chromium
from tests.host_helpers import free_port, post_room, server, wait_for

pytestmark = pytest.mark.slow


def by_css(driver, selector):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def status(driver) -> str:
    return driver.execute_script("return document.getElementById('status').textContent")


def texts(driver, selector: str) -> list[str]:
    """The text of every element matching ``selector`` (read in the page: the page redraws often)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map((e) => e.textContent)", selector
    )


def click(driver, selector: str) -> bool:
    """Click the first element matching ``selector``, in the page; False when there is none."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return false;"
        "e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true;",
        selector,
    )


def take_turn(driver) -> None:
    """Roll and walk: the first highlighted step each time (the page shows only legal moves)."""
    if click(driver, "#roll:not([hidden])"):
        wait_for(lambda: texts(driver, "circle.target") or "your turn" not in status(driver))
    for _ in range(8):
        if "your turn" not in status(driver):
            return
        before = status(driver)
        if not click(driver, "circle.target"):
            return
        wait_for(lambda b=before: status(driver) != b or not texts(driver, "circle.target"), 5)


def test_two_people_and_a_bot_play_a_room_and_each_sees_the_others_moves(tmp_path):
    port = free_port()
    with server(tmp_path / "games.db", port, bot_delay=0.1), headless_chromium() as ann, headless_chromium() as bob:
        made = post_room(port, players=3, seed=5)
        url = f"http://127.0.0.1:{port}{made['url']}"
        ann.get(url + "#owner=" + made["owner"])
        bob.get(url)
        wait_for(lambda: texts(bob, "#seat-list li"))
        invite = (
            "const i = document.getElementById('invite'); return i.hidden ? null : i.querySelector('code').textContent"
        )
        assert ann.execute_script(invite) == url == bob.execute_script(invite)  # the link to send, never the owner key
        by_css(bob, "#sit button")[0].click()  # no name: refused, and the refusal stays while others act
        refusal = wait_for(lambda: texts(bob, "#message")[0])
        for driver, name in ((ann, "Ann <b>bold</b>"), (bob, "Bob")):
            if driver is bob:  # Ann's seat has reached Bob's page, and his refusal is still shown
                wait_for(lambda: "Ann" in " ".join(texts(bob, "#seat-list li")))
                assert texts(bob, "#message") == [refusal] and "name" in refusal
            wait_for(lambda d=driver: texts(d, "#seat-list li"))
            by_css(driver, "#name")[0].send_keys(name)
            by_css(driver, "#sit button")[0].click()
            wait_for(lambda d=driver: texts(d, "#seat-list li.you"))
        wait_for(lambda: click(ann, ".seat-bot"))  # the owner fills seat 3 with an explorer bot
        wait_for(lambda: "explorer bot" in " ".join(texts(bob, "#seat-list li")))
        assert ann.execute_script(invite) is None  # every seat taken: nobody left to invite
        assert "Ann <b>bold</b>" in " ".join(texts(bob, "#seat-list li"))  # a name is text, never markup
        assert not texts(bob, "#seat-list b")
        turns = 0
        while turns < 4:
            for driver in (ann, bob):
                wait_for(lambda: "your turn" in status(ann) or "your turn" in status(bob) or "won" in status(ann))
                if "your turn" in status(driver):
                    take_turn(driver)
                    turns += 1
        feed_ann = texts(ann, "#feed li")
        feed_bob = wait_for(lambda: texts(bob, "#feed li") if len(texts(bob, "#feed li")) >= len(feed_ann) else None)
        assert any(line.startswith("Bob ") for line in feed_ann)  # Ann saw Bob's moves
        assert any(line.startswith("Ann <b>bold</b> ") for line in feed_bob)  # and Bob saw Ann's
        assert any(line.startswith("explorer bot ") for line in feed_bob)  # and the bot's
        assert texts(ann, ".tile") and len(texts(ann, ".tile")) == len(texts(bob, ".tile"))
        assert [e for e in ann.get_log("browser") if e["level"] == "SEVERE"] == []
        name_px = (  # the landmarks' names grow to 12 px on screen, as on the play table
            "const px = document.getElementById('table').getScreenCTM().a;"
            "return [...document.querySelectorAll('text.landmark-name')].map(t => t.getAttribute('font-size') * px)"
        )
        assert [round(px, 1) for px in bob.execute_script(name_px)] == [12.0] * 6
        shots = os.environ.get("TRAILWRIGHT_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            ann.save_screenshot(str(Path(shots) / "host-room.png"))
            replay_screenshot(port, bob, Path(shots) / "host-replay.png")


def replay_screenshot(port: int, driver, path: Path) -> None:
    """A room of three bots played to its end, its replay slider half way back: the picture in docs/host.md."""
    import json

    from websockets.sync.client import connect

    made = post_room(port, players=3, seed=9)
    with connect(f"ws://127.0.0.1:{port}/ws/{made['room']}", open_timeout=10) as ws:
        for seat, policy in ((0, "explorer"), (1, "greedy"), (2, "explorer")):
            ws.send(json.dumps({"type": "bot", "seat": seat, "policy": policy, "owner": made["owner"]}))
        for _ in range(20_000):
            if json.loads(ws.recv(timeout=10)).get("over"):
                break
    driver.get(f"http://127.0.0.1:{port}{made['url']}")
    wait_for(lambda: driver.execute_script("return !document.getElementById('replay').hidden"))
    wait_for(lambda: driver.execute_script("return Number(document.getElementById('replay-slider').max) > 0"))
    driver.execute_script(
        "const s = document.getElementById('replay-slider'); s.value = String(Math.floor(s.max / 2));"
        "s.dispatchEvent(new Event('input'));"
    )
    time.sleep(0.3)
    driver.save_screenshot(str(path))
