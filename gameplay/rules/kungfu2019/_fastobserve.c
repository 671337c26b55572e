/* Kung Fu (2019): observe() in C (optional CPython extension, a sibling of
 * the kernel _fastplay.c).
 *
 * Why: a seat's observation is asked at every decision (a bot is handed it,
 * the live server sends every seat its view after every step), and built in
 * Python it was about 43% of a step of the public API (issue 33 §2: about
 * 45,900 of 106,900 instructions, callgrind). Here the same dict is built
 * field by field from the same allow-list as observation.py's ``observe_py``,
 * whose docstring and comments are the reference: what a seat may see, in
 * which order, and why. The only views kept between calls are a seat's two
 * status-track dicts, shared read-only while its track positions stay the
 * same (as observation.py's ``_TRACK_VIEWS`` shares them); every list is the
 * observation's own.
 *
 * ``observe(state, seat)`` returns the observation, or None when it declines:
 * for anything but a well-formed state in play (a malformed or finished
 * state, an invalid seat, an unexpected type anywhere) observation.py builds it in
 * Python instead, which raises the documented errors. Equal results for every
 * seat at every step of seeded games: tests/rules/test_kungfu2019_observe.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../observe.h" /* get, put, as_long, template, build, read_fields, ref */

#define MAXN 8    /* seats at most (config.py allows 2-5) */
#define NSTAT 5   /* alphabet.py's STAT: hp atk def hit avo */
#define PLAY 3    /* alphabet.py's PLAY: cards played per round */

/* Phases, in phases.py's PHASES order (exported as PHASES; the engine checks
 * that they match before it uses this module). */
enum { P_DRAFT = 0, P_PLAYING, P_ASSIGN, P_OVER, P_COUNT };
static const char *PHASE_NAMES[] = {"draft", "play", "assign", "over"};

/* Interned strings: the keys read and written. */
#define STRINGS(X)                                                          \
    X(game) X(rules_version) X(seat) X(players) X(phase) X(prompt) X(round) \
    X(rounds) X(actors) X(hp) X(eliminated) X(tracks) X(status) X(hand)     \
    X(hand_sizes) X(deck_size) X(discard) X(draft) X(commits) X(played)     \
    X(dummy) X(order) X(attack_index) X(fight) X(result) X(turn)            \
    X(pack_sizes) X(picked) X(pack) X(pick) X(counts) X(mine) X(a) X(f)     \
    X(dice) X(asg) X(attacker) X(fighters) X(done) X(v) X(sets) X(open)     \
    X(bud) X(gain) X(spent) X(role) X(values) X(budget) X(kungfu2019)
#define DECLARE(name) static PyObject *S_##name;
STRINGS(DECLARE)
#undef DECLARE

static PyObject *PHASE_CODES;   /* phase name -> its code (a Python int) */
static PyObject *PROMPTS;       /* from init(): phases.py's PROMPTS */
static PyObject *CODES;         /* from init(): 128 card codes by character */
static PyObject *CODE[128];     /* borrowed from CODES; NULL: not a card */
static PyObject *STATS[NSTAT];  /* from init(): alphabet.py's STAT */
static long STEPS[NSTAT];       /* from init(): STEP per stat */
static PyObject *ATTACK, *DEFEND; /* from init(): combos.py's roles */
static PyObject *RULES_VERSION, *ROUNDS; /* from init(): alphabet.py's */
static PyObject *OBS_TEMPLATE, *DRAFT_TEMPLATE, *COMMITS_TEMPLATE,
    *FIGHT_TEMPLATE, *MINE_TEMPLATE; /* every key in order, each value None */
/* Their keys, in order (build() writes a copy's values in place). */
static PyObject *DRAFT_KEYS[5], *COMMITS_KEYS[2], *FIGHT_KEYS[5], *MINE_KEYS[7];

/* A seat's track views as last built: its positions, the dicts of the
 * positions and of the values they give (strong references). */
typedef struct {
    long t[NSTAT];
    PyObject *pos, *val;
} TrackMemo;
static TrackMemo TRACK_MEMO[MAXN];

/* A pile (a string of card characters) checked: its characters, else -1. */
static Py_ssize_t pile_chars(PyObject *s, const unsigned char **chars) {
    if (s == NULL || !PyUnicode_CheckExact(s) || !PyUnicode_IS_ASCII(s)) return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    const unsigned char *c = PyUnicode_1BYTE_DATA(s);
    for (Py_ssize_t i = 0; i < len; i++)
        if (CODE[c[i]] == NULL) return -1;
    *chars = c;
    return len;
}

/* A pile's card codes as a new list, in order or sorted (by character, which
 * sorts by code); NULL without an exception: not a pile. */
static PyObject *codes(PyObject *pile, int sorted) {
    const unsigned char *c;
    Py_ssize_t len = pile_chars(pile, &c);
    if (len < 0) return NULL;
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    if (sorted) {
        /* an insertion sort of the list's items by character: a pile is
         * short (a hand, a pack: ten cards at most) */
        unsigned char s[128];
        if (len > 128) {
            Py_DECREF(out);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < len; i++) {
            Py_ssize_t j = i;
            while (j > 0 && s[j - 1] > c[i]) {
                s[j] = s[j - 1];
                j--;
            }
            s[j] = c[i];
        }
        for (Py_ssize_t i = 0; i < len; i++) {
            Py_INCREF(CODE[s[i]]);
            PyList_SET_ITEM(out, i, CODE[s[i]]);
        }
    } else {
        for (Py_ssize_t i = 0; i < len; i++) {
            Py_INCREF(CODE[c[i]]);
            PyList_SET_ITEM(out, i, CODE[c[i]]);
        }
    }
    return out;
}

/* Per string of a list, its length or its truth (a bool), as a new list;
 * NULL without an exception: not a list of strings. */
static PyObject *per_pile(PyObject *piles, int truth) {
    if (piles == NULL || !PyList_CheckExact(piles)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(piles);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyList_GET_ITEM(piles, i), *x;
        if (!PyUnicode_CheckExact(p)) {
            Py_DECREF(out);
            return NULL;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(p);
        if (truth) {
            x = len ? Py_True : Py_False;
            Py_INCREF(x);
        } else if (!(x = PyLong_FromSsize_t(len))) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* A fresh copy of a list (the observation's own); NULL without an exception:
 * not a list. */
static PyObject *list_copy(PyObject *x) {
    if (x == NULL || !PyList_CheckExact(x)) return NULL;
    return PyList_GetSlice(x, 0, PyList_GET_SIZE(x));
}

/* Seat i's track views (observation.py's ``_track_views``), new references: the
 * memo's while its positions are the same, else built and kept. */
static int track_views(Py_ssize_t i, PyObject *track, PyObject **pos,
                       PyObject **val) {
    if (!PyList_CheckExact(track) || PyList_GET_SIZE(track) != NSTAT) return 0;
    long t[NSTAT];
    for (int k = 0; k < NSTAT; k++)
        if (!as_long(PyList_GET_ITEM(track, k), &t[k])) return 0;
    TrackMemo *m = &TRACK_MEMO[i];
    if (m->pos == NULL || memcmp(m->t, t, sizeof t) != 0) {
        PyObject *p = PyDict_New(), *v = PyDict_New();
        if (!p || !v) goto fail;
        for (int k = 0; k < NSTAT; k++) {
            if (PyDict_SetItem(p, STATS[k], PyList_GET_ITEM(track, k)) ||
                put(v, STATS[k], PyLong_FromLong(t[k] * STEPS[k])))
                goto fail;
        }
        Py_XSETREF(m->pos, p);
        Py_XSETREF(m->val, v);
        memcpy(m->t, t, sizeof t);
        goto done;
    fail:
        Py_XDECREF(p);
        Py_XDECREF(v);
        return -1;
    }
done:
    Py_INCREF(m->pos);
    Py_INCREF(m->val);
    *pos = m->pos;
    *val = m->val;
    return 1;
}

#include "state_fields.h" /* F_*, STATE_KEYS: the state's fields */
/* observation.py's observation: the keys in its order. */
enum { O_game, O_rules_version, O_seat, O_players, O_phase, O_prompt, O_round,
       O_rounds, O_actors, O_hp, O_eliminated, O_tracks, O_status, O_hand,
       O_hand_sizes, O_deck_size, O_discard, O_draft, O_commits, O_played,
       O_dummy, O_order, O_attack_index, O_fight, O_result, O_COUNT };
static PyObject *OBS_KEYS[O_COUNT];

/* engine.py's ``actors`` of a state's fields ``f`` (read_fields);
 * NULL without an exception: malformed. */
static PyObject *actors(PyObject **f, int ph, Py_ssize_t n) {
    PyObject *fight = f[F_fight];
    PyObject *who = PyList_New(0);
    if (!who) return NULL;
    if (ph == P_ASSIGN) {
        PyObject *fs = get(fight, S_f), *asg = get(fight, S_asg);
        if (!fs || !asg || !PyList_CheckExact(fs) || !PyList_CheckExact(asg))
            goto decline;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(fs); j++) {
            PyObject *i = PyList_GET_ITEM(fs, j);
            long k;
            if (!as_long(i, &k) || k < 0 || k >= PyList_GET_SIZE(asg)) goto decline;
            PyObject *a = PyList_GET_ITEM(asg, k);
            if (!PyDict_CheckExact(a)) goto decline;
            PyObject *done = get(a, S_done);
            if (!done) goto decline;
            int r = PyObject_IsTrue(done);
            if (r < 0 || (!r && PyList_Append(who, i))) goto decline;
        }
    } else if (ph == P_DRAFT) {
        PyObject *picks = f[F_picks];
        if (!picks || !PyList_CheckExact(picks) || PyList_GET_SIZE(picks) != n)
            goto decline;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *p = PyList_GET_ITEM(picks, i);
            if (!PyUnicode_CheckExact(p)) goto decline;
            if (!PyUnicode_GET_LENGTH(p)) {
                PyObject *x = PyLong_FromSsize_t(i);
                if (!x || PyList_Append(who, x)) {
                    Py_XDECREF(x);
                    goto decline;
                }
                Py_DECREF(x);
            }
        }
    } else if (ph == P_PLAYING) {
        PyObject *commit = f[F_commit], *elim = f[F_elim];
        if (!commit || !elim || !PyList_CheckExact(commit) ||
            !PyList_CheckExact(elim) || PyList_GET_SIZE(elim) != n ||
            PyList_GET_SIZE(commit) != n)
            goto decline;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *c = PyList_GET_ITEM(commit, i);
            int out = PyObject_IsTrue(PyList_GET_ITEM(elim, i));
            if (out < 0 || !PyUnicode_CheckExact(c)) goto decline;
            if (!out && PyUnicode_GET_LENGTH(c) < PLAY) {
                PyObject *x = PyLong_FromSsize_t(i);
                if (!x || PyList_Append(who, x)) {
                    Py_XDECREF(x);
                    goto decline;
                }
                Py_DECREF(x);
            }
        }
    }
    return who;
decline:
    Py_DECREF(who);
    return NULL;
}

/* A new list [x[0], x[1], [*x[2]]] of a closed or open set (slot, k, dice);
 * NULL without an exception: malformed. */
static PyObject *set_view(PyObject *x) {
    if (!(PyList_CheckExact(x) || PyTuple_CheckExact(x)) || PySequence_Fast_GET_SIZE(x) != 3)
        return NULL;
    PyObject **items = PySequence_Fast_ITEMS(x);
    PyObject *dice = items[2];
    if (!PyList_CheckExact(dice) && !PyTuple_CheckExact(dice)) return NULL;
    PyObject *d = PySequence_List(dice);
    if (!d) return NULL;
    PyObject *out = PyList_New(3);
    if (!out) {
        Py_DECREF(d);
        return NULL;
    }
    Py_INCREF(items[0]);
    Py_INCREF(items[1]);
    PyList_SET_ITEM(out, 0, items[0]);
    PyList_SET_ITEM(out, 1, items[1]);
    PyList_SET_ITEM(out, 2, d);
    return out;
}

/* The seat's own unfinished-or-finished assignment (``fight["mine"]``), a
 * new dict; NULL without an exception: malformed. */
static PyObject *mine_view(PyObject *asg, long seat, PyObject *attacker) {
    long a;
    PyObject *v = get(asg, S_v), *sets = get(asg, S_sets), *op = get(asg, S_open),
             *bud = get(asg, S_bud), *gain = get(asg, S_gain),
             *spent = get(asg, S_spent), *done = get(asg, S_done);
    if (!v || !sets || !op || !bud || !gain || !spent || !done ||
        !PyList_CheckExact(v) || !PyList_CheckExact(sets) || !PyLong_CheckExact(bud) ||
        !PyLong_CheckExact(gain) || !as_long(attacker, &a))
        return NULL;
    Py_ssize_t ns = PyList_GET_SIZE(sets);
    PyObject *sv = PyList_New(ns);
    if (!sv) return NULL;
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *x = set_view(PyList_GET_ITEM(sets, i));
        if (!x) {
            Py_DECREF(sv); /* (its unset items are NULL) */
            return NULL;
        }
        PyList_SET_ITEM(sv, i, x);
    }
    PyObject *mv[7] = {ref(seat == a ? ATTACK : DEFEND), list_copy(v), sv,
                       op != Py_None ? set_view(op) : ref(Py_None),
                       PyNumber_Add(bud, gain), ref(spent), ref(done)};
    return build(MINE_TEMPLATE, MINE_KEYS, mv, 7);
}

/* ``obs["fight"]``, a new dict; NULL without an exception: malformed. */
static PyObject *fight_view(PyObject *f, PyObject *seat) {
    PyObject *a = get(f, S_a), *fs = get(f, S_f), *rolls = get(f, S_dice),
             *asgs = get(f, S_asg);
    if (!a || !fs || !rolls || !asgs || !PyList_CheckExact(rolls) ||
        !PyList_CheckExact(asgs) || PyList_GET_SIZE(asgs) != PyList_GET_SIZE(rolls))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(rolls);
    PyObject *dice = PyList_New(n), *done = PyList_New(n), *mine = NULL;
    if (!dice || !done) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PyList_GET_ITEM(rolls, i), *x = PyList_GET_ITEM(asgs, i);
        if (d != Py_None) {
            if (!(d = list_copy(d))) goto fail;
        } else {
            Py_INCREF(d);
        }
        PyList_SET_ITEM(dice, i, d);
        if (x != Py_None) {
            if (!PyDict_CheckExact(x) || !(x = get(x, S_done))) goto fail;
        }
        Py_INCREF(x);
        PyList_SET_ITEM(done, i, x);
    }
    mine = ref(Py_None);
    if (seat != Py_None) {
        long s = PyLong_AsLong(seat); /* checked by the caller */
        if (s >= n) goto fail;
        PyObject *asg = PyList_GET_ITEM(asgs, s);
        if (asg != Py_None) {
            Py_DECREF(mine);
            if (!PyDict_CheckExact(asg) || !(mine = mine_view(asg, s, a))) goto fail;
        }
    }
    PyObject *fv[5] = {ref(a), list_copy(fs), dice, done, mine};
    return build(FIGHT_TEMPLATE, FIGHT_KEYS, fv, 5);
fail:
    Py_XDECREF(dice);
    Py_XDECREF(done);
    Py_XDECREF(mine);
    return NULL;
}

/* The observation's values from a state's fields ``f`` after the fixed ones
 * (new references in ``v``, each NULL before; a key the observation leaves
 * None stays NULL). 0 on success, -1 on a decline (no exception) or an error:
 * the caller drops what was set. */
static int fill(PyObject **v, PyObject **f, PyObject *seat, long me, int ph,
                Py_ssize_t n) {
    PyObject *x, *hands = f[F_hands], *elim = f[F_elim], *tracks = f[F_tracks],
                 *hp = f[F_hp], *deck = f[F_deck], *fight = f[F_fight],
                 *round = f[F_round];
    if (!hands || !elim || !tracks || !hp || !deck || !fight || !round ||
        !PyList_CheckExact(elim) || !PyList_CheckExact(tracks) ||
        PyList_GET_SIZE(tracks) != n || !PyUnicode_CheckExact(deck) ||
        !PyList_CheckExact(hands) || (ph == P_ASSIGN && !PyDict_CheckExact(fight)))
        return -1;
    v[O_round] = ref(round);
    if (!(v[O_actors] = actors(f, ph, n)) || !(v[O_hp] = list_copy(hp))) return -1;
    Py_ssize_t ne = PyList_GET_SIZE(elim);
    PyObject *el = v[O_eliminated] = PyList_New(ne);
    if (!el) return -1;
    for (Py_ssize_t i = 0; i < ne; i++) {
        int r = PyObject_IsTrue(PyList_GET_ITEM(elim, i));
        if (r < 0) return -1;
        PyList_SET_ITEM(el, i, ref(r ? Py_True : Py_False));
    }
    PyObject *tp = v[O_tracks] = PyList_New(n), *tv = v[O_status] = PyList_New(n);
    if (!tp || !tv) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p, *t;
        if (track_views(i, PyList_GET_ITEM(tracks, i), &p, &t) <= 0) return -1;
        PyList_SET_ITEM(tp, i, p);
        PyList_SET_ITEM(tv, i, t);
    }
    if (me >= 0 && (me >= PyList_GET_SIZE(hands) ||
                    !(v[O_hand] = codes(PyList_GET_ITEM(hands, me), 1))))
        return -1;
    if (!(v[O_hand_sizes] = per_pile(hands, 0)) ||
        !(v[O_deck_size] = PyLong_FromSsize_t(PyUnicode_GET_LENGTH(deck))) ||
        !(v[O_discard] = codes(f[F_discard], 0)))
        return -1;
    if (ph == P_DRAFT) {
        PyObject *turn = f[F_turn], *packs = f[F_packs], *picks = f[F_picks];
        if (!turn || !packs || !picks) return -1;
        PyObject *dv[5] = {ref(turn), per_pile(packs, 0), NULL, ref(Py_None),
                           ref(Py_None)};
        dv[2] = dv[1] ? per_pile(picks, 1) : NULL;
        if (dv[2] && me >= 0) { /* per_pile checked both lists of strings */
            if (me >= PyList_GET_SIZE(packs) || me >= PyList_GET_SIZE(picks)) {
                Py_CLEAR(dv[2]);
            } else {
                Py_SETREF(dv[3], codes(PyList_GET_ITEM(packs, me), 1));
                PyObject *pick = PyList_GET_ITEM(picks, me);
                Py_ssize_t len = PyUnicode_GET_LENGTH(pick);
                if (len) {
                    const unsigned char *c;
                    if (len != 1 || pile_chars(pick, &c) != 1) Py_CLEAR(dv[4]);
                    else Py_SETREF(dv[4], ref(CODE[c[0]]));
                }
            }
        }
        if (!(v[O_draft] = build(DRAFT_TEMPLATE, DRAFT_KEYS, dv, 5))) return -1;
    } else if (ph == P_PLAYING) {
        PyObject *commit = f[F_commit];
        PyObject *cv[2] = {per_pile(commit, 0), ref(Py_None)};
        if (cv[0] && me >= 0) {
            if (me >= PyList_GET_SIZE(commit)) Py_CLEAR(cv[1]);
            else Py_SETREF(cv[1], codes(PyList_GET_ITEM(commit, me), 0));
        }
        if (!(v[O_commits] = build(COMMITS_TEMPLATE, COMMITS_KEYS, cv, 2))) return -1;
    }
    PyObject *plays = f[F_played];
    if (!plays || !PyList_CheckExact(plays) || PyList_GET_SIZE(plays) != n) return -1;
    PyObject *pl = v[O_played] = PyList_New(n);
    if (!pl) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyList_GET_ITEM(plays, i);
        if (!PyUnicode_CheckExact(p)) return -1;
        if (PyUnicode_GET_LENGTH(p)) {
            if (!(x = codes(p, 0))) return -1;
        } else {
            x = ref(Py_None);
        }
        PyList_SET_ITEM(pl, i, x);
    }
    PyObject *dummy = f[F_dummy], *order = f[F_order];
    if (!dummy || !order || !PyUnicode_CheckExact(dummy) || !PyList_CheckExact(order))
        return -1;
    if (PyUnicode_GET_LENGTH(dummy) && !(v[O_dummy] = codes(dummy, 0))) return -1;
    if (!(v[O_order] = list_copy(order))) return -1;
    if (PyList_GET_SIZE(order)) {
        if (!f[F_oi]) return -1;
        v[O_attack_index] = ref(f[F_oi]);
    }
    if (fight != Py_None) {
        if (!PyDict_CheckExact(fight) || !(v[O_fight] = fight_view(fight, seat)))
            return -1;
    }
    return 0;
}

static PyObject *py_observe(PyObject *self, PyObject *args) {
    PyObject *state, *seat;
    if (!PyArg_UnpackTuple(args, "observe", 2, 2, &state, &seat)) return NULL;
    if (PROMPTS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastobserve.init() was not called");
        return NULL;
    }
    if (!PyDict_CheckExact(state)) Py_RETURN_NONE;
    PyObject *f[F_COUNT];
    if (read_fields(state, STATE_KEYS, F_COUNT, f)) return NULL;
    long n, me = -1;
    PyObject *phase = f[F_phase], *code, *prompt;
    if (!as_long(f[F_n], &n) || n < 1 || n > MAXN || !phase ||
        f[F_result] != Py_None || !PyUnicode_CheckExact(phase) ||
        !(code = get(PHASE_CODES, phase)) || !(prompt = get(PROMPTS, phase)))
        goto decline;
    if (seat != Py_None && (!as_long(seat, &me) || me < 0 || me >= n)) goto decline;
    PyObject *v[O_COUNT] = {NULL};
    v[O_game] = ref(S_kungfu2019);
    v[O_rules_version] = ref(RULES_VERSION);
    v[O_seat] = ref(seat);
    v[O_players] = ref(f[F_n]);
    v[O_phase] = ref(phase);
    v[O_prompt] = ref(prompt);
    v[O_rounds] = ref(ROUNDS);
    v[O_result] = ref(Py_None);
    if (fill(v, f, seat, me, (int)PyLong_AsLong(code), n)) {
        for (int i = 0; i < O_COUNT; i++) Py_XDECREF(v[i]);
        goto decline;
    }
    for (int i = 0; i < O_COUNT; i++) /* the keys the observation leaves None */
        if (v[i] == NULL) v[i] = ref(Py_None);
    PyObject *obs = build(OBS_TEMPLATE, OBS_KEYS, v, O_COUNT);
    if (obs) return obs;
decline:
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *rules_version, *prompts, *codes, *stats, *steps, *attack, *defend;
    long rounds;
    if (!PyArg_ParseTuple(args, "UO!O!O!O!UUl:init", &rules_version, &PyDict_Type,
                          &prompts, &PyTuple_Type, &codes, &PyTuple_Type, &stats,
                          &PyTuple_Type, &steps, &attack, &defend, &rounds))
        return NULL;
    if (PyTuple_GET_SIZE(codes) != 128 || PyTuple_GET_SIZE(stats) != NSTAT ||
        PyTuple_GET_SIZE(steps) != NSTAT) {
        PyErr_SetString(PyExc_ValueError, "init: 128 codes, 5 stats and 5 steps");
        return NULL;
    }
    for (int k = 0; k < NSTAT; k++) {
        STEPS[k] = PyLong_AsLong(PyTuple_GET_ITEM(steps, k));
        if (STEPS[k] == -1 && PyErr_Occurred()) return NULL;
    }
    PyObject *rounds_o = PyLong_FromLong(rounds);
    if (!rounds_o) return NULL;
    Py_XSETREF(ROUNDS, rounds_o);
    Py_INCREF(rules_version);
    Py_XSETREF(RULES_VERSION, rules_version);
    Py_INCREF(prompts);
    Py_XSETREF(PROMPTS, prompts);
    Py_INCREF(codes);
    Py_XSETREF(CODES, codes);
    for (int c = 0; c < 128; c++) {
        PyObject *x = PyTuple_GET_ITEM(codes, c);
        CODE[c] = x == Py_None ? NULL : x;
    }
    for (int k = 0; k < NSTAT; k++) {
        PyObject *s = PyTuple_GET_ITEM(stats, k);
        Py_INCREF(s);
        Py_XSETREF(STATS[k], s);
    }
    for (int i = 0; i < MAXN; i++) { /* views of the old stats: built again */
        Py_CLEAR(TRACK_MEMO[i].pos);
        Py_CLEAR(TRACK_MEMO[i].val);
    }
    Py_INCREF(attack);
    Py_XSETREF(ATTACK, attack);
    Py_INCREF(defend);
    Py_XSETREF(DEFEND, defend);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(observe_doc,
"observe(state, seat, /) -> dict | None\n\n"
"observation.py's observation of ``state`` for ``seat`` (None: a spectator), or\n"
"None when this declines (anything but a well-formed state in play and a\n"
"valid seat): the engine then builds it in Python.");
PyDoc_STRVAR(init_doc,
"init(rules_version, prompts, codes, stats, steps, attack, defend, rounds, /)\n\n"
"The engine's RULES_VERSION and PROMPTS, the card code of each of the 128\n"
"characters (None: not a card), STAT and each stat's track STEP, the roles'\n"
"names and ROUNDS.");

static PyObject *py_actors(PyObject *self, PyObject *state) {
    long n;
    PyObject *f[F_COUNT], *phase, *code;
    if (!PyDict_CheckExact(state)) Py_RETURN_NONE;
    if (read_fields(state, STATE_KEYS, F_COUNT, f)) return NULL;
    if (!as_long(f[F_n], &n) || !(phase = f[F_phase]) ||
        !PyUnicode_CheckExact(phase) || !(code = get(PHASE_CODES, phase)))
        goto decline;
    int ph = (int)PyLong_AsLong(code);
    if (ph == P_ASSIGN && (!f[F_fight] || !PyDict_CheckExact(f[F_fight])))
        goto decline;
    PyObject *who = actors(f, ph, n);
    if (who) return who;
decline:
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(actors_doc,
"actors(state, /) -> list[int] | None\n\n"
"engine.py's ``actors(state)``, or None when this declines (a malformed\n"
"state): the engine then lists them in Python.");

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"observe", py_observe, METH_VARARGS, observe_doc},
    {"actors", py_actors, METH_O, actors_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastobserve",
    "Kung Fu (2019): a seat's observation built in C (observation.py's observe_py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__fastobserve(void) {
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
    PyObject *draft_keys[] = {S_turn, S_pack_sizes, S_picked, S_pack, S_pick};
    PyObject *commits_keys[] = {S_counts, S_mine};
    PyObject *fight_keys[] = {S_attacker, S_fighters, S_dice, S_done, S_mine};
    PyObject *mine_keys[] = {S_role, S_values, S_sets, S_open, S_budget, S_spent,
                             S_done};
    PyObject *obs_keys[O_COUNT] = {
        S_game, S_rules_version, S_seat, S_players, S_phase, S_prompt, S_round,
        S_rounds, S_actors, S_hp, S_eliminated, S_tracks, S_status, S_hand,
        S_hand_sizes, S_deck_size, S_discard, S_draft, S_commits, S_played,
        S_dummy, S_order, S_attack_index, S_fight, S_result};
    memcpy(DRAFT_KEYS, draft_keys, sizeof draft_keys);
    memcpy(COMMITS_KEYS, commits_keys, sizeof commits_keys);
    memcpy(FIGHT_KEYS, fight_keys, sizeof fight_keys);
    memcpy(MINE_KEYS, mine_keys, sizeof mine_keys);
    memcpy(OBS_KEYS, obs_keys, sizeof obs_keys);
    if (state_keys_init() || !(OBS_TEMPLATE = template(OBS_KEYS, O_COUNT)) ||
        !(DRAFT_TEMPLATE = template(draft_keys, 5)) ||
        !(COMMITS_TEMPLATE = template(commits_keys, 2)) ||
        !(FIGHT_TEMPLATE = template(fight_keys, 5)) ||
        !(MINE_TEMPLATE = template(mine_keys, 7)))
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObject(m, "PHASES", phases)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
