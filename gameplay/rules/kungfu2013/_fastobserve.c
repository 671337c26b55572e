/* Kung Fu (2013): observe() and legal_action_ids() in C (optional CPython
 * extension, beside the playout kernel _fastplay.c).
 *
 * Why: a seat's observation and its menu are asked at every decision (a bot
 * is handed both, the live server sends every seat its view after every
 * step), and built in Python they were about half of a step of the public
 * API (issue 33 §2: about 39,000 and 7,000 of 76,000 instructions,
 * callgrind). Here the same dict is built field by field from the same
 * allow-list as observation.py's ``observe_py`` (the engine's
 * ``_observe_py``), and the same menus as menus.py's ``_menu_*``: their
 * docstrings and comments are the reference: what a seat may see, in which
 * order, and why. The observation's lists and dicts are its own; the card
 * views (observation.py's ``_VIEW``), the hand counts
 * (``_HAND_COUNTS``) and the battle's view are shared read-only, as the
 * Python ones are: a battle's view is kept per the facts it shows (compared
 * by value) in a small table.
 *
 * ``observe(state, seat)`` returns the observation and
 * ``legal_action_ids(state, seat)`` the menu, or None when they decline: for
 * anything but a well-formed state (a malformed state, an invalid seat, an
 * unexpected type anywhere; for ``observe`` a finished game too) the engine
 * builds it in Python instead, which raises the documented errors. Equal
 * results for every seat at every step of seeded games:
 * tests/rules/test_kungfu2013_observe.py and bench/engine_digest.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../observe.h" /* get, put, as_long, template */

/* Interned strings: the keys read and written, and a few values. */
#define STRINGS(X)                                                               \
    X(phase) X(actor) X(b) X(a) X(ac) X(face) X(bc) X(blocked) X(null) X(act)   \
    X(hit) X(flip) X(av) X(bv) X(hands) X(todo) X(life) X(init) X(starter)      \
    X(round) X(cfg) X(max_rounds) X(rdeck) X(bdeck) X(rdisc) X(bdisc) X(front)  \
    X(noblk) X(result) X(game) X(rules_version) X(seat) X(players) X(prompt)    \
    X(actors) X(pending) X(initiative) X(hand) X(hand_counts) X(decks)          \
    X(discards) X(coins) X(no_block_round) X(battle) X(red) X(blue) X(draws)    \
    X(coins_due) X(difference) X(attacker) X(defender) X(attack)               \
    X(attack_played) X(revealed) X(block) X(block_done) X(block_discarded)      \
    X(activated) X(attack_value) X(block_value) X(on_hit_pending)               \
    X(initiative_changes) X(up) X(down) X(kungfu2013) X(value) X(rise) X(colour)
#define DECLARE(name) static PyObject *S_##name;
STRINGS(DECLARE)
#undef DECLARE

/* Phases as init() gives them (phases.py's PROMPTS, in its order): name ->
 * index, the prompt per index, and the indices the observation tells apart. */
#define MAXP 16
static PyObject *PHASE_INDEX;    /* phase name -> its index (a Python int) */
static PyObject *PROMPT[MAXP];   /* strong references */
static int PH_DRAW = -1, PH_PAY = -1, PH_REWARD = -1, PH_OVER = -1, PH_ATTACK = -1,
           PH_BLOCK = -1, PH_TARGET = -1;
static PyObject *RULES_VERSION;  /* phases.py's RULES_VERSION */
static PyObject *HAND_COUNTS;    /* observation.py's _HAND_COUNTS */

/* The card table by the card's character (a byte): its shared view
 * (observation.py's ``_VIEW``, NULL for a byte that is no card), value,
 * rise (-1: none), coins, and whether it is red. */
static PyObject *VIEW[128];
static int VALUE[128], RISE[128], COINS[128], IS_RED[128];

/* Templates: every key in its order, each value None (observe.h's
 * ``template`` says why). */
static PyObject *OBS_TEMPLATE, *BATTLE_TEMPLATE, *COLOURS_TEMPLATE;
/* The observation's template per seat (None, 0, 1) with the fields fixed for
 * the seat and the game's length filled in (observation.py's ``_OBS_BASE``), for
 * the ``max_rounds`` of the states last observed. */
static PyObject *OBS_BASE[3];
static long OBS_BASE_ROUNDS;

/* The battle's views, shared read-only per the facts they show
 * (observation.py's ``_BATTLES``): a direct-mapped table, a fact key
 * (``battle_key``) each. */
#define MEMO 1024
static struct { uint64_t key; PyObject *view; } BATTLES[MEMO];


/* A pile held as a string of card characters: its length, -1 for anything
 * else (not an exact str, a character that is no card). */
static Py_ssize_t pile(PyObject *s, const unsigned char **chars) {
    if (s == NULL || !PyUnicode_CheckExact(s) || !PyUnicode_IS_ASCII(s)) return -1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const unsigned char *c = PyUnicode_1BYTE_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++)
        if (VIEW[c[i]] == NULL) return -1;
    *chars = c;
    return n;
}

/* A battle's card: 0 for none (""), the character, or -1 for anything else. */
static int one_card(PyObject *s) {
    const unsigned char *c;
    Py_ssize_t n = pile(s, &c);
    return n == 0 ? 0 : n == 1 ? c[0] : -1;
}

/* The views of a pile's cards as a new list, in order or sorted by byte
 * (the hand: observation.py's ``sorted(hand.encode())``). */
static PyObject *views(const unsigned char *c, Py_ssize_t n, int sorted) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    unsigned char buf[128];
    if (sorted && n <= 128) { /* insertion sort: hands hold about 20 cards */
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char x = c[i];
            Py_ssize_t j = i;
            for (; j > 0 && buf[j - 1] > x; j--) buf[j] = buf[j - 1];
            buf[j] = x;
        }
        c = buf;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = VIEW[c[i]];
        Py_INCREF(v);
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* A new list of two items, from two new references (NULL: an error, either
 * reference dropped). */
static PyObject *pair(PyObject *x, PyObject *y) {
    PyObject *out = x && y ? PyList_New(2) : NULL;
    if (!out) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        return NULL;
    }
    PyList_SET_ITEM(out, 0, x);
    PyList_SET_ITEM(out, 1, y);
    return out;
}
static inline PyObject *new_ref(PyObject *o) {
    Py_INCREF(o);
    return o;
}

/* OBS_BASE for a game of ``max_rounds`` rounds (observation.py's ``_obs_base``). */
static int obs_bases(PyObject *max_rounds, long rounds) {
    for (int i = 0; i < 3; i++) {
        PyObject *d = PyDict_Copy(OBS_TEMPLATE);
        PyObject *seat = i ? PyLong_FromLong(i - 1) : new_ref(Py_None);
        if (!d || PyDict_SetItem(d, S_game, S_kungfu2013) ||
            PyDict_SetItem(d, S_rules_version, RULES_VERSION) || put(d, S_seat, seat) ||
            put(d, S_players, PyLong_FromLong(2)) ||
            PyDict_SetItem(d, S_max_rounds, max_rounds)) {
            Py_XDECREF(d);
            return -1;
        }
        Py_XSETREF(OBS_BASE[i], d);
    }
    OBS_BASE_ROUNDS = rounds;
    return 0;
}

/* A checked pile's reds (alphabet.py's ``_nred``) and coins (``_COIN_SUMS``). */
static Py_ssize_t reds(const unsigned char *c, Py_ssize_t n) {
    Py_ssize_t r = 0;
    for (Py_ssize_t i = 0; i < n; i++) r += IS_RED[c[i]];
    return r;
}
static long coins(const unsigned char *c, Py_ssize_t n) {
    long sum = 0;
    for (Py_ssize_t i = 0; i < n; i++) sum += COINS[c[i]];
    return sum;
}

/* rounds.py's ``_value``: a card's value for the seat, its rise when the
 * seat activated its effect. */
static inline int value_of(int card, int activated) {
    return activated && RISE[card] >= 0 ? RISE[card] : VALUE[card];
}

/* The facts a battle's view shows (observation.py's ``_BattleKey``), packed. */
typedef struct {
    int a, ac, face, bc, blocked, null_, act[2], hit, attacker; /* face: 0, 'u', 'd' */
    Py_ssize_t flips;
} Battle;

static uint64_t battle_key(const Battle *t) {
    return 1u | (uint64_t)t->a << 1 | (uint64_t)t->ac << 2 |
           (uint64_t)(t->face == 'u' ? 1 : t->face == 'd' ? 2 : 0) << 9 |
           (uint64_t)t->bc << 11 | (uint64_t)t->blocked << 18 |
           (uint64_t)t->null_ << 19 | (uint64_t)t->act[0] << 26 |
           (uint64_t)t->act[1] << 27 | (uint64_t)t->hit << 28 |
           (uint64_t)t->attacker << 29 | (uint64_t)t->flips << 30;
}

static inline PyObject *flag(int x) { return x ? Py_True : Py_False; }
static inline PyObject *or_none(PyObject *x) { return x ? x : Py_None; }

/* observation.py's ``_battle_view``, a new dict. */
static PyObject *battle_view(const Battle *t) {
    int shown = t->face == 'u' || t->blocked;
    int shown_card = t->bc ? t->bc : t->null_;
    PyObject *v = PyDict_Copy(BATTLE_TEMPLATE);
    if (!v) return NULL;
    PyObject *activated = pair(new_ref(flag(t->act[0])), new_ref(flag(t->act[1])));
    if (put(v, S_attacker, PyLong_FromLong(t->a)) ||
        put(v, S_defender, PyLong_FromLong(1 - t->a)) ||
        PyDict_SetItem(v, S_attack,
                       or_none(t->ac && (shown || t->attacker) ? VIEW[t->ac] : NULL)) ||
        PyDict_SetItem(v, S_attack_played, flag(t->ac && t->face)) ||
        PyDict_SetItem(v, S_face,
                       t->face == 'u' ? S_up : t->face == 'd' ? S_down : Py_None) ||
        PyDict_SetItem(v, S_revealed, flag(t->ac && shown)) ||
        PyDict_SetItem(v, S_block, or_none(shown_card ? VIEW[shown_card] : NULL)) ||
        PyDict_SetItem(v, S_block_done, flag(t->blocked)) ||
        PyDict_SetItem(v, S_block_discarded, flag(t->null_)) ||
        put(v, S_activated, activated) ||
        (t->ac && shown &&
         put(v, S_attack_value, PyLong_FromLong(value_of(t->ac, t->act[t->a])))) ||
        (t->bc ? put(v, S_block_value,
                     PyLong_FromLong(value_of(t->bc, t->act[1 - t->a])))
               : t->blocked && put(v, S_block_value, PyLong_FromLong(0))) ||
        PyDict_SetItem(v, S_on_hit_pending, flag(t->hit)) ||
        put(v, S_initiative_changes, PyLong_FromSsize_t(t->flips))) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

/* The battle's shared view, borrowed (the table holds it). */
static PyObject *battle(const Battle *t) {
    uint64_t key = battle_key(t);
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    unsigned i = (unsigned)(h >> 54) & (MEMO - 1);
    if (BATTLES[i].key == key) return BATTLES[i].view;
    PyObject *v = battle_view(t);
    if (!v) return NULL;
    Py_XSETREF(BATTLES[i].view, v);
    BATTLES[i].key = key;
    return v;
}

/* An exact True or False as 1 or 0, else -1: observation.py's views are
 * cached by equal keys, and 1 == True, so only bools give one answer either way. */
static inline int as_flag(PyObject *o) {
    return o == Py_True ? 1 : o == Py_False ? 0 : -1;
}

#define DECLINE()                         \
    do {                                  \
        if (PyErr_Occurred()) return NULL; \
        Py_RETURN_NONE;                   \
    } while (0)

static PyObject *py_observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "observe(state, seat) takes 2 arguments");
        return NULL;
    }
    if (RULES_VERSION == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastobserve.init was not called");
        return NULL;
    }
    PyObject *state = args[0], *seat = args[1];
    if (!PyDict_CheckExact(state)) Py_RETURN_NONE;

    /* -- read and check everything first: decline before building anything */
    long s = -1, actor, rnd, nb[2], rounds;
    int has_seat = seat != Py_None;
    if (has_seat && (!as_long(seat, &s) || s < 0 || s > 1)) DECLINE();
    PyObject *ph = get(state, S_phase);
    PyObject *index = ph ? get(PHASE_INDEX, ph) : NULL;
    if (index == NULL) DECLINE();
    int p = (int)PyLong_AsLong(index);
    PyObject *actor_o = get(state, S_actor), *b = get(state, S_b);
    PyObject *cfg = get(state, S_cfg), *round = get(state, S_round);
    if (!as_long(actor_o, &actor) || !b || !PyDict_CheckExact(b) || !cfg ||
        !PyDict_CheckExact(cfg) || !as_long(round, &rnd) ||
        get(state, S_result) != Py_None)
        DECLINE();
    PyObject *max_rounds = get(cfg, S_max_rounds);
    PyObject *life = get(state, S_life), *init = get(state, S_init);
    PyObject *starter = get(state, S_starter), *todo = get(state, S_todo);
    PyObject *rdeck = get(state, S_rdeck), *bdeck = get(state, S_bdeck);
    if (!as_long(max_rounds, &rounds) || !life || !PyList_CheckExact(life) || !init || !starter ||
        !todo || !PyList_CheckExact(todo) || !rdeck || !PyUnicode_CheckExact(rdeck) ||
        !bdeck || !PyUnicode_CheckExact(bdeck))
        DECLINE();
    PyObject *lists[3];
    PyObject *const names[3] = {S_hands, S_front, S_noblk};
    for (int k = 0; k < 3; k++) {
        lists[k] = get(state, names[k]);
        if (!lists[k] || !PyList_CheckExact(lists[k]) || PyList_GET_SIZE(lists[k]) != 2)
            DECLINE();
    }
    const unsigned char *hand_c[2], *front_c[2], *rdisc_c, *bdisc_c;
    Py_ssize_t hand_n[2], front_n[2], rdisc_n, bdisc_n;
    for (int i = 0; i < 2; i++) {
        if ((hand_n[i] = pile(PyList_GET_ITEM(lists[0], i), &hand_c[i])) < 0 ||
            hand_n[i] >= PyList_GET_SIZE(HAND_COUNTS) ||
            (front_n[i] = pile(PyList_GET_ITEM(lists[1], i), &front_c[i])) < 0 ||
            !as_long(PyList_GET_ITEM(lists[2], i), &nb[i]))
            DECLINE();
    }
    if ((rdisc_n = pile(get(state, S_rdisc), &rdisc_c)) < 0 ||
        (bdisc_n = pile(get(state, S_bdisc), &bdisc_c)) < 0)
        DECLINE();
    /* the battle: its facts */
    Battle t;
    long a;
    PyObject *act = get(b, S_act), *flip = get(b, S_flip), *face = get(b, S_face);
    if (!as_long(get(b, S_a), &a) || (a != 0 && a != 1) || !act ||
        !PyList_CheckExact(act) || PyList_GET_SIZE(act) != 2 || !flip ||
        !PyList_CheckExact(flip) || !face || !PyUnicode_CheckExact(face))
        DECLINE();
    t.a = (int)a;
    t.attacker = has_seat && s == a;
    t.flips = PyList_GET_SIZE(flip);
    t.face = PyUnicode_GET_LENGTH(face) == 0 ? 0 : PyUnicode_READ_CHAR(face, 0);
    if ((t.ac = one_card(get(b, S_ac))) < 0 || (t.bc = one_card(get(b, S_bc))) < 0 ||
        (t.null_ = one_card(get(b, S_null))) < 0 ||
        (t.blocked = as_flag(get(b, S_blocked))) < 0 ||
        (t.hit = as_flag(get(b, S_hit))) < 0 ||
        (t.act[0] = as_flag(PyList_GET_ITEM(act, 0))) < 0 ||
        (t.act[1] = as_flag(PyList_GET_ITEM(act, 1))) < 0 ||
        (PyUnicode_GET_LENGTH(face) && (PyUnicode_GET_LENGTH(face) != 1 ||
                                        (t.face != 'u' && t.face != 'd'))) ||
        t.flips > 0xFFFFFFF)
        DECLINE();
    /* pending: what the decision waits on */
    PyObject *pending_key = NULL, *pending_value = NULL;
    long difference = 0;
    Py_ssize_t ntodo = PyList_GET_SIZE(todo);
    if (actor >= 0 && ntodo && (p == PH_DRAW || p == PH_PAY || p == PH_REWARD)) {
        if (p == PH_REWARD) {
            long av, bv;
            if (!as_long(get(b, S_av), &av) || !as_long(get(b, S_bv), &bv)) DECLINE();
            pending_key = S_difference;
            difference = bv - av;
        } else {
            PyObject *task = PyList_GET_ITEM(todo, ntodo - 1);
            if (!PyList_CheckExact(task) || PyList_GET_SIZE(task) < 3) DECLINE();
            pending_key = p == PH_DRAW ? S_draws : S_coins_due;
            pending_value = PyList_GET_ITEM(task, 2);
        }
    }

    /* -- build, in the order of observation.py's _obs_base */
    PyObject *bv = Py_None;
    if (p != PH_OVER || t.ac) {
        bv = battle(&t);
        if (!bv) return NULL;
    }
    if ((OBS_BASE[0] == NULL || OBS_BASE_ROUNDS != rounds) &&
        obs_bases(max_rounds, rounds))
        return NULL;
    PyObject *obs = PyDict_Copy(OBS_BASE[s + 1]), *x, *y;
    if (!obs) return NULL;
    if (PyDict_SetItem(obs, S_round, round) || PyDict_SetItem(obs, S_phase, ph) ||
        PyDict_SetItem(obs, S_prompt, PROMPT[p]))
        goto fail;
    x = actor < 0 ? PyList_New(0) : PyList_New(1);
    if (x && actor >= 0) {
        Py_INCREF(actor_o);
        PyList_SET_ITEM(x, 0, actor_o);
    }
    if (put(obs, S_actors, x)) goto fail;
    x = PyDict_New();
    if (x && pending_key)
        if (pending_value ? PyDict_SetItem(x, pending_key, pending_value)
                          : put(x, pending_key, PyLong_FromLong(difference)))
            Py_CLEAR(x);
    if (put(obs, S_pending, x) ||
        put(obs, S_life, PyList_GetSlice(life, 0, PyList_GET_SIZE(life))) ||
        PyDict_SetItem(obs, S_initiative, init) || PyDict_SetItem(obs, S_starter, starter) ||
        (has_seat && put(obs, S_hand, views(hand_c[s], hand_n[s], 1))))
        goto fail;
    x = pair(new_ref(PyList_GET_ITEM(PyList_GET_ITEM(HAND_COUNTS, hand_n[0]),
                                     reds(hand_c[0], hand_n[0]))),
             new_ref(PyList_GET_ITEM(PyList_GET_ITEM(HAND_COUNTS, hand_n[1]),
                                     reds(hand_c[1], hand_n[1]))));
    if (put(obs, S_hand_counts, x)) goto fail;
    x = PyDict_Copy(COLOURS_TEMPLATE);
    if (!x || put(x, S_red, PyLong_FromSsize_t(PyUnicode_GET_LENGTH(rdeck))) ||
        put(x, S_blue, PyLong_FromSsize_t(PyUnicode_GET_LENGTH(bdeck)))) {
        Py_XDECREF(x);
        goto fail;
    }
    if (put(obs, S_decks, x)) goto fail;
    x = PyDict_Copy(COLOURS_TEMPLATE);
    if (!x || put(x, S_red, views(rdisc_c, rdisc_n, 0)) ||
        put(x, S_blue, views(bdisc_c, bdisc_n, 0))) {
        Py_XDECREF(x);
        goto fail;
    }
    if (put(obs, S_discards, x)) goto fail;
    x = views(front_c[0], front_n[0], 0);
    y = x ? views(front_c[1], front_n[1], 0) : NULL;
    if (put(obs, S_front, pair(x, y)) ||
        put(obs, S_coins, pair(PyLong_FromLong(coins(front_c[0], front_n[0])),
                               PyLong_FromLong(coins(front_c[1], front_n[1])))))
        goto fail;
    /* The round in which each player may not block, while it is still ahead. */
    x = PyList_New(2);
    if (!x) goto fail;
    for (int i = 0; i < 2; i++) {
        PyObject *o = nb[i] >= rnd ? PyList_GET_ITEM(lists[2], i) : Py_None;
        Py_INCREF(o);
        PyList_SET_ITEM(x, i, o);
    }
    if (put(obs, S_no_block_round, x) || PyDict_SetItem(obs, S_battle, bv)) goto fail;
    return obs;

fail:
    Py_DECREF(obs);
    return NULL;
}

/* -- legal_action_ids: the menus of menus.py's ``_menu_*`` */

/* From init_menus(): each phase's fixed menu (menus.py's ``_FIXED``, NULL
 * for the others), the draw menus, and per card byte its attack or block id
 * (``_ID_BY_BYTE``), its pay id and its target id. Strong references. */
static PyObject *FIXED[MAXP], *DRAW_RED_FIRST, *DRAW_BLUE_FIRST;
static PyObject *HAND_ID[128], *PAY_ID[128], *TARGET_ID[128];

/* A new list of the ids of ``n`` card bytes, in that order. */
static PyObject *id_list(PyObject **table, const unsigned char *c, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *id = table[c[i]];
        Py_INCREF(id);
        PyList_SET_ITEM(out, i, id);
    }
    return out;
}

/* A row's card bytes of one colour (red: 1, blue: 0), sorted by byte. */
static Py_ssize_t colour_sorted(const unsigned char *c, Py_ssize_t n, int red,
                                unsigned char *out) {
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (IS_RED[c[i]] != red) continue;
        Py_ssize_t j = k++;
        for (; j > 0 && out[j - 1] > c[i]; j--) out[j] = out[j - 1];
        out[j] = c[i];
    }
    return k;
}

/* A row of coin cards sorted by (coins, byte), or by (-coins, byte). */
static void coin_sorted(const unsigned char *c, Py_ssize_t n, int richest_first,
                        unsigned char *out) {
    for (Py_ssize_t i = 0; i < n; i++) {
        int x = richest_first ? -COINS[c[i]] : COINS[c[i]];
        Py_ssize_t j = i;
        for (; j > 0; j--) {
            int y = richest_first ? -COINS[out[j - 1]] : COINS[out[j - 1]];
            if (y < x || (y == x && out[j - 1] < c[i])) break;
            out[j] = out[j - 1];
        }
        out[j] = c[i];
    }
}

static PyObject *py_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError,
                        "legal_action_ids(state, seat) takes 2 arguments");
        return NULL;
    }
    if (DRAW_RED_FIRST == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastobserve.init_menus was not called");
        return NULL;
    }
    PyObject *state = args[0], *seat = args[1];
    if (!PyDict_CheckExact(state)) Py_RETURN_NONE;
    long s, actor;
    if (!as_long(get(state, S_actor), &actor)) DECLINE();
    /* engine.py: ``seat != state["actor"] or state["actor"] < 0``: no menu */
    if (seat == Py_None) return PyList_New(0);
    if (!as_long(seat, &s)) DECLINE();
    if (s != actor || actor < 0) return PyList_New(0);
    if (actor > 1) DECLINE();
    PyObject *ph = get(state, S_phase);
    PyObject *index = ph ? get(PHASE_INDEX, ph) : NULL;
    if (index == NULL) DECLINE();
    int p = (int)PyLong_AsLong(index);
    if (FIXED[p]) return PySequence_List(FIXED[p]);
    if (p == PH_OVER) return PyList_New(0);
    PyObject *rows = get(state, p == PH_PAY || p == PH_TARGET ? S_front : S_hands);
    if (!rows || !PyList_CheckExact(rows) || PyList_GET_SIZE(rows) != 2) DECLINE();
    const unsigned char *c;
    Py_ssize_t n = pile(PyList_GET_ITEM(rows, p == PH_TARGET ? 1 - actor : actor), &c);
    if (n < 0 || n > 128) DECLINE();
    unsigned char buf[128];
    if (p == PH_DRAW) {
        /* the colour you hold fewer of first (ties: blue) */
        PyObject *menu = 2 * reds(c, n) < n ? DRAW_RED_FIRST : DRAW_BLUE_FIRST;
        return PySequence_List(menu);
    }
    if (p == PH_ATTACK) return id_list(HAND_ID, buf, colour_sorted(c, n, 1, buf));
    if (p == PH_BLOCK) {
        PyObject *b = get(state, S_b), *face;
        if (!b || !PyDict_CheckExact(b) || !(face = get(b, S_face)) ||
            !PyUnicode_CheckExact(face))
            DECLINE();
        Py_ssize_t k = colour_sorted(c, n, 0, buf);
        if (PyUnicode_GET_LENGTH(face) == 1 && PyUnicode_READ_CHAR(face, 0) == 'u') {
            /* the weakest block that stops the face-up attack first */
            int ac = one_card(get(b, S_ac));
            if (ac <= 0) DECLINE();
            for (Py_ssize_t i = 0; i < k; i++) {
                if (VALUE[buf[i]] >= VALUE[ac]) {
                    unsigned char x = buf[i];
                    memmove(buf + 1, buf, (size_t)i);
                    buf[0] = x;
                    break;
                }
            }
        }
        return id_list(HAND_ID, buf, k);
    }
    if (p == PH_PAY || p == PH_TARGET) {
        coin_sorted(c, n, p == PH_TARGET, buf);
        return id_list(p == PH_PAY ? PAY_ID : TARGET_ID, buf, n);
    }
    DECLINE(); /* a phase phases.py does not have */
}

/* table[c] = ids[chr(c)] for every card byte (a new reference each). */
static int id_table(PyObject *ids, PyObject **table) {
    for (int c = 0; c < 128; c++) {
        Py_CLEAR(table[c]);
        if (VIEW[c] == NULL) continue;
        char ch = (char)c;
        PyObject *key = PyUnicode_FromStringAndSize(&ch, 1);
        PyObject *id = key ? PyDict_GetItemWithError(ids, key) : NULL;
        Py_XDECREF(key);
        if (!id || !PyUnicode_CheckExact(id)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card has no id");
            return -1;
        }
        Py_INCREF(id);
        table[c] = id;
    }
    return 0;
}

static PyObject *py_init_menus(PyObject *self, PyObject *args) {
    PyObject *fixed, *red_first, *blue_first, *hand_ids, *pay_ids, *target_ids;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!:init_menus", &PyDict_Type, &fixed,
                          &PyTuple_Type, &red_first, &PyTuple_Type, &blue_first,
                          &PyList_Type, &hand_ids, &PyDict_Type, &pay_ids,
                          &PyDict_Type, &target_ids))
        return NULL;
    if (PHASE_INDEX == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastobserve.init was not called");
        return NULL;
    }
    if (PyList_GET_SIZE(hand_ids) != 128) {
        PyErr_SetString(PyExc_ValueError, "hand ids: one per byte, 128");
        return NULL;
    }
    for (int p = 0; p < MAXP; p++) Py_CLEAR(FIXED[p]);
    PyObject *key, *menu;
    Py_ssize_t pos = 0;
    while (PyDict_Next(fixed, &pos, &key, &menu)) {
        PyObject *index = PyDict_GetItemWithError(PHASE_INDEX, key);
        if (!index || !PyTuple_CheckExact(menu)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad fixed menu");
            return NULL;
        }
        Py_INCREF(menu);
        FIXED[PyLong_AsLong(index)] = menu;
    }
    for (int c = 0; c < 128; c++) {
        PyObject *id = PyList_GET_ITEM(hand_ids, c);
        Py_CLEAR(HAND_ID[c]);
        if (VIEW[c] == NULL) continue;
        if (!PyUnicode_CheckExact(id)) {
            PyErr_SetString(PyExc_ValueError, "a card has no attack or block id");
            return NULL;
        }
        Py_INCREF(id);
        HAND_ID[c] = id;
    }
    if (id_table(pay_ids, PAY_ID) || id_table(target_ids, TARGET_ID)) return NULL;
    Py_INCREF(red_first);
    Py_XSETREF(DRAW_RED_FIRST, red_first);
    Py_INCREF(blue_first);
    Py_XSETREF(DRAW_BLUE_FIRST, blue_first);
    Py_RETURN_NONE;
}

/* An int field of a card's view (None: -1). */
static int card_int(PyObject *view, PyObject *key, int *out) {
    PyObject *o = PyDict_GetItemWithError(view, key);
    if (o == Py_None) {
        *out = -1;
        return 0;
    }
    long v;
    if (!as_long(o, &v)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card view");
        return -1;
    }
    *out = (int)v;
    return 0;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *rules_version, *prompts, *views_by_byte, *hand_counts;
    if (!PyArg_ParseTuple(args, "UO!O!O!:init_observe", &rules_version, &PyDict_Type,
                          &prompts, &PyList_Type, &views_by_byte, &PyList_Type,
                          &hand_counts))
        return NULL;
    if (PyList_GET_SIZE(views_by_byte) != 128 || PyDict_GET_SIZE(prompts) > MAXP) {
        PyErr_SetString(PyExc_ValueError, "128 card views and at most 16 phases");
        return NULL;
    }
    for (int c = 0; c < 128; c++) {
        PyObject *v = PyList_GET_ITEM(views_by_byte, c);
        Py_CLEAR(VIEW[c]);
        if (v == Py_None) continue;
        if (!PyDict_Check(v) || card_int(v, S_value, &VALUE[c]) ||
            card_int(v, S_rise, &RISE[c]) || card_int(v, S_coins, &COINS[c])) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card view");
            return NULL;
        }
        PyObject *colour = PyDict_GetItemWithError(v, S_colour);
        if (!colour) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card view");
            return NULL;
        }
        int red = PyObject_RichCompareBool(colour, S_red, Py_EQ);
        if (red < 0) return NULL;
        IS_RED[c] = red;
        Py_INCREF(v);
        VIEW[c] = v;
    }
    PyObject *index = PyDict_New(), *key, *prompt;
    Py_ssize_t pos = 0;
    int i = 0;
    while (index && PyDict_Next(prompts, &pos, &key, &prompt)) {
        PyObject *n = PyLong_FromLong(i);
        if (!n || PyDict_SetItem(index, key, n)) Py_CLEAR(index);
        Py_XDECREF(n);
        if (!index) break;
        Py_INCREF(prompt);
        Py_XSETREF(PROMPT[i], prompt);
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : "";
        if (!name) Py_CLEAR(index);
        else if (!strcmp(name, "draw")) PH_DRAW = i;
        else if (!strcmp(name, "pay")) PH_PAY = i;
        else if (!strcmp(name, "reward")) PH_REWARD = i;
        else if (!strcmp(name, "over")) PH_OVER = i;
        else if (!strcmp(name, "attack")) PH_ATTACK = i;
        else if (!strcmp(name, "block")) PH_BLOCK = i;
        else if (!strcmp(name, "target")) PH_TARGET = i;
        i++;
    }
    if (!index) return NULL;
    Py_XSETREF(PHASE_INDEX, index);
    for (int k = 0; k < 3; k++) Py_CLEAR(OBS_BASE[k]);
    for (int k = 0; k < MEMO; k++) {
        Py_CLEAR(BATTLES[k].view);
        BATTLES[k].key = 0;
    }
    Py_INCREF(hand_counts);
    Py_XSETREF(HAND_COUNTS, hand_counts);
    Py_INCREF(rules_version);
    Py_XSETREF(RULES_VERSION, rules_version);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(observe_doc,
"observe(state, seat, /) -> dict | None\n\n"
"What engine.py's ``_observe_py(state, seat)`` returns (seat None: a\n"
"spectator); None for a finished game, a seat other than 0, 1 or None, or a\n"
"state it does not read as the engine writes it: ``observe`` then runs\n"
"``_observe_py``.");
PyDoc_STRVAR(init_doc,
"init(rules_version, prompts, views, hand_counts, /)\n\n"
"phases.py's RULES_VERSION, PROMPTS (phase -> prompt, every phase), the\n"
"cards' views by byte (observation.py's _VIEW_OF_BYTE, None for a byte that\n"
"is no card) and _HAND_COUNTS (per hand size, per number of reds).");

PyDoc_STRVAR(legal_doc,
"legal_action_ids(state, seat, /) -> list[str] | None\n\n"
"What engine.py's ``_legal_action_ids_py(state, seat)`` returns (the seat's\n"
"menu, [] when it is not that seat's decision); None for a state it does not\n"
"read as the engine writes it or a seat that is not an int or None.");
PyDoc_STRVAR(init_menus_doc,
"init_menus(fixed, draw_red_first, draw_blue_first, hand_ids, pay_ids,\n"
"           target_ids, /)\n\n"
"menus.py's _FIXED, _DRAW_RED_FIRST, _DRAW_BLUE_FIRST, _ID_BY_BYTE, PAY_ID\n"
"and TARGET_ID (after init()).");

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"init_menus", py_init_menus, METH_VARARGS, init_menus_doc},
    {"legal_action_ids", (PyCFunction)(void (*)(void))py_legal, METH_FASTCALL,
     legal_doc},
    {"observe", (PyCFunction)(void (*)(void))py_observe, METH_FASTCALL, observe_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastobserve",
    "Kung Fu (2013): a seat's observation built in C (engine.py's observe).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__fastobserve(void) {
#define INTERN(name) \
    if (!(S_##name = PyUnicode_InternFromString(#name))) return NULL;
    STRINGS(INTERN)
#undef INTERN
    PyObject *obs_keys[] = {S_game, S_rules_version, S_seat, S_players, S_round,
                            S_max_rounds, S_phase, S_prompt, S_actors, S_pending,
                            S_life, S_initiative, S_starter, S_hand, S_hand_counts,
                            S_decks, S_discards, S_front, S_coins, S_no_block_round,
                            S_battle, S_result};
    PyObject *battle_keys[] = {S_attacker, S_defender, S_attack, S_attack_played,
                               S_face, S_revealed, S_block, S_block_done,
                               S_block_discarded, S_activated, S_attack_value,
                               S_block_value, S_on_hit_pending, S_initiative_changes};
    PyObject *colour_keys[] = {S_red, S_blue};
    if (!(OBS_TEMPLATE = template(obs_keys, 22)) ||
        !(BATTLE_TEMPLATE = template(battle_keys, 14)) ||
        !(COLOURS_TEMPLATE = template(colour_keys, 2)))
        return NULL;
    return PyModule_Create(&module);
}
