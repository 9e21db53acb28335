"""The game server through Starlette's test client: rooms, seats, bots, the rules, the record, and hostile
requests (each a one-line refusal while the server keeps serving)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from generator.host.records import export_line, replay_line
from generator.host.rooms import Room
from generator.host.server import Hall, Limits, create_app
from generator.host.store import Store
from tests.conftest import EXAMPLES

TOKEN = "host-token-for-tests"
PROOF = {"x-trailwright": "1"}  # what the server's own pages send with a change (``generator.web.guard``)


@pytest.fixture(scope="module")
def spec_art():
    from generator.cli.host import spec_and_art

    return spec_and_art(str(EXAMPLES / "best-known.json"), "classic", None)


@pytest.fixture
def hall(spec_art, tmp_path):
    spec, art = spec_art
    store = Store(tmp_path / "games.db")
    yield Hall(spec, art, store, TOKEN, Limits(messages_per_second=1000, message_burst=1000), 0.0)
    store.close()


@pytest.fixture
def client(hall):
    with TestClient(create_app(hall, {"testserver"}), headers=PROOF) as c:
        assert hall.ready.wait(120)  # warmed up: the bots move at once
        yield c


def make_room(client, players=3, seed=7) -> dict:
    r = client.post("/api/rooms", json={"players": players, "seed": seed}, headers={"authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 201, r.text
    return r.json()


def until(ws, kind: str, test=lambda m: True) -> dict:
    """Read messages until one of ``kind`` passes ``test`` (bounded)."""
    for _ in range(2000):
        m = ws.receive_json()
        if m["type"] == kind and test(m):
            return m
    raise AssertionError(f"no {kind} message")


def sit(ws, name: str) -> tuple[int, str]:
    ws.send_json({"type": "sit", "name": name})
    m = until(ws, "seated")
    return m["seat"], m["token"]


@pytest.mark.parametrize(
    ("path", "headers", "status", "says"),
    [
        ("/", {}, 403, "needs the host token"),
        ("/?token=wrong", {}, 403, "needs the host token"),
        (f"/?token={TOKEN}", {"host": "evil.example"}, 403, "host 'evil.example' is not served here"),
        (f"/?token={TOKEN}", {"origin": "http://evil.example"}, 403, "may not use this server"),
        ("/room/not-a-room-id-at-all", {}, 404, "no such room"),
        ("/room/..%2F..%2Fetc", {}, 404, ""),
        ("/api/rooms/AAAAAAAAAAAAAAAAAAAA", {}, 404, "no such room"),
    ],
)
def test_hostile_or_unknown_requests_get_a_one_line_4xx(client, path, headers, status, says):
    r = client.get(path, headers=headers)
    assert r.status_code == status and says in r.text and r.text.count("\n") <= 1
    assert client.get(f"/?token={TOKEN}").status_code == 200  # and it keeps serving


@pytest.mark.parametrize(
    ("body", "headers", "status", "says"),
    [
        (b'{"players": 3}', {}, 403, "needs the host token"),
        (b'{"players": 3}', {"authorization": TOKEN}, 403, "Bearer"),  # the token alone is not the scheme
        (b'{"players": 3}', {"authorization": f"bearer  {TOKEN}"}, 403, "needs the host token"),
        (b"{not json", {"authorization": f"Bearer {TOKEN}"}, 400, "not JSON"),
        (b"[1, 2]", {"authorization": f"Bearer {TOKEN}"}, 400, "a JSON object"),
        (b'{"a":' * 12_000, {"authorization": f"Bearer {TOKEN}"}, 400, "not JSON"),
        (b'{"players": 9}', {"authorization": f"Bearer {TOKEN}"}, 400, "players: a whole number from 2 to 4"),
        (b'{"players": true}', {"authorization": f"Bearer {TOKEN}"}, 400, "players"),
        (b'{"seed": -1}', {"authorization": f"Bearer {TOKEN}"}, 400, "seed"),
        (b"x" * 70_000, {"authorization": f"Bearer {TOKEN}"}, 413, "at most"),
    ],
)
def test_making_a_room_refuses_bad_requests(client, body, headers, status, says):
    r = client.post("/api/rooms", content=body, headers={"content-type": "application/json", **headers})
    assert r.status_code == status and says in r.json()["error"]


def test_too_many_requests_are_refused_then_served_again(spec_art, tmp_path):
    from generator.web.guard import Guard, RateLimit

    spec, art = spec_art
    hall = Hall(spec, art, Store(tmp_path / "g.db"), TOKEN, Limits(), 0.0)
    app = create_app(hall, {"testserver"})
    app.rate = RateLimit(per_second=0.001, burst=3)
    assert isinstance(app, Guard)
    with TestClient(app, headers=PROOF) as c:
        codes = [c.get(f"/?token={TOKEN}").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_two_players_and_a_bot_play_and_each_sees_the_others_moves(client, hall):
    made = make_room(client)
    with client.websocket_connect(f"/ws/{made['room']}") as a, client.websocket_connect(f"/ws/{made['room']}") as b:
        seat_a, token_a = sit(a, "Ann")
        seat_b, token_b = sit(b, "Bob")
        assert (seat_a, seat_b) == (0, 1)
        a.send_json({"type": "bot", "seat": 2, "policy": "explorer", "owner": made["owner"]})
        first = until(b, "state", lambda m: None not in m["seats"])
        assert first["seats"][2] == {"name": "explorer bot 3", "bot": "explorer"} and first["you"] == 1
        players = {0: (a, token_a), 1: (b, token_b)}
        seen = 0
        for _ in range(200):  # a few turns: each person rolls and walks, the bot moves between
            state = state_for(a, token_a, client)
            if state["over"] or state["actions"] >= 40:
                break
            if state["current"] in players:
                ws, token = players[state["current"]]
                ws.send_json({"type": "act", "token": token, "action": state_for(ws, token, client)["legal"][0]})
                other = b if ws is a else a
                seen = until(other, "state", lambda m, n=state["actions"]: m["actions"] > n)["actions"]
        assert seen > 10  # the other player saw the moves
    room = hall.rooms[made["room"]]
    assert hall.store.counts[room.id] == 3 + len(room.match.actions)  # two seats, a bot, then every action


def state_for(ws, token, client) -> dict:
    """The newest state (the reply to a hello, after every broadcast queued before it)."""
    ws.send_json({"type": "hello", "token": token, "id": "latest"})
    return until(ws, "state", lambda m: m.get("re") == "latest")


def test_hostile_messages_are_refused_in_one_line_and_the_room_goes_on(client, hall):
    made = make_room(client, players=2)
    with client.websocket_connect(f"/ws/{made['room']}") as ws:
        until(ws, "state")
        _, token = sit(ws, "Eve <img src=x onerror=alert(1)>")
        for message, says in [
            ("not json", "a message is JSON"),
            ("[" * 4000, "a message is JSON"),  # deeper than the parser recurses, within the size limit
            ("[1, 2]", 'a JSON object with a "type"'),
            ('{"type": "explode"}', 'unknown message type "explode"'),
            ('{"type": "act", "token": "forged", "action": ["roll"]}', "that token holds no seat"),
            ('{"type": "act", "token": "' + token + '", "action": ["roll"]}', "waiting for every seat"),
            ('{"type": "bot", "seat": 1, "policy": "explorer", "owner": "guess"}', "only the room's owner"),
            ('{"type": "bot", "seat": 1, "policy": "random", "owner": "' + made["owner"] + '"}', "bots play"),
            ('{"type": "sit", "name": "Zed"}', "one seat a connection"),
            ('{"type": "hello", "token": "stolen"}', "holds no seat"),
            ("x" * 5000, "at most 4096 bytes"),
        ]:
            ws.send_text(message)
            reply = until(ws, "error")
            assert says in reply["error"] and "\n" not in reply["error"]
        with client.websocket_connect(f"/ws/{made['room']}") as other:
            for message, says in [
                ('{"type": "sit", "name": ""}', "1 to 40 characters"),
                ('{"type": "sit", "name": 5}', "a name is text"),
                ('{"type": "sit", "name": "Zed", "seat": 0}', "seat 0 is taken"),
                ('{"type": "sit", "name": "Zed", "seat": true}', "no seat true:"),  # as the client wrote it
                ('{"type": "sit", "name": "Zed", "seat": "1"}', 'no seat "1":'),
                ('{"type": "bot", "seat": 1, "policy": {"a": 1}, "owner": "' + made["owner"] + '"}', 'not {"a": 1}'),
            ]:
                other.send_text(message)
                reply = until(other, "error")
                assert says in reply["error"] and "\n" not in reply["error"]
            other.send_bytes(b'{"type": "sit", "name": "Bin"}')  # a binary frame: refused, the socket stays
            assert "not a binary frame" in until(other, "error")["error"]
            other.send_json({"type": "hello", "id": 1})
            assert until(other, "state")["re"] == 1
        ws.send_json({"type": "bot", "seat": 1, "policy": "greedy", "owner": made["owner"]})
        state = until(ws, "state", lambda m: None not in m["seats"])
        assert state["seats"][0]["name"] == "Eve <img src=x onerror=alert(1)>"  # data, drawn as text by the page
        if state["current"] == 0:
            ws.send_json({"type": "act", "token": token, "action": ["step", 0]})
            assert "roll the die or turn a tile first" in until(ws, "error")["error"]
            ws.send_json({"type": "act", "token": token, "action": ["roll", "x"]})
            assert "whole numbers" in until(ws, "error")["error"]
    assert client.get(f"/api/rooms/{made['room']}").json()["seats"][1]["bot"] == "greedy"


def test_a_move_out_of_turn_is_refused(client):
    made = make_room(client, players=2)
    with client.websocket_connect(f"/ws/{made['room']}") as a, client.websocket_connect(f"/ws/{made['room']}") as b:
        _, token_a = sit(a, "Ann")
        _, token_b = sit(b, "Bob")
        b.send_json({"type": "act", "token": token_b, "action": ["roll"]})
        assert until(b, "error")["error"] == "it is seat 0's turn"
        a.send_json({"type": "act", "token": token_b, "action": ["roll"]})  # a stolen token acts only for its seat
        assert until(a, "error")["error"] == "it is seat 0's turn"


def test_an_unknown_room_closes_the_socket(client):
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect("/ws/AAAAAAAAAAAAAAAAAAAAAA") as ws:
        ws.receive_json()
    assert err.value.code == 4404


def test_a_bots_game_is_recorded_and_exports_lines_that_replay_exactly(client, hall, tmp_path):
    made = make_room(client, players=3, seed=11)
    with client.websocket_connect(f"/ws/{made['room']}") as ws:
        for seat, policy in ((0, "explorer"), (1, "greedy"), (2, "explorer")):
            ws.send_json({"type": "bot", "seat": seat, "policy": policy, "owner": made["owner"]})
        final = until(ws, "state", lambda m: m["over"])
        played = hall.rooms[made["room"]]  # (finished and left alone, it then leaves memory)
    assert final["winner"] >= 0 and final["feed"][-1].endswith("wins!")
    records = list(hall.store.rooms())
    [record] = [r for r in records if r.id == made["room"]]
    restored = Room.restore(record)
    assert restored.match.actions == played.match.actions and restored.match.over
    line = json.loads(json.dumps(export_line(record.game, restored)))
    assert replay_line(line).table.laid == played.match.table.laid
    line["actions"] = line["actions"][:-1]
    with pytest.raises(ValueError, match="do not replay to the recorded game"):
        replay_line(line)
    frames = client.get(f"/api/rooms/{made['room']}/replay").json()["frames"]
    assert len(frames) == len(restored.match.actions) + 1 and frames[-1]["laid"] == final["laid"]
    assert frames[0]["laid"] == [] and frames[-1]["winner"] == final["winner"]
    with client.websocket_connect(f"/ws/{made['room']}") as ws:  # a finished room refuses moves
        until(ws, "state")
        _, token = sit(ws, "Late") if None in final["seats"] else (None, "none")
        ws.send_json({"type": "act", "token": token, "action": ["roll"]})
        assert until(ws, "error")["error"] in ("the game is over", "that token holds no seat in this room")


def test_the_export_and_report_commands_read_the_record(client, hall, capsys):
    from generator.cli import main

    made = make_room(client, players=2, seed=3)
    with client.websocket_connect(f"/ws/{made['room']}") as ws:
        _, token = sit(ws, "Ann")
        ws.send_json({"type": "bot", "seat": 1, "policy": "explorer", "owner": made["owner"]})
        explorer = hall.rooms[made["room"]]
        from generator.play.policies import POLICIES

        for _ in range(400):
            state = until(ws, "state")
            if state["over"]:
                break
            if state["current"] == 0 and state["legal"]:
                action = list(explorer.match.next_action(POLICIES["explorer"], explorer.guesses))
                ws.send_json({"type": "act", "token": token, "action": action})
    db = hall.store.path
    assert main(["games", "export", "--db", db]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["room"] for x in lines] == [made["room"]] and all(replay_line(x) for x in lines)
    assert main(["games", "report", "--db", db, "--games", "200", "--json"]) == 0
    [report] = json.loads(capsys.readouterr().out)
    assert report["human_games"] == 1 and report["differences"] == []  # one game: too few to claim any
    names = [f["name"] for f in report["figures"]]
    assert names[:2] == ["rounds", "turning a tile"] and "drama" in names and "hazard entries" in names
    for figure in report["figures"]:  # one game: no test, but every interval has width on both sides
        assert (
            figure["p"] is None and not figure["differs"] and figure["explorers"]["high"] > figure["explorers"]["low"]
        )
        assert figure["people"]["high"] is None or figure["people"]["high"] > figure["people"]["low"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["missing.json"], "missing.json: cannot read"),
        ([str(EXAMPLES / "best-known.json"), "--board", "hexagon37"], "has 20 tiles but board 'hexagon37' has 37"),
        ([str(EXAMPLES / "best-known.json"), "--db", "/proc/nowhere/games.db"], "--db /proc/nowhere/games.db"),
        ([str(EXAMPLES / "best-known.json"), "--port", "0"], "--port"),
        ([str(EXAMPLES / "best-known.json"), "--bot-delay", "nan"], "--bot-delay: nan must be a number from 0 to 60"),
        ([str(EXAMPLES / "best-known.json"), "--rate", "-5"], "--rate: -5 must be a number above 0 and at most 10000"),
        ([str(EXAMPLES / "best-known.json"), "--rate", "inf"], "--rate: inf must be a number above 0"),
    ],
)
def test_host_refuses_bad_inputs_in_one_line(args, says, capsys):
    from generator.cli import main

    with pytest.raises(SystemExit) as err:
        raise SystemExit(main(["host", *args]))
    assert err.value.code == 2
    message = capsys.readouterr().err
    assert says in message and message.count("\n") == 1


def test_host_refuses_a_file_that_is_not_a_games_file(tmp_path, capsys):
    from generator.cli import main

    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    assert main(["host", str(EXAMPLES / "best-known.json"), "--db", str(junk)]) == 2
    assert "junk.db: cannot use the games file: file is not a database" in capsys.readouterr().err
    for command in (["games", "export"], ["games", "report"]):
        assert main([*command, "--db", str(junk)]) == 2
        assert "not a readable games file" in capsys.readouterr().err
    assert main(["games", "export", "--db", str(tmp_path / "none.db")]) == 2
    assert "none.db: no such games file" in capsys.readouterr().err


def test_a_websocket_from_a_page_elsewhere_is_refused(client):
    from starlette.websockets import WebSocketDisconnect

    made = make_room(client)
    for headers, code in (({"origin": "http://evil.example"}, 4403), ({"host": "rebound.example"}, 4403)):
        with (
            pytest.raises(WebSocketDisconnect) as err,
            client.websocket_connect(f"/ws/{made['room']}", headers=headers) as ws,
        ):
            ws.receive_json()
        assert err.value.code == code
    with client.websocket_connect(f"/ws/{made['room']}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"  # the server's own pages may


def test_a_bot_whose_fast_choice_the_rules_refuse_still_moves_by_the_reference_engine(spec_art):
    """Never seen (the fast choice is the reference one), but a room must never wait on a bot forever."""
    spec, _ = spec_art
    from generator.host.rooms import Seat

    room = Room("r" * 20, spec, 2, 3, "owner-hash")
    room.seats = [Seat("explorer bot", bot="explorer"), Seat("greedy bot", bot="greedy")]

    class Wrong:
        def next_action(self, match, policy, rng):
            return ("fly",)

    spec.__dict__["bots"] = Wrong()  # the cached fast bots, replaced for this test
    try:
        for _ in range(20):
            assert room.bot_move() is not None
    finally:
        del spec.__dict__["bots"]
    assert len(room.match.actions) == 20 and all(a[0] in ("roll", "step", "turn", "pass") for a in room.match.actions)


def test_the_game_server_draws_its_table_in_the_projects_theme(tmp_path):
    from generator.cli import build_parser, main
    from generator.cli.host import spec_and_art
    from generator.cli.options import apply_project

    project = tmp_path / "maze"
    assert main(["new", str(project)]) == 0
    settings = project / "settings.toml"
    settings.write_text(settings.read_text().replace('theme = ""', 'theme = "station"'))
    args = build_parser("host").parse_args(["host", str(project)])
    apply_project(args)
    _, art = spec_and_art(args.tileset, args.board, args.rules, args.style)
    assert art.style.art.name == "Station" and 'fill="url(#tw-wall)"' in art.board_svg
    args = build_parser("host").parse_args(["host", str(project), "--theme", "river"])  # the flag wins
    apply_project(args)
    assert spec_and_art(args.tileset, args.board, args.rules, args.style)[1].style.art.name == "River"


def test_the_lobby_says_what_is_hosted_with_the_board_title_as_text(spec_art):
    from dataclasses import replace

    from generator.host.views import lobby_page

    _, art = spec_art
    page = lobby_page(replace(art, board=replace(art.board, title="<b>Camp</b> & co")), (2, 4, 3))
    assert "20 tiles on the board “&lt;b&gt;Camp&lt;/b&gt; &amp; co”" in page and "<b>Camp" not in page
    assert '<option value="3" selected>3</option>' in page and '<option value="5"' not in page


def test_another_sqlite_database_is_never_written_to(tmp_path, capsys):
    import hashlib
    import sqlite3

    from generator.cli import main

    other = tmp_path / "accounts.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE accounts (name TEXT)")
    before = hashlib.sha256(other.read_bytes()).hexdigest()
    for command in (["games", "export"], ["games", "report"]):
        assert main([*command, "--db", str(other)]) == 2
        assert "not a trailwright-games/1 file (it holds accounts)" in capsys.readouterr().err
    assert main(["host", str(EXAMPLES / "best-known.json"), "--db", str(other)]) == 2
    assert "accounts.db: cannot use the games file: not a trailwright-games/1 file" in capsys.readouterr().err
    assert hashlib.sha256(other.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["accounts.db"]  # no journal files left either


def test_a_room_of_other_rules_is_drawn_with_its_own_game(hall, client):
    from dataclasses import replace

    from generator.host.rooms import GameSpec

    rules = replace(hall.spec.rules, die=8, start="Well", required=("Hut", "Spring", "Orchard"), players_max=3)
    rules = replace(rules, hazards=tuple(replace(h, to="Well") for h in rules.hazards))
    other, _ = hall.create(2, 5, GameSpec(hall.spec.tiles, hall.spec.board, rules))
    same, _ = hall.create(2, 5)
    page = client.get(f"/room/{other.id}").text
    assert "Roll the die (8 sides)</button>" in page and "Start on the <b>Well</b>" in page
    assert page.count('class="pawn"') == 3
    page = client.get(f"/room/{same.id}").text
    assert "Roll the die</button>" in page and "Start on the <b>Hut</b>" in page and page.count('class="pawn"') == 4


def test_a_path_or_method_not_served_is_a_one_line_json_refusal(client):
    for r, status in ((client.get("/no/such/page"), 404), (client.post("/room/abc"), 405)):
        assert r.status_code == status and r.headers["content-type"].startswith("application/json")
        assert r.text.count("\n") == 1 and r.json()["error"].startswith(("Not Found", "Method Not Allowed"))
