"""Server messages in the reader's language (issue 32 §1): the engines'
refusals, their refused configurations and the match sockets' errors.

An engine refuses with a code and params (``IllegalAction``); the socket and
the API word its text in the reader's language (the user's setting, else the
browser's) and keep the codes (``code``, ``reason``, ``params``) for programs;
the bot API keeps the engine's English detail.
"""

from __future__ import annotations

import polib
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from gameplay import lobby, rematch, services
from gameplay.errors import BadRequest, NotActive, config_refused
from gameplay.models import Match, MatchStatus
from gameplay.rules import (
    CONFIG_TEXTS,
    InvalidConfig,
    available_games,
    error_texts,
    get_game,
)
from gameplay.services import SeatSpec
from languages.middleware import connection_language
from tests.factories import UserFactory
from tests.gameplay.live import APP, next_reply, receive

pytestmark = pytest.mark.django_db(transaction=True)

# Kung Fu (2009), four seats: seat 1 can offer its Tiger to everyone at once.
HANDS = ["DDDDT", "TMCRT", "MCRTM", "CRTMC"]


def _deck(hands: list[str]) -> str:
    deal = "".join(hands[t][k] for k in range(5) for t in range(len(hands)))
    left = {"T": 16, "M": 16, "C": 16, "R": 16, "D": 4}
    for card in deal:
        left[card] -= 1
    return deal + "".join(card * k for card, k in left.items())


def _table(users) -> Match:
    match = services.match_create(
        game="kungfu2009",
        seats=[SeatSpec(user=user) for user in users],
        config={"deck": _deck(HANDS)},
        private_options=True,
    )
    return services.match_start(match_id=match.pk)


def _offer_from_seat_1(match: Match, users) -> None:
    """Seat 1 offers a Tiger to all (offer 1: the first)."""
    for intent in ("to:all", "give:T", "send"):
        services.match_act(match_id=match.pk, user=users[1], action_id=intent)


def _players(*languages: str) -> list:
    return [
        UserFactory(username=f"lang{i}", language=code)
        for i, code in enumerate(languages)
    ]


@pytest.mark.parametrize("game", available_games())
def test_every_refusal_text_is_translated_in_every_language(game):
    for code, _name in settings.LANGUAGES:
        if code == "en":
            continue
        folder = {"pt-br": "pt_BR", "zh-hant": "zh_Hant"}.get(code, code)
        po = polib.pofile(
            str(settings.BASE_DIR / f"locale/{folder}/LC_MESSAGES/django.po")
        )
        for reason, text in error_texts(game).items():
            entry = po.find(text)
            assert entry is not None and entry.msgstr, (code, reason)
            assert "fuzzy" not in entry.flags, (code, reason)


def test_every_config_refusal_text_is_translated_in_every_language():
    for code, _name in settings.LANGUAGES:
        if code == "en":
            continue
        folder = {"pt-br": "pt_BR", "zh-hant": "zh_Hant"}.get(code, code)
        po = polib.pofile(
            str(settings.BASE_DIR / f"locale/{folder}/LC_MESSAGES/django.po")
        )
        for reason, text in CONFIG_TEXTS.items():
            entry = po.find(text)
            assert entry is not None and entry.msgstr, (code, reason)
            assert "fuzzy" not in entry.flags, (code, reason)


async def _socket(match: Match, user, headers=()) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        APP, f"/ws/match/{match.public_id}/", headers=list(headers)
    )
    comm.scope["user"] = user  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect()
    assert connected
    await receive(comm)
    return comm


@pytest.mark.asyncio
async def test_a_german_player_reads_an_engine_refusal_in_german_over_the_socket():
    users = await sync_to_async(_players)("de", "en", "pl", "")
    match = await sync_to_async(_table)(users)
    await sync_to_async(_offer_from_seat_1)(match, users)
    sock = await _socket(match, users[0])
    await sock.send_json_to({"type": "act", "action": "withdraw:1", "request_id": 5})
    reply = await next_reply(sock)
    # The codes stay as they are; the words are the reader's, with the name of
    # the player the engine knows as "seat 1".
    assert reply["code"] == "illegal_action" and reply["request_id"] == 5
    assert reply["reason"] == "not_yours"
    assert reply["params"] == {"offer": 1, "player": 1}
    name = users[1].public_name
    assert reply["message"] == f"Angebot 1 gehört nicht dir: {name} hat es gemacht."
    # The move rule's own refusals too (a seat that is not the user's).
    await sock.send_json_to({"type": "act", "action": "pass", "seat": 2})
    reply = await next_reply(sock)
    assert reply["code"] == "forbidden"
    assert reply["message"] == "dieser Platz gehört nicht dir"
    await sock.disconnect()


@pytest.mark.asyncio
async def test_a_polish_and_an_english_player_read_one_refusal_each_in_theirs():
    users = await sync_to_async(_players)("en", "de", "pl", "")
    match = await sync_to_async(_table)(users)
    await sync_to_async(_offer_from_seat_1)(match, users)
    english, polish = await _socket(match, users[0]), await _socket(match, users[2])
    replies = []
    for sock in (english, polish):
        await sock.send_json_to({"type": "act", "action": "accept:9"})
        replies.append(await next_reply(sock))
    assert [r["reason"] for r in replies] == ["offer_never_made"] * 2
    assert [r["params"] for r in replies] == [{"offer": 9}] * 2
    assert replies[0]["message"] == "Offer 9 was never made."
    assert replies[1]["message"] == "Oferta 9 nigdy nie została złożona."
    # A frame the socket cannot read is refused in Polish as well.
    await polish.send_to(text_data="{not json")
    reply = await next_reply(polish)
    assert reply["code"] == "malformed"
    assert reply["message"] == "ramka nie jest poprawnym JSON-em"
    for sock in (english, polish):
        await sock.disconnect()


@pytest.mark.asyncio
async def test_without_a_setting_the_socket_follows_the_browsers_language():
    users = await sync_to_async(_players)("", "", "", "")
    match = await sync_to_async(_table)(users)
    sock = await _socket(
        match, users[3], headers=[(b"accept-language", b"zh-TW,zh;q=0.9,en;q=0.5")]
    )
    await sock.send_json_to({"type": "act", "action": "decline:5"})
    reply = await next_reply(sock)
    assert reply["reason"] == "offer_never_made"
    assert reply["message"] == "從未提出過第 5 號提議。"
    await sock.disconnect()


def test_the_connection_language_order():
    german = UserFactory(username="de1", language="de")
    anyone = UserFactory(username="any1", language="")
    cookie = (b"cookie", b"csrftoken=x; django_language=pl")
    accept = (b"accept-language", b"pt-BR,pt;q=0.9")
    assert connection_language(user=german, headers=[cookie, accept]) == "de"
    assert connection_language(user=anyone, headers=[cookie, accept]) == "pl"
    assert connection_language(user=anyone, headers=[accept]) == "pt-br"
    assert connection_language(user=None, headers=[(b"cookie", b"=;;bad")]) == "en"
    assert connection_language(user=None, headers=[]) == "en"


def test_the_api_answers_a_polish_player_in_polish_with_the_codes():
    users = _players("pl", "de", "", "")
    match = _table(users)
    _offer_from_seat_1(match, users)
    client = APIClient()
    client.force_login(users[0])
    url = f"/api/matches/{match.public_id}/act/"
    response = client.post(url, {"action": "withdraw:1"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "code": "illegal_action",
        "detail": f"Oferta 1 nie jest twoja, tylko gracza {users[1].public_name}.",
        "reason": "not_yours",
        "params": {"offer": 1, "player": 1},
    }
    version = Match.objects.get(pk=match.pk).version
    # Nothing changed; a refusal outside the engine is worded too.
    response = client.post(url, {"action": "pass", "version": 99}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["detail"] == f"partia jest w wersji {version}, nie 99"
    assert Match.objects.get(pk=match.pk).version == version


def test_the_lobby_refuses_in_the_readers_language():
    german = UserFactory(username="lobby_de", language="de")
    other = UserFactory(username="lobby_pl", language="")
    client = APIClient()
    client.force_login(german)
    body = {"username": "lobby_de", "game": "duelo"}
    response = client.post("/api/challenges/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "code": "malformed",
        "detail": "du kannst dich nicht selbst herausfordern",
    }
    # A user without a setting: the browser's language.
    client.force_login(other)
    body = {"username": "lobby_pl", "game": "duelo"}
    response = client.post(
        "/api/challenges/", body, format="json", HTTP_ACCEPT_LANGUAGE="pl"
    )
    assert response.json()["detail"] == "nie możesz wyzwać siebie"


def test_an_unfinished_matchs_replay_and_a_rematch_are_refused_in_german():
    users = _players("de", "", "", "")
    match = _table(users)
    client = APIClient()
    response = client.get(
        f"/api/matches/{match.public_id}/replay/", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "Wiederholungen werden veröffentlicht, wenn die Partie endet"
    )
    record = reverse("gameplay:record", args=[match.public_id])
    response = client.get(record, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "Das Protokoll wird veröffentlicht, wenn die Partie endet."
    )
    with pytest.raises(NotActive) as refused, translation.override("de"):
        rematch.rematch_request(match_id=match.pk, user=users[0])
    assert refused.value.message == (
        "eine Revanche kann erst nach dem Ende der Partie verlangt werden"
    )
    assert Match.objects.filter(rematch_of=match).count() == 0


# --- refused configurations (table options, player counts, games) ---------------


def test_the_table_api_words_a_refused_config_for_a_german_player():
    german = UserFactory(username="config_de", language="de")
    client = APIClient()
    client.force_login(german)
    body = {"game": "duelo", "players": 9}
    response = client.post("/api/tables/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "code": "malformed",
        "detail": "Dieses Spiel ist für 2 bis 8 Spieler, nicht für 9.",
        "reason": "players_range",
        "params": {"min": 2, "max": 8, "players": 9},
    }
    # A table option the platform refuses is worded too (no engine code).
    body = {"game": "duelo", "players": 2, "options": {"rounds": 12}}
    response = client.post("/api/tables/", body, format="json")
    assert response.json() == {
        "code": "malformed",
        "detail": "die Option rounds muss zwischen 1 und 5 liegen",
    }
    assert not Match.objects.filter(host=german).exists()


def test_without_a_setting_the_api_follows_the_browser_for_an_unknown_game():
    anyone = UserFactory(username="config_any", language="")
    client = APIClient()
    client.force_login(anyone)
    body = {"game": "chess", "players": 2}
    response = client.post(
        "/api/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE="zh-TW"
    )
    assert response.status_code == 400
    games = ", ".join(available_games())
    colon = "\N{FULLWIDTH COLON}"  # Chinese punctuation (ruff's RUF001 would object)
    assert (
        response.json()["detail"] == f"沒有 chess 這個遊戲。可用的遊戲{colon}{games}。"
    )
    assert response.json()["reason"] == "unknown_game"


def test_a_refused_config_keeps_the_engines_english_detail_for_programs():
    """``str()`` (what the bot API answers, ``english_errors``) is the
    engine's detail; the message is the reader's."""
    with pytest.raises(InvalidConfig) as engine_refusal:
        get_game("kungfu2009").validate_config({"players": 4, "severe": 1})
    with translation.override("pl"):
        refused = config_refused(engine_refusal.value)
    assert str(refused) == "severe must be true or false, got 1"
    assert refused.message == "Opcja severe musi mieć wartość tak lub nie, a nie 1."
    assert refused.extra() == {
        "reason": "option_bool",
        "params": {"option": "severe", "value": 1},
    }


def test_a_portuguese_host_reads_why_a_table_cannot_start_on_the_page(client):
    host = UserFactory(username="config_pt", language="pt-br")
    table = lobby.table_create(host=host, game="kungfu2009", players=4)
    client.force_login(host)
    url = reverse(
        "gameplay:table_action",
        kwargs={"public_id": table.public_id, "action": "start"},
    )
    response = client.post(url)
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown == ["Este jogo é para 3 a 8 jogadores, e não 1."]
    table.refresh_from_db()
    assert table.status == MatchStatus.WAITING


def test_a_bad_seat_agent_and_a_bad_replay_perspective_are_worded_too():
    from gameplay.selectors import parse_perspective
    from gameplay.services import validate_agent

    with translation.override("de"), pytest.raises(BadRequest) as refused:
        validate_agent("builtin:no such bot")
    assert refused.value.message == (
        "'builtin:no such bot' bezeichnet keinen Bot, der einen Platz einnehmen kann"
    )
    with translation.override("pt-br"), pytest.raises(ValueError) as bad:
        parse_perspective(value="seat:7", players=4)
    assert str(bad.value) == (
        "a perspectiva deve ser 'full', 'spectator' ou 'seat:N' com N menor que 4"
    )


def test_a_tournaments_refused_options_are_worded_for_its_organiser():
    from league.errors import Invalid
    from league.tournaments import services as tournaments

    organiser = UserFactory(username="config_org", language="pl")
    with translation.override("pl"), pytest.raises(Invalid) as refused:
        tournaments.tournament_create(
            by=organiser,
            name="Puchar",
            game="duelo",
            format="single_elim",
            options={"rounds": 12},
        )
    assert refused.value.message == "opcja rounds musi mieścić się między 1 a 5"


def test_a_round_that_cannot_be_paired_is_said_in_the_organisers_language(
    monkeypatch,
):
    from league.errors import Conflict
    from league.tournaments import services as tournaments
    from league.tournaments.formats import swiss

    def no_pairing(*args, **kwargs):
        raise swiss.SwissPairingError("round 1: no pairing", round_number=1)

    monkeypatch.setattr(swiss, "pair_swiss_round", no_pairing)
    organiser = UserFactory(username="swiss_org", language="de")
    cup = tournaments.tournament_create(
        by=organiser, name="Pokal", game="duelo", format="swiss", swiss_rounds=3
    )
    for i in range(4):
        entrant = UserFactory(username=f"swiss_{i}")
        tournaments.tournament_enter(tournament=cup, user=entrant)
    with translation.override("de"), pytest.raises(Conflict) as refused:
        tournaments.tournament_start(tournament=cup, by=organiser)
    assert refused.value.message == (
        "Runde 1 lässt sich nicht paaren: jede Paarung würde eine Partie "
        "wiederholen, jemandem ein zweites Freilos geben oder die Verteilung des "
        "ersten Platzes aus dem Gleichgewicht bringen"
    )
    assert not cup.rounds.exists()
