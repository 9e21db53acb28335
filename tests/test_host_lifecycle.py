"""A host that runs for months: finished and idle rooms leave memory (their records stay), the room limit counts
unfinished rooms only, a turn that times out is played by a bot, the owner may hand a seat to a bot, one
connection holds one seat, replays are built once, and the host token outlives a restart."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from generator.host.rooms import Room
from generator.host.server import Hall, Limits, create_app
from generator.host.store import Store
from tests.conftest import EXAMPLES
from tests.test_host import PROOF, TOKEN, make_room, sit, until


@pytest.fixture(scope="module")
def spec_art():
    from generator.cli.host import spec_and_art

    return spec_and_art(str(EXAMPLES / "best-known.json"), "classic", None)


def served(spec_art, path, **limits):
    spec, art = spec_art
    store = Store(path)
    hall = Hall(spec, art, store, TOKEN, Limits(messages_per_second=1000, message_burst=1000, **limits), 0.0)
    return hall, TestClient(create_app(hall, {"testserver"}), headers=PROOF)


def bots_game(client, made) -> dict:
    with client.websocket_connect(f"/ws/{made['room']}") as ws:
        for seat in range(2):
            ws.send_json({"type": "bot", "seat": seat, "policy": "explorer", "owner": made["owner"]})
        return until(ws, "state", lambda m: m["over"])


def test_finished_rooms_leave_memory_and_the_limit_counts_unfinished_ones(spec_art, tmp_path):
    hall, client = served(spec_art, tmp_path / "g.db", rooms=2)
    with client:
        assert hall.ready.wait(120)
        first, second = make_room(client, players=2, seed=1), make_room(client, players=2, seed=2)
        r = client.post("/api/rooms", json={"players": 2}, headers={"authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 400 and "at most 2 unfinished rooms" in r.json()["error"]
        final = bots_game(client, first)
        assert client.get("/api/health").json()["rooms"] == 1
        make_room(client, players=2, seed=3)  # the finished room no longer counts
        hall.put_away()  # (gone already if its bots were done when its last client left: see the next test)
        assert first["room"] not in hall.rooms
        assert second["room"] in hall.rooms  # an unfinished room others may come back to stays
        page = client.get(first["url"])  # its next visit restores it from the record
        assert page.status_code == 200 and hall.rooms[first["room"]].match.over
        frames = client.get(f"/api/rooms/{first['room']}/replay").json()["frames"]
        assert frames[-1]["laid"] == final["laid"] and frames[-1]["winner"] == final["winner"]
    hall.store.close()
    hall, client = served(spec_art, tmp_path / "g.db", rooms=2)  # a restart keeps only unfinished rooms in memory
    assert first["room"] not in hall.rooms and hall.open_rooms == 2
    hall.store.close()


def test_a_finished_room_leaves_memory_as_its_game_ends_or_its_last_client_leaves(spec_art, tmp_path):
    hall, client = served(spec_art, tmp_path / "g.db")
    with client:
        assert hall.ready.wait(120)
        made = make_room(client, players=2, seed=1)
        bots_game(client, made)
        until_true(lambda: made["room"] not in hall.rooms)  # no sweep: the bots ended it and its client left
        with client.websocket_connect(f"/ws/{made['room']}") as ws:  # a last look restores it from the record
            assert until(ws, "state")["over"] and made["room"] in hall.rooms
            until_true(lambda: hall.bots[made["room"]].done())  # its bots found nothing to do
        until_true(lambda: made["room"] not in hall.rooms)  # its last client left
    hall.store.close()


def until_true(check, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "never came true"
        time.sleep(0.01)


def test_an_idle_room_is_put_away_and_restored_on_its_next_visit(spec_art, tmp_path):
    hall, client = served(spec_art, tmp_path / "g.db", idle_minutes=0.001)
    with client:
        made = make_room(client, players=2, seed=4)
        with client.websocket_connect(f"/ws/{made['room']}") as ws:
            _, token = sit(ws, "Ann")
            time.sleep(0.3)
            assert made["room"] in hall.rooms  # someone is connected
        deadline = time.monotonic() + 10
        while made["room"] in hall.rooms and time.monotonic() < deadline:
            time.sleep(0.05)
        assert made["room"] not in hall.rooms
        with client.websocket_connect(f"/ws/{made['room']}") as ws:
            ws.send_json({"type": "hello", "token": token, "id": "back"})
            state = until(ws, "state", lambda m: m.get("re") == "back")
            assert state["you"] == 0 and state["seats"][0]["name"] == "Ann"
    hall.store.close()


def test_a_turn_that_times_out_is_played_by_a_bot_and_the_holder_takes_over_again(spec_art, tmp_path):
    hall, client = served(spec_art, tmp_path / "g.db", turn_timeout=0.3)
    with client:
        assert hall.ready.wait(120)
        made = make_room(client, players=2, seed=5)
        with client.websocket_connect(f"/ws/{made['room']}") as ws:
            _, token = sit(ws, "Ann")
            ws.send_json({"type": "bot", "seat": 1, "policy": "greedy", "owner": made["owner"]})
            # Ann never acts: a bot plays her turn, the greedy bot its own, and it is Ann's again
            state = until(ws, "state", lambda m: m["current"] == 0 and m["round"] >= 2 and not m["over"])
            assert any("Ann took too long" in line for line in state["feed"])
            ws.send_json({"type": "hello", "token": token, "id": "h"})
            mine = until(ws, "state", lambda m: m.get("re") == "h")
            if mine["current"] == 0 and mine["legal"]:
                before = mine["actions"]
                ws.send_json({"type": "act", "token": token, "action": mine["legal"][0]})  # hers again
                assert until(ws, "state", lambda m: m["actions"] > before)["actions"] == before + 1
        room = hall.rooms[made["room"]]
        restored = Room.restore(hall.store.room(room.id))
        assert restored.match.actions == room.match.actions and restored.feed == room.feed
        frames = client.get(f"/api/rooms/{room.id}/replay").json()["frames"]
        assert any("Ann took too long" in line for f in frames for line in f["feed"])
    hall.store.close()


def test_the_owner_hands_a_persons_seat_to_a_bot_and_one_connection_holds_one_seat(spec_art, tmp_path):
    hall, client = served(spec_art, tmp_path / "g.db")
    with client:
        assert hall.ready.wait(120)
        made = make_room(client, players=2, seed=6)
        with (
            client.websocket_connect(f"/ws/{made['room']}") as hog,
            client.websocket_connect(f"/ws/{made['room']}") as ws,
        ):
            _, hog_token = sit(hog, "Hog")
            hog.send_json({"type": "sit", "name": "Hog again"})
            assert "one seat a connection" in until(hog, "error")["error"]
            _, token = sit(ws, "Bea")
            ws.send_json({"type": "bot", "seat": 0, "policy": "explorer", "owner": "not the owner"})
            assert "only the room's owner" in until(ws, "error")["error"]
            ws.send_json({"type": "bot", "seat": 0, "policy": "explorer", "owner": made["owner"]})
            state = until(ws, "state", lambda m: m["seats"][0]["bot"] == "explorer")
            assert any("handed seat 1 to the explorer bot" in line for line in state["feed"])
            hog.send_json({"type": "act", "token": hog_token, "action": ["roll"]})
            assert "holds no seat" in until(hog, "error")["error"]
        restored = Room.restore(hall.store.room(made["room"]))
        assert restored.seats[0].bot == "explorer" and restored.feed[: len(restored.notes)] != []
    hall.store.close()


def test_a_replay_is_built_once_per_state_of_the_game(spec_art, tmp_path, monkeypatch):
    import generator.host.hall as server

    hall, client = served(spec_art, tmp_path / "g.db")
    built = []
    real = server.replay_frames
    monkeypatch.setattr(server, "replay_frames", lambda room, art: built.append(room.id) or real(room, art))
    with client:
        assert hall.ready.wait(120)
        made = make_room(client, players=2, seed=8)
        bots_game(client, made)
        bodies = {client.get(f"/api/rooms/{made['room']}/replay").content for _ in range(5)}
    assert len(bodies) == 1 and built == [made["room"]]
    hall.store.close()


def test_handshake_refusals_say_why(spec_art, tmp_path):
    hall, client = served(spec_art, tmp_path / "g.db", connections_per_address=1)
    with client:
        with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect("/ws/" + "A" * 22) as ws:
            ws.receive_json()
        assert (err.value.code, err.value.reason) == (4404, "no such room")
        made = make_room(client, players=2)
        with client.websocket_connect(f"/ws/{made['room']}") as ws:
            until(ws, "state")
            with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(f"/ws/{made['room']}") as other:
                other.receive_json()
            assert err.value.code == 4429 and "too many connections" in err.value.reason
    hall.store.close()


def test_the_host_token_outlives_a_restart_unless_a_new_one_is_asked_for(tmp_path):
    made = iter(["first", "second"])
    store = Store(tmp_path / "g.db")
    assert store.host_token(lambda: next(made)) == "first"
    store.close()
    store = Store(tmp_path / "g.db")
    assert store.host_token(lambda: next(made)) == "first"
    assert store.host_token(lambda: next(made), new=True) == "second"
    store.close()


def test_the_command_keeps_its_token_and_believes_no_forwarding_header(tmp_path, monkeypatch, capsys):
    import uvicorn

    from generator.cli import main

    runs = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: runs.append(kw))
    db, tiles = str(tmp_path / "g.db"), str(EXAMPLES / "best-known.json")

    def printed(*extra: str) -> str:
        assert main(["host", tiles, "--db", db, "--port", "8799", *extra]) == 0
        return next(w for w in capsys.readouterr().out.split() if "?token=" in w)

    first = printed()
    assert printed() == first  # a restart: the lobby link printed yesterday still works
    assert printed("--new-token") != first
    assert all(kw["proxy_headers"] is False and kw["forwarded_allow_ips"] == "" for kw in runs)
    assert main(["host", tiles, "--db", db, "--trust-proxy", "proxy.example"]) == 2
    assert "not an IP address" in capsys.readouterr().err


def test_a_bot_that_thinks_too_long_takes_the_first_legal_action_and_the_room_goes_on(spec_art, tmp_path, monkeypatch):
    import threading

    hall, client = served(spec_art, tmp_path / "g.db", bot_seconds=0.2)
    release, thinking = threading.Event(), []
    with client:
        assert hall.ready.wait(120)
        monkeypatch.setattr(
            Room, "bot_action", lambda room, stand_in=None: thinking.append(1) or release.wait(10) and None
        )  # lost in thought
        made = make_room(client, players=2, seed=9)
        with client.websocket_connect(f"/ws/{made['room']}") as ws:
            for seat in (0, 1):
                ws.send_json({"type": "bot", "seat": seat, "policy": "explorer", "owner": made["owner"]})
            start = time.monotonic()
            moved = until(ws, "state", lambda m: m["actions"] >= 3)
            assert time.monotonic() - start < 5 and tuple(moved["last"][1]) in hall.rooms[made["room"]].match.actions
            assert len(thinking) == 1  # one thread lost in thought; the room's later moves start no other
        release.set()
        room = hall.rooms[made["room"]]
        recorded = Room.restore(hall.store.room(room.id)).match.actions
        assert len(recorded) >= 3 and room.match.actions[: len(recorded)] == recorded  # recorded as played (the
        # bots may have moved again since)
    hall.store.close()
