/* Duelo: Kung Fu: observe() in C (optional CPython extension).
 *
 * Why: a seat's observation is asked at every decision (a bot is handed it,
 * the live server sends every seat its view after every step), and built in
 * Python it was about 44% of a step of the public API (issue 33 §2: about
 * 32,000 of 73,000 instructions, callgrind). Here the same dict is built
 * field by field from the same allow-list as observation.py's ``observe_py``
 * (the engine's ``_observe_py``), whose docstring and comments are the
 * reference: what a seat may see, in which order, and why. Nothing is
 * cached between calls: every observation is built from the state it is
 * given, with lists and dicts of its own.
 *
 * ``observe(state, seat)`` returns the observation, or None when it declines:
 * for anything but a well-formed state in play (a malformed or finished
 * state, an invalid seat, an unexpected type anywhere) the engine builds it in
 * Python instead, which raises the documented errors. Equal results for every
 * seat at every step of seeded games: tests/rules/test_duelo_native.py and
 * bench/engine_digest.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../observe.h" /* get, put, as_long, template */

#define MAXN 8 /* seats at most (engine.py's max_players) */

/* Phases, in phases.py's PHASES order then OVER (exported as PHASES;
 * native.py checks that they match before it uses this module). */
enum { P_CARD = 0, P_FACE, P_TARGET, P_ANSWER, P_C_DISCIPLE, P_C_MONKEY,
       P_C_MONKEY_ORDER, P_DRAGON_DRAW, P_U_DISCIPLE, P_DRUNK_PUT, P_SNAKE_TARGET,
       P_SNAKE_SEPARATE, P_SNAKE_GUESS, P_MONKEY_A, P_MONKEY_B, P_TIGER_TARGET,
       P_DRAGON_PEEK, P_OVER, P_COUNT };
static const char *PHASE_NAMES[] = {
    "card", "face", "target", "answer", "c_disciple", "c_monkey",
    "c_monkey_order", "dragon_draw", "u_disciple", "drunk_put", "snake_target",
    "snake_separate", "snake_guess", "monkey_a", "monkey_b", "tiger_target",
    "dragon_peek", "over"};

/* phases.py's _UP_PHASES, _DUEL_PHASES and _PEEK_PHASES. */
#define BIT(p) (1u << (p))
static const unsigned UP_PHASES =
    BIT(P_U_DISCIPLE) | BIT(P_DRUNK_PUT) | BIT(P_SNAKE_TARGET) |
    BIT(P_SNAKE_SEPARATE) | BIT(P_SNAKE_GUESS) | BIT(P_MONKEY_A) |
    BIT(P_MONKEY_B) | BIT(P_TIGER_TARGET) | BIT(P_DRAGON_PEEK);
static const unsigned DUEL_PHASES =
    BIT(P_C_DISCIPLE) | BIT(P_C_MONKEY) | BIT(P_C_MONKEY_ORDER) |
    BIT(P_DRAGON_DRAW);
static const unsigned PEEK_PHASES =
    BIT(P_C_DISCIPLE) | BIT(P_U_DISCIPLE) | BIT(P_DRAGON_PEEK);

/* Interned strings: the keys read and written, and a few values. */
#define STRINGS(X)                                                              \
    X(n) X(phase) X(ctx) X(turn) X(hands) X(alive) X(crane) X(tiger) X(prizes) \
    X(hidden) X(actor) X(cfg) X(rounds) X(reshuffle_discard) X(reshuffled)     \
    X(markers) X(deck) X(discard) X(start_draw) X(history) X(result) X(round)  \
    X(turns) X(card) X(copied) X(left) X(target) X(swap) X(def) X(winner)      \
    X(dk) X(fa) X(fd) X(peek) X(sep) X(put) X(under) X(game) X(rules_version)  \
    X(seat) X(players) X(rounds_to_win) X(actors) X(prompt) X(deck_count)      \
    X(reshuffle_available) X(seats) X(hand) X(play) X(duel) X(private)         \
    X(hand_count) X(face_down_prizes) X(protected) X(tiger_target) X(face)     \
    X(to_put_back) X(first_swap) X(attacker) X(defender) X(cards) X(focus)     \
    X(tie) X(decided) X(source) X(separated) X(put_back) X(put_under) X(up)    \
    X(set_aside) X(duelo)
#define DECLARE(name) static PyObject *S_##name;
STRINGS(DECLARE)
#undef DECLARE

static PyObject *PHASE_CODES;  /* phase name -> its code (a Python int) */
static PyObject *RULES_VERSION; /* from init(): phases.py's RULES_VERSION */
static PyObject *PROMPTS;       /* from init(): phases.py's PROMPTS */
static PyObject *ROUNDS_VIEW;   /* from init(): the finished rounds' records */
static PyObject *START_DRAW_VIEW; /* from init(): the start draws' copy */

/* Templates: every key in its order, each value None (observe.h's
 * ``template`` says why). */
static PyObject *OBS_TEMPLATE, *SEAT_TEMPLATE, *DUEL_TEMPLATE;

/* Each seat's public part as last built, shared read-only by the
 * observations that show the same facts, as observation.py's ``_SEAT``
 * views are (docs/engine.md, "Observations"): the view and the facts it
 * shows. */
typedef struct {
    PyObject *view, *prizes, *hidden; /* strong references */
    PyObject *alive, *crane;          /* Py_True or Py_False */
    Py_ssize_t count;
    long tiger;
} SeatMemo;
static SeatMemo SEAT_MEMO[MAXN];

/* A pile held as a string of card characters: ASCII digits only (what
 * observation.py's ``int`` of a character gives for a card), else -1. */
static Py_ssize_t pile_chars(PyObject *s, const char **chars) {
    if (!PyUnicode_CheckExact(s) || !PyUnicode_IS_ASCII(s)) return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    const char *c = (const char *)PyUnicode_1BYTE_DATA(s);
    for (Py_ssize_t i = 0; i < len; i++)
        if (c[i] < '0' || c[i] > '9') return -1;
    *chars = c;
    return len;
}

/* cards.py's FOCUS[c] for a one-card string: 1..8, else 0. */
static int focus_of(PyObject *s) {
    if (s == NULL || !PyUnicode_CheckExact(s) || PyUnicode_GET_LENGTH(s) != 1 ||
        !PyUnicode_IS_ASCII(s))
        return 0;
    char c = ((const char *)PyUnicode_1BYTE_DATA(s))[0];
    return (c >= '1' && c <= '8') ? c - '0' : 0;
}

/* The Focus values of a checked pile as a new list, in order (_PILE) or
 * sorted (_SORTED). */
static PyObject *pile_list(const char *c, Py_ssize_t len, int sorted) {
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    if (sorted) {
        Py_ssize_t count[10] = {0}, k = 0;
        for (Py_ssize_t i = 0; i < len; i++) count[c[i] - '0']++;
        for (int v = 0; v < 10; v++)
            for (Py_ssize_t j = 0; j < count[v]; j++)
                PyList_SET_ITEM(out, k++, PyLong_FromLong(v));
    } else {
        for (Py_ssize_t i = 0; i < len; i++)
            PyList_SET_ITEM(out, i, PyLong_FromLong(c[i] - '0'));
    }
    return out; /* small ints are cached: PyLong_FromLong cannot fail here */
}

static inline int put_borrowed(PyObject *d, PyObject *key, PyObject *value) {
    return PyDict_SetItem(d, key, value);
}

/* Equal checked piles (ASCII strings). */
static inline int same_pile(PyObject *x, PyObject *y) {
    if (x == y) return 1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(x);
    return n == PyUnicode_GET_LENGTH(y) &&
           memcmp(PyUnicode_1BYTE_DATA(x), PyUnicode_1BYTE_DATA(y), (size_t)n) == 0;
}

/* Seat i's public part (observation.py's ``_seat_view``), a new reference: the
 * memo's when it shows the same facts, else built and kept. */
static PyObject *seat_view(long i, PyObject *alive, Py_ssize_t count,
                           PyObject *prizes, const char *prize_c,
                           Py_ssize_t prize_n, PyObject *hidden,
                           const char *hidden_c, Py_ssize_t hidden_n,
                           PyObject *crane, PyObject *tiger, long tg) {
    SeatMemo *m = &SEAT_MEMO[i];
    if (m->view && m->alive == alive && m->crane == crane && m->count == count &&
        m->tiger == tg && same_pile(m->prizes, prizes) &&
        same_pile(m->hidden, hidden)) {
        Py_INCREF(m->view);
        return m->view;
    }
    PyObject *v = PyDict_Copy(SEAT_TEMPLATE);
    if (!v || put(v, S_seat, PyLong_FromLong(i)) ||
        put_borrowed(v, S_alive, alive) ||
        put(v, S_hand_count, PyLong_FromSsize_t(count)) ||
        put(v, S_prizes, pile_list(prize_c, prize_n, 0)) ||
        put(v, S_face_down_prizes, pile_list(hidden_c, hidden_n, 0)) ||
        put_borrowed(v, S_protected, crane) ||
        put_borrowed(v, S_tiger_target, tg >= 0 ? tiger : Py_None)) {
        Py_XDECREF(v);
        return NULL;
    }
    PyObject *old_view = m->view, *old_prizes = m->prizes, *old_hidden = m->hidden;
    Py_INCREF(v);
    Py_INCREF(prizes);
    Py_INCREF(hidden);
    m->view = v;
    m->prizes = prizes;
    m->hidden = hidden;
    m->alive = alive;
    m->crane = crane;
    m->count = count;
    m->tiger = tg;
    Py_XDECREF(old_view);
    Py_XDECREF(old_prizes);
    Py_XDECREF(old_hidden);
    return v;
}

#define DECLINE()                \
    do {                         \
        if (PyErr_Occurred()) goto error; \
        Py_RETURN_NONE;          \
    } while (0)

static PyObject *py_observe(PyObject *self, PyObject *args) {
    PyObject *state, *seat;
    if (!PyArg_UnpackTuple(args, "observe", 2, 2, &state, &seat)) return NULL;
    if (PROMPTS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastplay.init() was not called");
        return NULL;
    }
    if (!PyDict_CheckExact(state)) Py_RETURN_NONE;

    /* -- read and check everything first: decline before building anything */
    long n, s = -1, a, actor, tg[MAXN];
    if (!as_long(get(state, S_n), &n) || n < 1 || n > MAXN) DECLINE();
    int has_seat = seat != Py_None;
    if (has_seat && (!as_long(seat, &s) || s < 0 || s >= n)) DECLINE();
    PyObject *ph = get(state, S_phase);
    PyObject *code = ph ? PyDict_GetItemWithError(PHASE_CODES, ph) : NULL;
    if (code == NULL) DECLINE();
    int p = (int)PyLong_AsLong(code);
    PyObject *ctx = get(state, S_ctx);
    PyObject *turn = get(state, S_turn);
    PyObject *actor_o = get(state, S_actor);
    PyObject *cfg = get(state, S_cfg);
    if (!ctx || !PyDict_CheckExact(ctx) || !as_long(turn, &a) ||
        !as_long(actor_o, &actor) || !cfg || !PyDict_CheckExact(cfg))
        DECLINE();
    PyObject *lists[6];
    PyObject *const names[6] = {S_hands, S_alive, S_crane, S_tiger, S_prizes,
                                S_hidden};
    for (int k = 0; k < 6; k++) {
        lists[k] = get(state, names[k]);
        if (!lists[k] || !PyList_CheckExact(lists[k]) ||
            PyList_GET_SIZE(lists[k]) != n)
            DECLINE();
    }
    PyObject *hands = lists[0], *alive = lists[1], *crane = lists[2],
             *tiger = lists[3], *prizes = lists[4], *hidden = lists[5];
    const char *hand_c[MAXN], *prize_c[MAXN], *hidden_c[MAXN];
    Py_ssize_t hand_n[MAXN], prize_n[MAXN], hidden_n[MAXN];
    for (long i = 0; i < n; i++) {
        PyObject *al = PyList_GET_ITEM(alive, i), *cr = PyList_GET_ITEM(crane, i);
        /* Exactly True or False: observation.py's views are cached by equal keys,
         * and 1 == True, so only bools give one answer either way. */
        if ((al != Py_True && al != Py_False) || (cr != Py_True && cr != Py_False) ||
            !as_long(PyList_GET_ITEM(tiger, i), &tg[i]) ||
            (hand_n[i] = pile_chars(PyList_GET_ITEM(hands, i), &hand_c[i])) < 0 ||
            (prize_n[i] = pile_chars(PyList_GET_ITEM(prizes, i), &prize_c[i])) < 0 ||
            (hidden_n[i] = pile_chars(PyList_GET_ITEM(hidden, i), &hidden_c[i])) < 0)
            DECLINE();
    }
    PyObject *rounds = get(cfg, S_rounds);
    PyObject *rd = get(cfg, S_reshuffle_discard);
    PyObject *round = get(state, S_round);
    PyObject *turns = get(state, S_turns);
    PyObject *markers = get(state, S_markers);
    PyObject *deck = get(state, S_deck);
    PyObject *discard = get(state, S_discard);
    PyObject *start_draw = get(state, S_start_draw);
    PyObject *history = get(state, S_history);
    PyObject *result = get(state, S_result);
    PyObject *prompt = ph ? PyDict_GetItemWithError(PROMPTS, ph) : NULL;
    if (!rounds || !PyLong_CheckExact(rounds) || !rd || !round || !turns ||
        !markers || !PyList_CheckExact(markers) || !deck ||
        !PyUnicode_CheckExact(deck) || !discard || !start_draw ||
        !PyList_CheckExact(start_draw) || !history || !PyList_CheckExact(history) ||
        result != Py_None || !prompt)
        DECLINE();
    const char *discard_c;
    Py_ssize_t discard_n = pile_chars(discard, &discard_c);
    if (discard_n < 0) DECLINE();
    int rd_true = PyObject_IsTrue(rd);
    if (rd_true < 0) goto error;
    PyObject *reshuffled = NULL;
    int reshuffled_true = 0;
    if (rd_true) {
        reshuffled = get(state, S_reshuffled);
        if (!reshuffled) DECLINE();
        reshuffled_true = PyObject_IsTrue(reshuffled);
        if (reshuffled_true < 0) goto error;
    }
    unsigned pb = BIT(p);
    int card = 0; /* FOCUS[ctx["card"]] where this phase shows it */
    PyObject *extra = NULL; /* play's phase-specific item */
    PyObject *extra_key = NULL;
    if (p == P_FACE || p == P_TARGET || p == P_ANSWER || (pb & (UP_PHASES | DUEL_PHASES))) {
        if (!(card = focus_of(get(ctx, S_card)))) DECLINE();
    }
    int copied = 0;
    if (pb & UP_PHASES) {
        PyObject *cp = get(ctx, S_copied);
        if (cp != NULL && cp != Py_None) {
            int t = PyObject_IsTrue(cp);
            if (t < 0) goto error;
            if (t && !(copied = focus_of(cp))) DECLINE();
        } else if (PyErr_Occurred()) goto error;
        if (p == P_DRUNK_PUT) extra_key = S_to_put_back, extra = get(ctx, S_left);
        else if (p == P_SNAKE_SEPARATE || p == P_SNAKE_GUESS)
            extra_key = S_target, extra = get(ctx, S_target);
        else if (p == P_MONKEY_B) extra_key = S_first_swap, extra = get(ctx, S_swap);
        if (extra_key && !extra) DECLINE();
    }
    PyObject *def = NULL;
    int dk = 0;
    long w = 0;
    PyObject *winner = NULL;
    if (p == P_TARGET || p == P_ANSWER) {
        def = get(ctx, S_def); /* ctx.get("def"): None before a target */
        if (!def && PyErr_Occurred()) goto error;
    } else if (pb & DUEL_PHASES) {
        def = get(ctx, S_def);
        PyObject *fa = get(ctx, S_fa), *fd = get(ctx, S_fd);
        winner = get(ctx, S_winner);
        if (!def || !fa || !fd || !(dk = focus_of(get(ctx, S_dk))) ||
            (winner && !as_long(winner, &w)))
            DECLINE();
    }
    /* private: what this seat alone sees now */
    int peek = 0, separated = 0;
    PyObject *put_pile = NULL;
    PyObject *put_key = NULL;
    if (has_seat && s == actor && (pb & PEEK_PHASES)) {
        if (!(peek = focus_of(get(ctx, S_peek)))) DECLINE();
    }
    if (p == P_SNAKE_GUESS) {
        long target;
        if (!as_long(get(ctx, S_target), &target)) DECLINE();
        if (has_seat && s == target && !(separated = focus_of(get(ctx, S_sep))))
            DECLINE();
    }
    const char *put_c = NULL;
    Py_ssize_t put_n = 0;
    if (has_seat && s == actor && (p == P_DRUNK_PUT || p == P_C_MONKEY_ORDER)) {
        put_key = p == P_DRUNK_PUT ? S_put : S_under;
        put_pile = get(ctx, put_key);
        if (put_pile) {
            put_n = pile_chars(put_pile, &put_c);
            if (put_n < 0) DECLINE();
            for (Py_ssize_t i = 0; i < put_n; i++)
                if (put_c[i] < '1' || put_c[i] > '8') DECLINE();
        } else if (PyErr_Occurred()) goto error;
    }

    /* -- build, in the order of observation.py's _obs_base */
    PyObject *obs = PyDict_Copy(OBS_TEMPLATE), *x;
    if (!obs) return NULL;
    if (put_borrowed(obs, S_game, S_duelo) ||
        put_borrowed(obs, S_rules_version, RULES_VERSION) ||
        (has_seat && put_borrowed(obs, S_seat, seat)) ||
        put(obs, S_players, PyLong_FromLong(n)) ||
        put_borrowed(obs, S_round, round) ||
        put_borrowed(obs, S_rounds_to_win, rounds) ||
        put(obs, S_markers, PyList_GetSlice(markers, 0, PyList_GET_SIZE(markers))) ||
        put_borrowed(obs, S_turn, turn) || put_borrowed(obs, S_turns, turns) ||
        put_borrowed(obs, S_phase, ph))
        goto fail;
    x = actor < 0 ? PyList_New(0) : PyList_New(1);
    if (x && actor >= 0) {
        Py_INCREF(actor_o);
        PyList_SET_ITEM(x, 0, actor_o);
    }
    if (put(obs, S_actors, x) || put_borrowed(obs, S_prompt, prompt) ||
        put(obs, S_deck_count, PyLong_FromSsize_t(PyUnicode_GET_LENGTH(deck))) ||
        put(obs, S_discard, pile_list(discard_c, discard_n, 0)) ||
        put_borrowed(obs, S_reshuffle_available,
                     rd_true ? (reshuffled_true ? Py_False : Py_True) : rd))
        goto fail;
    PyObject *seats = PyList_New(n);
    if (put(obs, S_seats, seats)) goto fail; /* obs holds it now */
    for (long i = 0; i < n; i++) {
        PyObject *v = seat_view(i, PyList_GET_ITEM(alive, i), hand_n[i],
                                PyList_GET_ITEM(prizes, i), prize_c[i], prize_n[i],
                                PyList_GET_ITEM(hidden, i), hidden_c[i], hidden_n[i],
                                PyList_GET_ITEM(crane, i), PyList_GET_ITEM(tiger, i),
                                tg[i]);
        if (!v) goto fail;
        PyList_SET_ITEM(seats, i, v);
    }
    if (has_seat && put(obs, S_hand, pile_list(hand_c[s], hand_n[s], 1))) goto fail;
    /* play / duel: the card on the table and the duel in progress */
    PyObject *play = Py_None, *duel = Py_None;
    Py_INCREF(play);
    Py_INCREF(duel);
    if (p == P_FACE) {
        Py_SETREF(play, PyDict_New());
        if (!play || put_borrowed(play, S_seat, turn) ||
            put_borrowed(play, S_face, Py_None) ||
            (has_seat && s == a ? put(play, S_card, PyLong_FromLong(card))
                                : put_borrowed(play, S_card, Py_None)))
            goto fail_pd;
    } else if (pb & UP_PHASES) {
        Py_SETREF(play, PyDict_New());
        if (!play || put_borrowed(play, S_seat, turn) ||
            put_borrowed(play, S_face, S_up) ||
            put(play, S_card, PyLong_FromLong(card)) ||
            (copied ? put(play, S_copied, PyLong_FromLong(copied))
                    : put_borrowed(play, S_copied, Py_None)) ||
            (extra_key && put_borrowed(play, extra_key, extra)))
            goto fail_pd;
    } else if (p == P_TARGET || p == P_ANSWER) {
        PyObject *cards = PyList_New(2);
        if (!cards) goto fail_pd;
        PyList_SET_ITEM(cards, 0,
                        has_seat && s == a ? PyLong_FromLong(card)
                                           : (Py_INCREF(Py_None), Py_None));
        Py_INCREF(Py_None);
        PyList_SET_ITEM(cards, 1, Py_None);
        Py_SETREF(duel, PyDict_New());
        int r = !duel || put_borrowed(duel, S_attacker, turn) ||
                put_borrowed(duel, S_defender, def ? def : Py_None) ||
                put_borrowed(duel, S_cards, cards);
        Py_DECREF(cards);
        if (r) goto fail_pd;
    } else if (pb & DUEL_PHASES) {
        PyObject *cards = Py_BuildValue("[ii]", card, dk);
        PyObject *focus = Py_BuildValue("[OO]", get(ctx, S_fa), get(ctx, S_fd));
        Py_SETREF(duel, PyDict_Copy(DUEL_TEMPLATE));
        int r = !cards || !focus || !duel || put_borrowed(duel, S_attacker, turn) ||
                put_borrowed(duel, S_defender, def) ||
                put_borrowed(duel, S_cards, cards) ||
                put_borrowed(duel, S_focus, focus) ||
                put_borrowed(duel, S_winner,
                             winner == NULL || w < 0 ? Py_None : winner) ||
                put_borrowed(duel, S_tie,
                             winner != NULL && w == -1 ? Py_True : Py_False) ||
                put_borrowed(duel, S_decided, winner != NULL ? Py_True : Py_False);
        Py_XDECREF(cards);
        Py_XDECREF(focus);
        if (r) goto fail_pd;
    }
    /* (the template's None stays where there is no play or duel) */
    if (play != Py_None && put_borrowed(obs, S_play, play)) goto fail_pd;
    if (duel != Py_None && put_borrowed(obs, S_duel, duel)) goto fail_pd;
    Py_DECREF(play);
    Py_DECREF(duel);
    PyObject *priv = PyDict_New();
    if (!priv) goto fail;
    if (peek) {
        int r = put(priv, S_peek, PyLong_FromLong(peek)) ||
                put_borrowed(priv, S_source,
                             PyUnicode_GET_LENGTH(deck) ? S_deck : S_set_aside);
        if (r) {
            Py_DECREF(priv);
            goto fail;
        }
    }
    if (separated) {
        Py_SETREF(priv, PyDict_New());
        if (!priv || put(priv, S_separated, PyLong_FromLong(separated))) {
            Py_XDECREF(priv);
            goto fail;
        }
    }
    if (put_pile) {
        Py_SETREF(priv, PyDict_New());
        if (!priv || put(priv, p == P_DRUNK_PUT ? S_put_back : S_put_under,
                         pile_list(put_c, put_n, 0))) {
            Py_XDECREF(priv);
            goto fail;
        }
    }
    if (put(obs, S_private, priv)) goto fail;
    if (PyList_GET_SIZE(start_draw)) {
        x = PyObject_CallOneArg(START_DRAW_VIEW, start_draw);
    } else {
        x = PyList_New(0);
    }
    if (put(obs, S_start_draw, x)) goto fail;
    if (PyList_GET_SIZE(history)) {
        PyObject *view = PyObject_CallOneArg(ROUNDS_VIEW, history);
        x = view ? PySequence_List(view) : NULL;
        Py_XDECREF(view);
    } else {
        x = PyList_New(0);
    }
    if (put(obs, S_rounds, x)) goto fail;
    return obs;

fail_pd:
    Py_XDECREF(play);
    Py_XDECREF(duel);
fail:
    Py_DECREF(obs);
    return NULL;
error:
    return NULL;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *rules_version, *prompts, *rounds_view, *start_draw_view;
    if (!PyArg_ParseTuple(args, "UO!OO:init", &rules_version, &PyDict_Type, &prompts,
                          &rounds_view, &start_draw_view))
        return NULL;
    Py_INCREF(rules_version);
    Py_XSETREF(RULES_VERSION, rules_version);
    Py_INCREF(prompts);
    Py_XSETREF(PROMPTS, prompts);
    Py_INCREF(rounds_view);
    Py_XSETREF(ROUNDS_VIEW, rounds_view);
    Py_INCREF(start_draw_view);
    Py_XSETREF(START_DRAW_VIEW, start_draw_view);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(observe_doc,
"observe(state, seat, /) -> dict | None\n\n"
"engine.py's observation of ``state`` for ``seat`` (None: a spectator), or\n"
"None when this declines (anything but a well-formed state in play and a\n"
"valid seat): the engine then builds it in Python.");
PyDoc_STRVAR(init_doc,
"init(rules_version, prompts, rounds_view, start_draw_view, /)\n\n"
"The engine's RULES_VERSION and PROMPTS, and the Python views of the finished\n"
"rounds (called with a non-empty history) and of the start draws (called with\n"
"non-empty start draws).");

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"observe", py_observe, METH_VARARGS, observe_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastplay",
    "Duelo: Kung Fu: a seat's observation built in C (engine.py's observe).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__fastplay(void) {
#define INTERN(name) \
    if (!(S_##name = PyUnicode_InternFromString(#name))) return NULL;
    STRINGS(INTERN)
#undef INTERN
    PHASE_CODES = PyDict_New();
    PyObject *phases = PyTuple_New(P_COUNT);
    if (!PHASE_CODES || !phases) return NULL;
    for (int i = 0; i < P_COUNT; i++) {
        PyObject *name = PyUnicode_InternFromString(PHASE_NAMES[i]);
        PyObject *code = PyLong_FromLong(i);
        if (!name || !code || PyDict_SetItem(PHASE_CODES, name, code)) return NULL;
        Py_DECREF(code);
        PyTuple_SET_ITEM(phases, i, name);
    }
    PyObject *obs_keys[] = {S_game, S_rules_version, S_seat, S_players, S_round,
                            S_rounds_to_win, S_markers, S_turn, S_turns, S_phase,
                            S_actors, S_prompt, S_deck_count, S_discard,
                            S_reshuffle_available, S_seats, S_hand, S_play, S_duel,
                            S_private, S_start_draw, S_rounds, S_result};
    PyObject *seat_keys[] = {S_seat, S_alive, S_hand_count, S_prizes,
                             S_face_down_prizes, S_protected, S_tiger_target};
    PyObject *duel_keys[] = {S_attacker, S_defender, S_cards, S_focus, S_winner,
                             S_tie, S_decided};
    if (!(OBS_TEMPLATE = template(obs_keys, 23)) ||
        !(SEAT_TEMPLATE = template(seat_keys, 7)) ||
        !(DUEL_TEMPLATE = template(duel_keys, 7)))
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObject(m, "PHASES", phases)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
