/* Kung Fu (2009): observe() in C (optional CPython extension).
 *
 * Why: a seat's observation is asked at every decision (a bot is handed it,
 * the live server sends every seat its view after every step), and built in
 * Python it was about a third of a step of the public API (issue 33 §2:
 * about 25,000 of 72,000 instructions, callgrind; in CPU time 3.0 of 8.4 µs).
 * Here the same dict is built field by field from the same allow-list as
 * engine.py's ``_observe_py``, whose docstring and comments are the
 * reference: what a seat may see, in which order, and why. The shared
 * read-only views (face-up combinations, pile sizes, the discard's styles)
 * are engine.py's own, looked up in its PileViews; every list and dict the
 * observation owns is built here from the state it is given.
 *
 * ``observe(state, seat)`` returns the observation, or None when it declines:
 * for anything but a well-formed state in play or paused (a malformed or
 * finished state, an invalid seat, an unexpected type anywhere) engine.py
 * builds it in Python instead, which raises the documented errors. Equal
 * results for every seat at every step of seeded games:
 * tests/rules/test_kungfu2009_native.py and bench/engine_digest.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAXN 8 /* seats at most (engine.py's max_players) */

/* Interned strings: the keys read and written. */
#define STRINGS(X)                                                             \
    X(n) X(cfg) X(impasse_limit) X(severe) X(hands) X(fresh) X(drafts)        \
    X(phase) X(out) X(owe) X(up) X(easy) X(normal) X(difficult) X(piles)      \
    X(box) X(deck) X(disc) X(won) X(offers) X(votes) X(impasses) X(claims)    \
    X(result) X(game) X(rules_version) X(seat) X(players) X(actors) X(hand)   \
    X(unseen) X(draft) X(hand_sizes) X(in_play) X(owes_forfeit) X(face_up)    \
    X(removed) X(discard) X(points) X(id) X(from) X(to) X(declared) X(want)   \
    X(open) X(declined) X(cards) X(say) X(give) X(play) X(kungfu2009)
#define DECLARE(name) static PyObject *S_##name;
STRINGS(DECLARE)
#undef DECLARE

static PyObject *RULES_VERSION; /* from init(): engine.py's RULES_VERSION */
static PyObject *POINTS;        /* from init(): combination code -> points */
static PyObject *FACE_UP;       /* from init(): engine.py's _FACE_UP views */
static PyObject *PILE_SIZES;    /* from init(): engine.py's _PILE_SIZES views */
static PyObject *DISCARD_VIEW;  /* from init(): engine.py's _DISCARD_VIEW */

/* The observation's template: every key in engine.py's order, each value
 * None. A copy keeps the template's compact table of str keys, and setting a
 * key it holds replaces a value in place (see duelo/_fastplay.c). */
static PyObject *OBS_TEMPLATE, *OFFER_TEMPLATE;

/* A dict's item, borrowed; NULL (no exception set) when missing. */
static inline PyObject *get(PyObject *d, PyObject *key) {
    return PyDict_GetItemWithError(d, key);
}

/* Set d[key] = value and drop the reference to value; -1 on error. */
static inline int put(PyObject *d, PyObject *key, PyObject *value) {
    if (value == NULL) return -1;
    int r = PyDict_SetItem(d, key, value);
    Py_DECREF(value);
    return r;
}
static inline int put_borrowed(PyObject *d, PyObject *key, PyObject *value) {
    return PyDict_SetItem(d, key, value);
}

/* A checked exact int's value (not a bool: its type is not exact int), or
 * the fallback flag. */
static inline int as_long(PyObject *o, long *out) {
    if (o == NULL || !PyLong_CheckExact(o)) return 0;
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

static inline int is_bool(PyObject *o) { return o == Py_True || o == Py_False; }

/* A list of n exact bools, else NULL. */
static PyObject *bool_list(PyObject *state, PyObject *key, long n) {
    PyObject *l = get(state, key);
    if (!l || !PyList_CheckExact(l) || PyList_GET_SIZE(l) != n) return NULL;
    for (long i = 0; i < n; i++)
        if (!is_bool(PyList_GET_ITEM(l, i))) return NULL;
    return l;
}

/* The last view looked up in one of engine.py's PileViews, kept with the key
 * parts it was looked up with: the same parts (compared by value, never by
 * object identity alone, so a state edited in place shows its edit) give the
 * same view without building a key. */
typedef struct {
    PyObject *parts[3]; /* strong references, or NULL */
    PyObject *view;     /* strong reference, or NULL */
} Memo;
static Memo FACE_MEMO, PILES_MEMO, DISCARD_MEMO;

/* Equal key parts: str or None (the face-up codes, the discard) or int. */
static inline int same_part(PyObject *x, PyObject *y) {
    if (x == y) return 1;
    if (x == NULL || y == NULL || Py_TYPE(x) != Py_TYPE(y)) return 0;
    if (PyUnicode_CheckExact(x)) return PyUnicode_Compare(x, y) == 0;
    if (PyLong_CheckExact(x)) return PyObject_RichCompareBool(x, y, Py_EQ) == 1;
    return 0;
}

/* views[key], key the k parts (a tuple when k > 1): a new reference. */
static PyObject *view_of(Memo *m, PyObject *views, PyObject **parts, int k) {
    if (m->view) {
        int same = 1;
        for (int i = 0; same && i < k; i++) same = same_part(m->parts[i], parts[i]);
        if (same) {
            Py_INCREF(m->view);
            return m->view;
        }
    }
    PyObject *key;
    if (k == 1) {
        key = parts[0];
        Py_INCREF(key);
    } else {
        key = PyTuple_New(k);
        if (!key) return NULL;
        for (int i = 0; i < k; i++) {
            Py_INCREF(parts[i]);
            PyTuple_SET_ITEM(key, i, parts[i]);
        }
    }
    PyObject *view = PyObject_GetItem(views, key);
    Py_DECREF(key);
    if (!view) return NULL;
    for (int i = 0; i < k; i++) {
        Py_INCREF(parts[i]);
        Py_XSETREF(m->parts[i], parts[i]);
    }
    Py_INCREF(view);
    Py_XSETREF(m->view, view);
    return view;
}

/* engine.py's ``_offer_public(o, viewer)``, or NULL without an exception
 * when the offer is not what the engine makes (the caller declines). */
static PyObject *offer_public(PyObject *o, int has_seat, long s) {
    if (!PyDict_CheckExact(o)) return NULL;
    PyObject *id = get(o, S_id), *from = get(o, S_from), *to = get(o, S_to),
             *say = get(o, S_say), *want = get(o, S_want), *open = get(o, S_open),
             *declined = get(o, S_declined), *give = get(o, S_give);
    long f, t;
    if (!id || !as_long(from, &f) || !as_long(to, &t) || !say || !want ||
        !is_bool(open) || !declined || !PyList_CheckExact(declined) || !give)
        return NULL;
    int shown = open == Py_True || (has_seat && s == f);
    PyObject *v = PyDict_Copy(OFFER_TEMPLATE);
    if (!v) return NULL;
    if (put_borrowed(v, S_id, id) || put_borrowed(v, S_from, from) ||
        put_borrowed(v, S_to, t < 0 ? Py_None : to) ||
        put_borrowed(v, S_declared, say) || put_borrowed(v, S_want, want) ||
        put_borrowed(v, S_open, open) ||
        put(v, S_declined, PyList_GetSlice(declined, 0, PyList_GET_SIZE(declined))) ||
        put_borrowed(v, S_cards, shown ? give : Py_None)) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

static inline PyObject *copy_list(PyObject *l) {
    return PyList_GetSlice(l, 0, PyList_GET_SIZE(l));
}

#define DECLINE()                         \
    do {                                  \
        if (PyErr_Occurred()) return NULL; \
        Py_RETURN_NONE;                   \
    } while (0)

static PyObject *py_observe(PyObject *self, PyObject *args) {
    PyObject *state, *seat;
    if (!PyArg_UnpackTuple(args, "observe", 2, 2, &state, &seat)) return NULL;
    if (POINTS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastplay.init() was not called");
        return NULL;
    }
    if (!PyDict_CheckExact(state)) Py_RETURN_NONE;

    /* -- read and check everything first: decline before building anything */
    long n, s = -1, unseen = 0;
    PyObject *n_o = get(state, S_n);
    if (!as_long(n_o, &n) || n < 1 || n > MAXN) DECLINE();
    int has_seat = seat != Py_None;
    if (has_seat && (!as_long(seat, &s) || s < 0 || s >= n)) DECLINE();
    PyObject *result = get(state, S_result);
    if (result != Py_None) DECLINE(); /* a finished game: Python's result() */
    PyObject *cfg = get(state, S_cfg);
    if (!cfg || !PyDict_CheckExact(cfg)) DECLINE();
    PyObject *limit = get(cfg, S_impasse_limit), *severe = get(cfg, S_severe);
    long unused;
    /* engine.py's template is kept per (seat, n, limit, severe): only values
     * of one type give one answer there either way. */
    if (!as_long(limit, &unused) || !is_bool(severe)) DECLINE();
    PyObject *hands = get(state, S_hands), *fresh = get(state, S_fresh),
             *drafts = get(state, S_drafts), *phase = get(state, S_phase),
             *up = get(state, S_up), *piles = get(state, S_piles),
             *box = get(state, S_box), *deck = get(state, S_deck),
             *disc = get(state, S_disc), *won = get(state, S_won),
             *offers = get(state, S_offers), *votes = get(state, S_votes),
             *impasses = get(state, S_impasses), *claims = get(state, S_claims);
    PyObject *out = bool_list(state, S_out, n), *owe = bool_list(state, S_owe, n);
    if (!hands || !PyList_CheckExact(hands) || PyList_GET_SIZE(hands) != n ||
        !fresh || !PyList_CheckExact(fresh) || PyList_GET_SIZE(fresh) != n ||
        !drafts || !PyList_CheckExact(drafts) || PyList_GET_SIZE(drafts) != n ||
        !phase || !PyUnicode_CheckExact(phase) || !out || !owe || !up ||
        !PyDict_CheckExact(up) || !piles || !PyDict_CheckExact(piles) || !box ||
        !PyList_CheckExact(box) || !deck || !PyUnicode_CheckExact(deck) ||
        !disc || !PyUnicode_CheckExact(disc) || !won || !PyList_CheckExact(won) ||
        PyList_GET_SIZE(won) != n || !offers || !PyList_CheckExact(offers) ||
        !votes || !PyList_CheckExact(votes) || !impasses || !claims ||
        !PyList_CheckExact(claims))
        DECLINE();
    for (long i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(hands, i))) DECLINE();
    PyObject *hand = NULL, *draft = NULL;
    if (has_seat) {
        hand = PyList_GET_ITEM(hands, s);
        if (!as_long(PyList_GET_ITEM(fresh, s), &unseen) || unseen < 0 ||
            unseen > PyUnicode_GET_LENGTH(hand))
            DECLINE();
        draft = PyList_GET_ITEM(drafts, s);
        if (draft != Py_None && !PyDict_CheckExact(draft)) DECLINE();
    }
    PyObject *ups[3] = {get(up, S_easy), get(up, S_normal), get(up, S_difficult)};
    PyObject *pile_lists[3] = {get(piles, S_easy), get(piles, S_normal),
                               get(piles, S_difficult)};
    for (int k = 0; k < 3; k++)
        if (!ups[k] || (ups[k] != Py_None && !PyUnicode_CheckExact(ups[k])) ||
            !pile_lists[k] || !PyList_CheckExact(pile_lists[k]))
            DECLINE();
    int any_won = 0;
    long points[MAXN];
    for (long i = 0; i < n; i++) {
        PyObject *w = PyList_GET_ITEM(won, i);
        if (!PyList_CheckExact(w)) DECLINE();
        points[i] = 0;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(w); j++) {
            long p;
            PyObject *code = PyList_GET_ITEM(w, j);
            /* only str codes: the lookup then runs no Python code */
            if (!PyUnicode_CheckExact(code) || !as_long(get(POINTS, code), &p))
                DECLINE();
            points[i] += p;
            any_won = 1;
        }
    }
    Py_ssize_t n_offers = PyList_GET_SIZE(offers), n_claims = PyList_GET_SIZE(claims);
    for (Py_ssize_t j = 0; j < n_claims; j++)
        if (!PyDict_CheckExact(PyList_GET_ITEM(claims, j))) DECLINE();
    int cmp = PyUnicode_Compare(phase, S_play);
    if (cmp == -1 && PyErr_Occurred()) return NULL;
    int playing = cmp == 0;

    /* -- build */
    PyObject *obs = PyDict_Copy(OBS_TEMPLATE), *x;
    if (!obs) return NULL;
    if (put_borrowed(obs, S_game, S_kungfu2009) ||
        put_borrowed(obs, S_rules_version, RULES_VERSION) ||
        put_borrowed(obs, S_seat, seat) || put_borrowed(obs, S_players, n_o))
        goto fail;
    if (has_seat) {
        if (unseen) {
            x = PyUnicode_Substring(hand, 0, PyUnicode_GET_LENGTH(hand) - unseen);
            if (put(obs, S_hand, x) ||
                put_borrowed(obs, S_unseen, PyList_GET_ITEM(fresh, s)))
                goto fail;
        } else if (put_borrowed(obs, S_hand, hand)) {
            goto fail;
        }
        if (draft != Py_None && put(obs, S_draft, PyDict_Copy(draft))) goto fail;
    }
    if (put_borrowed(obs, S_phase, phase)) goto fail;
    /* actors and in_play (engine.py's _SEAT_FACTS, or every seat) */
    PyObject *actors = PyList_New(0), *in_play = PyList_New(n);
    if (put(obs, S_actors, actors)) {
        Py_XDECREF(in_play);
        goto fail;
    }
    if (put(obs, S_in_play, in_play)) goto fail;
    for (long i = 0; i < n; i++) {
        PyObject *o = PyList_GET_ITEM(out, i);
        PyObject *flag = o == Py_True ? Py_False : Py_True;
        Py_INCREF(flag);
        PyList_SET_ITEM(in_play, i, flag);
        if (playing && (o == Py_False || PyList_GET_ITEM(owe, i) == Py_True)) {
            PyObject *t = PyLong_FromLong(i);
            if (!t || PyList_Append(actors, t)) {
                Py_XDECREF(t);
                goto fail;
            }
            Py_DECREF(t);
        }
    }
    if (put(obs, S_owes_forfeit, copy_list(owe))) goto fail;
    x = PyList_New(n);
    if (put(obs, S_hand_sizes, x)) goto fail;
    for (long i = 0; i < n; i++) {
        PyObject *size = PyLong_FromSsize_t(PyUnicode_GET_LENGTH(PyList_GET_ITEM(hands, i)));
        if (!size) goto fail;
        PyList_SET_ITEM(x, i, size);
    }
    if (put(obs, S_face_up, view_of(&FACE_MEMO, FACE_UP, ups, 3))) goto fail;
    PyObject *sizes[3] = {NULL, NULL, NULL};
    int bad = 0;
    for (int k = 0; k < 3; k++)
        if (!(sizes[k] = PyLong_FromSsize_t(PyList_GET_SIZE(pile_lists[k])))) bad = 1;
    x = bad ? NULL : view_of(&PILES_MEMO, PILE_SIZES, sizes, 3);
    for (int k = 0; k < 3; k++) Py_XDECREF(sizes[k]);
    if (put(obs, S_piles, x) ||
        put(obs, S_removed, PyLong_FromSsize_t(PyList_GET_SIZE(box))) ||
        put(obs, S_deck, PyLong_FromSsize_t(PyUnicode_GET_LENGTH(deck))) ||
        put(obs, S_discard, view_of(&DISCARD_MEMO, DISCARD_VIEW, &disc, 1)))
        goto fail;
    /* won and points: every seat's own lists */
    PyObject *won_l = PyList_New(n), *points_l = PyList_New(n);
    if (put(obs, S_won, won_l)) {
        Py_XDECREF(points_l);
        goto fail;
    }
    if (put(obs, S_points, points_l)) goto fail;
    for (long i = 0; i < n; i++) {
        PyObject *w = any_won ? copy_list(PyList_GET_ITEM(won, i)) : PyList_New(0);
        PyObject *p = PyLong_FromLong(points[i]);
        if (!w || !p) {
            Py_XDECREF(w);
            Py_XDECREF(p);
            goto fail;
        }
        PyList_SET_ITEM(won_l, i, w);
        PyList_SET_ITEM(points_l, i, p);
    }
    x = PyList_New(n_offers);
    if (put(obs, S_offers, x)) goto fail;
    for (Py_ssize_t j = 0; j < n_offers; j++) {
        PyObject *v = offer_public(PyList_GET_ITEM(offers, j), has_seat, s);
        if (!v) {
            if (PyErr_Occurred()) goto fail;
            Py_DECREF(obs); /* not an offer the engine makes: Python's */
            Py_RETURN_NONE;
        }
        PyList_SET_ITEM(x, j, v);
    }
    if (put(obs, S_votes, copy_list(votes)) ||
        put_borrowed(obs, S_impasses, impasses) ||
        put_borrowed(obs, S_impasse_limit, limit) ||
        put_borrowed(obs, S_severe, severe))
        goto fail;
    x = PyList_New(n_claims);
    if (put(obs, S_claims, x)) goto fail;
    for (Py_ssize_t j = 0; j < n_claims; j++) {
        PyObject *c = PyDict_Copy(PyList_GET_ITEM(claims, j));
        if (!c) goto fail;
        PyList_SET_ITEM(x, j, c);
    }
    return obs; /* result: the template's None */

fail:
    Py_DECREF(obs);
    return NULL;
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *rules_version, *points, *face_up, *pile_sizes, *discard_view;
    if (!PyArg_ParseTuple(args, "UO!O!O!O!:init", &rules_version, &PyDict_Type,
                          &points, &PyDict_Type, &face_up, &PyDict_Type,
                          &pile_sizes, &PyDict_Type, &discard_view))
        return NULL;
    Py_INCREF(rules_version);
    Py_XSETREF(RULES_VERSION, rules_version);
    Py_INCREF(points);
    Py_XSETREF(POINTS, points);
    Py_INCREF(face_up);
    Py_XSETREF(FACE_UP, face_up);
    Py_INCREF(pile_sizes);
    Py_XSETREF(PILE_SIZES, pile_sizes);
    Py_INCREF(discard_view);
    Py_XSETREF(DISCARD_VIEW, discard_view);
    Memo *memos[3] = {&FACE_MEMO, &PILES_MEMO, &DISCARD_MEMO};
    for (int k = 0; k < 3; k++) { /* views from other dicts: forget them */
        Py_CLEAR(memos[k]->view);
        for (int i = 0; i < 3; i++) Py_CLEAR(memos[k]->parts[i]);
    }
    Py_RETURN_NONE;
}

PyDoc_STRVAR(observe_doc,
"observe(state, seat, /) -> dict | None\n\n"
"engine.py's observation of ``state`` for ``seat`` (None: a spectator), or\n"
"None when this declines (anything but a well-formed unfinished state and a\n"
"valid seat): the engine then builds it in Python.");
PyDoc_STRVAR(init_doc,
"init(rules_version, points, face_up, pile_sizes, discard_view, /)\n\n"
"The engine's RULES_VERSION, POINTS and its shared views: the face-up\n"
"combinations per three codes, the pile sizes per three sizes, the\n"
"discard's styles per discard pile (dicts that build a missing view).");

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"observe", py_observe, METH_VARARGS, observe_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastplay",
    "Kung Fu (2009): a seat's observation built in C (engine.py's observe).", -1,
    methods,
};

/* A dict of ``keys`` in order, each value None (inserted one by one into an
 * empty dict, which keeps CPython's compact table of str keys). */
static PyObject *template(PyObject **keys, int n) {
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < n; i++)
        if (PyDict_SetItem(d, keys[i], Py_None)) Py_CLEAR(d);
    return d;
}

PyMODINIT_FUNC PyInit__fastplay(void) {
#define INTERN(name) \
    if (!(S_##name = PyUnicode_InternFromString(#name))) return NULL;
    STRINGS(INTERN)
#undef INTERN
    /* engine.py's _obs_base and _offer_public, keys in their order */
    PyObject *obs_keys[] = {
        S_game, S_rules_version, S_seat, S_players, S_phase, S_actors, S_hand,
        S_unseen, S_draft, S_hand_sizes, S_in_play, S_owes_forfeit, S_face_up,
        S_piles, S_removed, S_deck, S_discard, S_won, S_points, S_offers,
        S_votes, S_impasses, S_impasse_limit, S_severe, S_claims, S_result};
    PyObject *offer_keys[] = {S_id, S_from, S_to, S_declared, S_want, S_open,
                              S_declined, S_cards};
    if (!(OBS_TEMPLATE = template(obs_keys, 26)) ||
        !(OFFER_TEMPLATE = template(offer_keys, 8)))
        return NULL;
    PyObject *zero = PyLong_FromLong(0);
    if (!zero || PyDict_SetItem(OBS_TEMPLATE, S_unseen, zero)) return NULL;
    Py_DECREF(zero);
    return PyModule_Create(&module);
}
