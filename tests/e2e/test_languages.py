"""The site in another language, in the browser (issue 32 §1): the browser's
Accept-Language, the footer's switcher, and a whole Duelo game in Portuguese."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus

from .duelo import MATCH_URL, play_by_clicking


def test_the_footer_switcher_changes_the_language(arena, page):
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    footer = page.locator("footer")
    footer.get_by_label("Language").select_option("de")
    footer.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    nav = page.get_by_role("navigation").first
    expect(nav.get_by_role("link", name="Anmelden")).to_be_visible()
    # The choice stays for the next pages (the cookie), whatever the browser says.
    page.goto("/games/")
    expect(page.get_by_role("heading", name="Spiele", exact=True)).to_be_visible()


def test_a_whole_duelo_game_in_portuguese(arena):
    # The browser asks for Brazilian Portuguese; the user has no setting.
    me = arena.player(locale="pt-BR")
    page = me.page
    page.goto("/games/duelo/")
    expect(page.locator("html")).to_have_attribute("lang", "pt-br")
    form = page.locator("form[action$='/tables/']")
    form.locator("select[name='players']").select_option("3")
    form.get_by_role("button", name="Abrir mesa").click()
    expect(page).to_have_url(MATCH_URL)
    public_id = MATCH_URL.search(page.url).group(1)
    for bot in ("random", "heuristic"):
        page.locator("select[name='bot']").select_option(bot)
        page.get_by_role("button", name="Colocar um bot").click()

    board = page.locator("#kfa-board")
    expect(board).to_be_visible()
    expect(page.locator("[data-role='connection']")).to_contain_text("Conectado")
    expect(board.get_by_role("button", name="Desistir")).to_be_visible()
    expect(board.get_by_role("heading", name="Registro da partida")).to_be_visible()

    assert play_by_clicking(page) > 0

    results = page.locator("[data-role='results']")
    expect(results).to_contain_text(re.compile(r"vence|Você vence"))
    # The game log in Portuguese too: whole sentences, in the person's grammar.
    log = page.locator("[data-role='log']")
    expect(log).to_contain_text(re.compile(r"Turno \d+: (sua vez|vez de )"))
    expect(log).to_contain_text(re.compile(r"Você compra uma carta \(resta"))
    expect(log).to_contain_text(re.compile(r"bot compra uma carta \(resta"))
    expect(log).not_to_contain_text(re.compile(r"\b(draws|You draw) a card"))
    expect(results.get_by_role("columnheader", name="Colocação")).to_be_visible()
    expect(results.get_by_role("button", name="Verificar semente")).to_be_visible()
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.result["winners"]


def test_a_whole_kungfu2013_game_in_german_from_the_profile_setting(arena):
    # The browser says English; the player's profile says German, and wins.
    me = arena.player(locale="en-US")
    me.user.language = "de"
    me.user.save(update_fields=["language"])
    page = me.page
    page.goto("/games/kungfu2013/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    form = page.locator("form[action$='/tables/']")
    form.locator("input[name='opt_life']").fill("5")
    form.get_by_role("button", name="Tisch eröffnen").click()
    expect(page).to_have_url(MATCH_URL)
    public_id = MATCH_URL.search(page.url).group(1)
    page.locator("select[name='bot']").select_option("heuristic")
    page.get_by_role("button", name="Bot hinsetzen").click()
    expect(page.locator("[data-role='connection']")).to_contain_text("Verbunden")
    expect(
        page.locator("#kfa-board").get_by_role("button", name="Aufgeben")
    ).to_be_visible()

    choices = (
        "#kfa-board button.choice:not([disabled]), "
        "#kfa-board .kcard-choice:not([disabled])"
    )
    confirm = "dialog[data-role='confirm'][open] [data-role='confirm-ok']"
    results = page.locator("[data-role='results']")
    deadline = time.monotonic() + 300
    clicks = 0
    labels: set[str] = set()
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {clicks} clicks"
        page.locator(
            f"{choices}, [data-role='results']:not([hidden]), "
            "dialog[data-role='confirm'][open]"
        ).first.wait_for(timeout=60_000)
        if page.locator(confirm).count():
            page.locator(confirm).click()
            continue
        choice = page.locator(choices).first
        if not choice.count():
            continue
        # The choices as a person (or a screen reader) reads them.
        labels.update(
            page.eval_on_selector_all(
                choices,
                "els => els.map(e => e.getAttribute('aria-label') || e.textContent)",
            )
        )
        try:
            choice.click(timeout=2000, position={"x": 12, "y": 12})
            clicks += 1
        except Exception:  # the board redrew under the click (the bot moved)
            continue
    assert clicks > 0
    # The engine's English card labels ("Attack with Tiger Claw (3->5)"), worded
    # by the board in German: "Mit Tiger Claw (3→5) angreifen".
    german = re.compile(r"^Mit .+ \(\d+(→\d+)?\) (angreifen|blocken)$")
    assert any(german.match(label) for label in labels), sorted(labels)
    assert not [x for x in labels if re.match(r"(Attack|Block|Pay) with", x)]
    expect(results.get_by_role("columnheader", name="Platz")).to_be_visible()
    # The game log in German, each sentence in the person's grammar.
    log = page.locator("[data-role='log']")
    # A game of 5 lives can end in its first battle, whose log opens with the
    # attacker keeping the initiative rather than a round's "has" line.
    initiative = re.compile(
        r"(Runde \d+: (Du hast|.+ hat)|Du behältst|.+ behält) die Initiative"
    )
    expect(log).to_contain_text(initiative)
    expect(log).to_contain_text(re.compile(r"Du (greifst|blockst|ziehst)"))
    english = re.compile(r"(has|keeps) the initiative|You (attack|block)")
    expect(log).not_to_contain_text(english)
    expect(results.get_by_role("button", name="Seed prüfen")).to_be_visible()
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.game == "kungfu2013"


def test_a_whole_kungfu2019_game_in_traditional_chinese(arena):
    # A Taiwanese browser (zh-TW) gets Traditional Chinese.
    me = arena.player(locale="zh-TW")
    page = me.page
    page.goto("/games/kungfu2019/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hant")
    form = page.locator("form[action$='/tables/']")
    form.locator("select[name='players']").select_option("2")
    form.get_by_role("button", name="開桌").click()
    expect(page).to_have_url(MATCH_URL)
    public_id = MATCH_URL.search(page.url).group(1)
    page.locator("select[name='bot']").select_option("heuristic")
    page.get_by_role("button", name="安排機器人入座").click()
    expect(page.locator("[data-role='connection']")).to_contain_text("已連線")
    expect(
        page.locator("#kfa-board").get_by_role("button", name="認輸")
    ).to_be_visible()

    prompt = "#kfa-board [data-role='prompt']"
    # The engine's prompt (English in view.prompt) in Chinese, by its phase.
    expect(page.locator(prompt)).to_contain_text(
        re.compile("輪到你.從牌包中保留一張牌")
    )
    cards = (
        f"{prompt} button[data-action^='pick:']:not([disabled]), "
        f"{prompt} button[data-action^='play:']:not([disabled])"
    )
    auto = f"{prompt} button[data-action='auto']:not([disabled])"
    done = f"{prompt} button[data-action='done']:not([disabled])"
    results = page.locator("[data-role='results']")
    deadline = time.monotonic() + 420
    clicks = 0
    tray_words: set[str] = set()
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {clicks} clicks"
        page.locator(
            f"{cards}, {auto}, {done}, [data-role='results']:not([hidden])"
        ).first.wait_for(timeout=90_000)
        if results.is_visible():
            break
        try:
            if page.locator(auto).count():
                # The dice tray's button, in Chinese.
                tray_words.add(page.locator(auto).first.inner_text(timeout=2000))
                page.locator(auto).click(timeout=2000)
            elif page.locator(done).count():
                page.locator(done).click(timeout=2000)
            else:
                page.locator(cards).first.click(timeout=2000)
            clicks += 1
        except Exception:  # the board redrew under the click (the bot moved)
            continue
    assert clicks >= 10
    assert "最佳分配並完成" in tray_words, tray_words
    expect(results.get_by_role("columnheader", name="名次")).to_be_visible()
    # The game log in Chinese: the fight's sentences, the reader's own as 你.
    log = page.locator("[data-role='log']")
    expect(log).to_contain_text(re.compile(r"(你|\S+ )以 \d+ ATK 攻擊"))
    expect(log).to_contain_text(re.compile(r"你以 \d+ 防禦"))
    expect(log).not_to_contain_text(re.compile(r"attacks with|You (attack|defend)"))
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.game == "kungfu2019"


def test_a_whole_kungfu2009_game_in_polish(arena):
    # A Polish browser; the deal gives the person four Dragons, so their KUNG FU
    # is certain; the one-minute table then ends the game.
    from gameplay import services
    from gameplay.services import SeatSpec

    from .kungfu2009 import shout_until_scored
    from .test_kungfu2009_live import stacked

    me = arena.player(locale="pl-PL", viewport={"width": 1280, "height": 1400})
    match = arena.server_side(
        services.match_create,
        game="kungfu2009",
        seats=[
            SeatSpec(user=me.user),
            SeatSpec(agent="builtin:heuristic"),
            SeatSpec(agent="builtin:random"),
            SeatSpec(agent="builtin:random"),
        ],
        config={
            "deck": stacked(["DDDDT", "MCRTM", "CRTMC", "RTMCR"]),
            "minutes": 1,
        },
        private_options=True,
    )
    # Started before the page opens: no reload of the page races the socket's.
    arena.server_side(services.match_start, match_id=match.pk)
    page = me.page
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("[data-role='connection']")).to_contain_text("Połączono")
    expect(page.locator("[data-role='composer']")).to_contain_text("Złóż ofertę")
    shout_until_scored(arena, page, match_pk=match.pk, seat=0)
    results = page.locator("[data-role='results']")
    expect(results).to_be_visible(timeout=150_000)
    expect(results.get_by_role("columnheader", name="Miejsce")).to_be_visible()
    expect(results.get_by_role("columnheader", name="Punkty")).to_be_visible()
    # The game log in Polish: the person's own KUNG FU in the second person.
    log = page.locator("[data-role='log']")
    expect(log).to_contain_text(re.compile(r"KUNG FU! Zgłaszasz \S+"))
    expect(log).to_contain_text(re.compile(r"Dobrze: ukończasz \S+ \(\+\d+ punkt"))
    expect(log).not_to_contain_text(re.compile(r"You claim|Correct: you"))
    finished = arena.wait_until(
        lambda: Match.objects.filter(pk=match.pk, status=MatchStatus.FINISHED).first(),
        message="the match to be stored as finished",
    )
    assert finished.state["won"][0]


def _started(arena, me, game, bots, config):
    """A live table of ``game``: ``me`` in seat 0, built-in bots in the others."""
    from gameplay import services
    from gameplay.services import SeatSpec

    match = arena.server_side(
        services.match_create,
        game=game,
        seats=[SeatSpec(user=me.user)]
        + [SeatSpec(agent="builtin:random") for _ in range(bots)],
        config=config,
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=match.pk)
    return match


def test_kungfu2013_card_texts_in_german(arena):
    # The effect texts come from the cards' codes and numbers, in the reader's words.
    me = arena.player(locale="de-DE")
    match = _started(arena, me, "kungfu2013", 1, {"start": 0})
    page = me.page
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Verbunden")
    cards = page.locator("[data-role='card-list'] tbody tr")
    expect(cards).to_have_count(60)
    hook = cards.filter(has_text="Mantis Hook")
    expect(hook).to_contain_text(
        "wenn der Gegner Leben verliert: zwei zufällige Karten aus der Hand "
        "deines Gegners werden abgeworfen (kostet 2 Münzen)"
    )
    expect(cards.filter(has_text="Lotus Kick")).to_contain_text(
        "Wert steigt auf 3 (kostet 1 Münze)"
    )
    expect(page.locator("[data-role='card-list']")).not_to_contain_text(
        re.compile(r"value rises|\(cost \d")
    )


def test_kungfu2019_card_texts_in_traditional_chinese(arena):
    # A kept card's accessible name (what a screen reader reads) in Chinese.
    me = arena.player(locale="zh-TW")
    match = _started(arena, me, "kungfu2019", 1, {"players": 2})
    page = me.page
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("已連線")
    pick = page.locator("#kfa-board button[data-action^='pick:']:not([disabled])")
    pick.first.click()
    kept = page.locator("#kfa-board .kf19-card[role='img'][aria-label*='先攻值']")
    # Chinese punctuation between the pieces too (full-width colon, comma, semicolon).
    colon, comma, semicolon = (
        "\N{FULLWIDTH COLON}",
        "\N{FULLWIDTH COMMA}",
        "\N{FULLWIDTH SEMICOLON}",
    )
    text = re.compile(
        f"^.+{colon}先攻值 \\d{comma}加成 (HP|ATK|DEF|HIT|AVO){semicolon}.+{colon}"
    )
    expect(kept.first).to_have_attribute("aria-label", text)
    expect(kept.first).not_to_have_attribute(
        "aria-label", re.compile(r"initiative|bonus|red cross|pair|sum")
    )


def test_kungfu2009_card_texts_in_polish(arena):
    # The combination cards' names, the hand's titles and the hit pile in Polish.
    me = arena.player(locale="pl-PL")
    match = _started(arena, me, "kungfu2009", 3, {"minutes": 5})
    page = me.page
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Połączono")
    board = page.locator("#kfa-board")
    expect(board.locator("[data-role='deck']")).to_have_text(
        re.compile(r"^Stos ciosów: \d+ (kart|karty|karta)$")
    )
    easy = board.locator("[data-role='faceup-easy'] .kf09-combo[role='img']")
    expect(easy).to_have_attribute(
        "aria-label", re.compile(r"^E\d\d: łatwa, 1 punkt, \w+ \w+ \w+ \w+$")
    )
    first = board.locator("[data-role='my-hand'] [data-index='0']")
    expect(first).to_have_attribute(
        "title", re.compile(r"^Karta 1: \w+\. Zaznacz ją, a potem kliknij miejsce")
    )


def test_a_refused_step_is_explained_in_polish(arena):
    # A race the server decides: the person accepts an offer that its player
    # withdrew a moment before (the withdrawal's frame is held back, as on a
    # slow line). The refusal comes from the engine as a code and is worded
    # for this socket's reader: the Polish browser's language, the rival's name.
    import json

    from gameplay import services
    from gameplay.services import SeatSpec

    from .test_kungfu2009_live import stacked

    me = arena.player(locale="pl-PL", viewport={"width": 1280, "height": 1400})
    others = [arena.create_user(display_name=arena.unique(n)) for n in "BCD"]
    match = arena.server_side(
        services.match_create,
        game="kungfu2009",
        seats=[SeatSpec(user=me.user), *(SeatSpec(user=u) for u in others)],
        config={
            "deck": stacked(["DDDDT", "MCRTM", "CRTMC", "RTMCR"]),
            "minutes": 5,
        },
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=match.pk)
    held = {"on": False}
    errors: list[dict] = []

    def through(ws):
        server = ws.connect_to_server()

        def to_page(message):
            frame = json.loads(message) if isinstance(message, str) else {}
            if frame.get("type") == "error":
                errors.append(frame)
            if not held["on"] or frame.get("type") in ("error", "ack", "pong"):
                ws.send(message)

        server.on_message(to_page)

    page = me.page
    page.route_web_socket(re.compile(r"/ws/match/"), through)
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Połączono")

    def act(seat: int, action: str) -> None:
        services.match_act(match_id=match.pk, user=others[seat - 1], action_id=action)

    for intent in ("to:all", "give:T", "send"):
        arena.server_side(act, 1, intent)
    accept = page.locator("[data-role='offers-to-me'] .kf09-accept")
    expect(accept).to_be_visible()
    held["on"] = True
    arena.server_side(act, 1, "withdraw:1")
    accept.click()
    error = page.locator("[data-role='error']")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Ten ruch nie jest teraz dozwolony.")
    name = others[0].public_name
    expect(error).to_contain_text(f"Oferta 1 nie jest już otwarta: wycofuje ją {name}.")
    expect(error).not_to_contain_text("not open")
    # Programs keep the codes: the frame the page got names the engine's reason.
    [frame] = errors
    assert (frame["code"], frame["reason"]) == ("illegal_action", "offer_withdrawn")
    assert frame["params"] == {"offer": 1, "player": 1}
