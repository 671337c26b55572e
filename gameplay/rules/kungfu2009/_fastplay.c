/* Kung Fu (2009): observe() in C (optional CPython extension).
 *
 * Why: a seat's observation is asked at every decision (a bot is handed it,
 * the live server sends every seat its view after every step), and built in
 * Python it was about a third of a step of the public API (issue 33 §2:
 * about 25,000 of 72,000 instructions, callgrind; in CPU time 3.0 of 8.4 µs).
 * Here the same dict is built field by field from the same allow-list as
 * observation.py's ``observe_py`` (the engine's ``_observe_py``), whose
 * docstring and comments are the reference: what a seat may see, in which
 * order, and why. The shared read-only views (face-up combinations, pile
 * sizes, the discard's styles) are observation.py's own, looked up in its
 * PileViews; every list and dict the
 * observation owns is built here from the state it is given.
 *
 * ``observe(state, seat)`` returns the observation, or None when it declines:
 * for anything but a well-formed state in play or paused (a malformed or
 * finished state, an invalid seat, an unexpected type anywhere) the engine
 * builds it in Python instead, which raises the documented errors. Equal
 * results for every seat at every step of seeded games:
 * tests/rules/test_kungfu2009_native.py and bench/engine_digest.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../observe.h" /* get, as_long, template, build, read_fields, ref */

#define MAXN 8 /* seats at most (engine.py's max_players) */

/* Interned strings: the keys read and written. */
#define STRINGS(X)                                                             \
    X(n) X(cfg) X(impasse_limit) X(severe) X(hands) X(fresh) X(drafts)        \
    X(phase) X(out) X(owe) X(up) X(easy) X(normal) X(difficult) X(piles)      \
    X(box) X(deck) X(disc) X(won) X(offers) X(votes) X(impasses) X(claims)    \
    X(result) X(game) X(rules_version) X(seat) X(players) X(actors) X(hand)   \
    X(unseen) X(draft) X(hand_sizes) X(in_play) X(owes_forfeit) X(face_up)    \
    X(removed) X(discard) X(points) X(id) X(from) X(to) X(declared) X(want)   \
    X(open) X(declined) X(cards) X(say) X(give) X(play) X(kungfu2009)    \
    X(rng) X(closed) X(next_offer)
#define DECLARE(name) static PyObject *S_##name;
STRINGS(DECLARE)
#undef DECLARE

static PyObject *RULES_VERSION; /* from init(): constants.py's RULES_VERSION */
static PyObject *POINTS;        /* from init(): combination code -> points */
static PyObject *FACE_UP;       /* from init(): observation.py's _FACE_UP views */
static PyObject *PILE_SIZES;    /* from init(): observation.py's _PILE_SIZES */
static PyObject *DISCARD_VIEW;  /* from init(): observation.py's _DISCARD_VIEW */

/* The observation's template: every key in observation.py's order, each value
 * None. A copy keeps the template's compact table of str keys, and setting a
 * key it holds replaces a value in place (../observe.h), or build() there
 * writes it. */
static PyObject *OBS_TEMPLATE, *OFFER_TEMPLATE;

static inline int is_bool(PyObject *o) { return o == Py_True || o == Py_False; }

/* A list of n exact bools (observation.py's views are kept per equal flags, and
 * 1 == True: only bools give one answer either way). */
static int bools(PyObject *l, long n) {
    if (!l || !PyList_CheckExact(l) || PyList_GET_SIZE(l) != n) return 0;
    for (long i = 0; i < n; i++)
        if (!is_bool(PyList_GET_ITEM(l, i))) return 0;
    return 1;
}

/* The last view looked up in one of observation.py's PileViews, kept with
 * the key parts it was looked up with: the same parts (compared by value,
 * never by object identity alone, so a state edited in place shows its edit)
 * give the same view without building a key. */
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

/* offers.py's _offer_public and observation.py's _obs_base: the keys in their
 * order. */
enum { OF_id, OF_from, OF_to, OF_declared, OF_want, OF_open, OF_declined,
       OF_cards, OF_COUNT };
static PyObject *OFFER_KEYS[OF_COUNT];
enum { O_game, O_rules_version, O_seat, O_players, O_phase, O_actors, O_hand,
       O_unseen, O_draft, O_hand_sizes, O_in_play, O_owes_forfeit, O_face_up,
       O_piles, O_removed, O_deck, O_discard, O_won, O_points, O_offers,
       O_votes, O_impasses, O_impasse_limit, O_severe, O_claims, O_result,
       O_COUNT };
static PyObject *OBS_KEYS[O_COUNT];

/* offers.py's ``_offer_public(o, viewer)``, or NULL without an exception
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
    PyObject *v[OF_COUNT] = {
        ref(id), ref(from), ref(t < 0 ? Py_None : to), ref(say), ref(want),
        ref(open), PyList_GetSlice(declined, 0, PyList_GET_SIZE(declined)),
        ref(shown ? give : Py_None)};
    return build(OFFER_TEMPLATE, OFFER_KEYS, v, OF_COUNT);
}

static inline PyObject *copy_list(PyObject *l) {
    return PyList_GetSlice(l, 0, PyList_GET_SIZE(l));
}

/* The state's fields, in the order engine.py's ``setup`` makes them (every
 * later state is a copy that replaces values, so it keeps that order). */
enum { F_game, F_rules_version, F_cfg, F_rng, F_n, F_hands, F_fresh, F_out,
       F_owe, F_won, F_deck, F_disc, F_piles, F_up, F_box, F_offers, F_closed,
       F_drafts, F_next_offer, F_votes, F_impasses, F_claims, F_phase,
       F_result, F_COUNT };
static PyObject *STATE_KEYS[F_COUNT];
static PyObject *LEVEL_KEYS[3]; /* cards.py's LEVEL_ORDER */

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
    PyObject *f[F_COUNT];
    if (read_fields(state, STATE_KEYS, F_COUNT, f)) return NULL;
    long n, s = -1, unseen = 0;
    PyObject *n_o = f[F_n];
    if (!as_long(n_o, &n) || n < 1 || n > MAXN) DECLINE();
    int has_seat = seat != Py_None;
    if (has_seat && (!as_long(seat, &s) || s < 0 || s >= n)) DECLINE();
    if (f[F_result] != Py_None) DECLINE(); /* a finished game: Python's result() */
    PyObject *cfg = f[F_cfg];
    if (!cfg || !PyDict_CheckExact(cfg)) DECLINE();
    PyObject *limit = get(cfg, S_impasse_limit), *severe = get(cfg, S_severe);
    long unused;
    /* observation.py's template is kept per (seat, n, limit, severe): only values
     * of one type give one answer there either way. */
    if (!as_long(limit, &unused) || !is_bool(severe)) DECLINE();
    PyObject *hands = f[F_hands], *fresh = f[F_fresh], *drafts = f[F_drafts],
             *phase = f[F_phase], *up = f[F_up], *piles = f[F_piles],
             *box = f[F_box], *deck = f[F_deck], *disc = f[F_disc],
             *won = f[F_won], *offers = f[F_offers], *votes = f[F_votes],
             *impasses = f[F_impasses], *claims = f[F_claims], *out = f[F_out],
             *owe = f[F_owe];
    if (!hands || !PyList_CheckExact(hands) || PyList_GET_SIZE(hands) != n ||
        !fresh || !PyList_CheckExact(fresh) || PyList_GET_SIZE(fresh) != n ||
        !drafts || !PyList_CheckExact(drafts) || PyList_GET_SIZE(drafts) != n ||
        !phase || !PyUnicode_CheckExact(phase) || !bools(out, n) ||
        !bools(owe, n) || !up || !PyDict_CheckExact(up) || !piles ||
        !PyDict_CheckExact(piles) || !box || !PyList_CheckExact(box) || !deck ||
        !PyUnicode_CheckExact(deck) || !disc || !PyUnicode_CheckExact(disc) ||
        !won || !PyList_CheckExact(won) || PyList_GET_SIZE(won) != n ||
        !offers || !PyList_CheckExact(offers) || !votes ||
        !PyList_CheckExact(votes) || !impasses || !claims ||
        !PyList_CheckExact(claims))
        DECLINE();
    for (long i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(hands, i))) DECLINE();
    PyObject *hand = NULL, *draft = Py_None;
    if (has_seat) {
        hand = PyList_GET_ITEM(hands, s);
        if (!as_long(PyList_GET_ITEM(fresh, s), &unseen) || unseen < 0 ||
            unseen > PyUnicode_GET_LENGTH(hand))
            DECLINE();
        draft = PyList_GET_ITEM(drafts, s);
        if (draft != Py_None && !PyDict_CheckExact(draft)) DECLINE();
    }
    PyObject *ups[3], *pile_lists[3];
    if (read_fields(up, LEVEL_KEYS, 3, ups) || read_fields(piles, LEVEL_KEYS, 3, pile_lists))
        return NULL;
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

    /* -- build the values, in the observation's key order (new references;
     * a NULL is an error, and build() then drops the others) */
    PyObject *v[O_COUNT], *x;
    v[O_game] = ref(S_kungfu2009);
    v[O_rules_version] = ref(RULES_VERSION);
    v[O_seat] = ref(seat);
    v[O_players] = ref(n_o);
    v[O_phase] = ref(phase);
    /* actors and in_play (observation.py's _SEAT_FACTS, or every seat) */
    PyObject *actors = PyList_New(n), *in_play = PyList_New(n);
    Py_ssize_t acting = 0;
    if (actors && in_play) {
        for (long i = 0; i < n; i++) {
            PyObject *o = PyList_GET_ITEM(out, i);
            PyList_SET_ITEM(in_play, i, ref(o == Py_True ? Py_False : Py_True));
            if (playing && (o == Py_False || PyList_GET_ITEM(owe, i) == Py_True))
                PyList_SET_ITEM(actors, acting++, PyLong_FromLong(i)); /* small */
        }
        Py_SET_SIZE(actors, acting); /* the slots past it were never set */
    }
    v[O_actors] = actors;
    v[O_in_play] = in_play;
    if (has_seat) {
        v[O_hand] = unseen ? PyUnicode_Substring(hand, 0, PyUnicode_GET_LENGTH(hand) - unseen)
                           : ref(hand);
        v[O_unseen] = ref(PyList_GET_ITEM(fresh, s)); /* 0 when nothing is unseen */
        v[O_draft] = draft == Py_None ? ref(draft) : PyDict_Copy(draft);
    } else {
        v[O_hand] = ref(Py_None);
        v[O_unseen] = PyLong_FromLong(0);
        v[O_draft] = ref(Py_None);
    }
    v[O_owes_forfeit] = copy_list(owe);
    x = v[O_hand_sizes] = PyList_New(n);
    for (long i = 0; x && i < n; i++) {
        PyObject *size = PyLong_FromSsize_t(PyUnicode_GET_LENGTH(PyList_GET_ITEM(hands, i)));
        PyList_SET_ITEM(x, i, size);
        if (!size) Py_CLEAR(v[O_hand_sizes]);
    }
    v[O_face_up] = view_of(&FACE_MEMO, FACE_UP, ups, 3);
    PyObject *sizes[3];
    for (int k = 0; k < 3; k++) /* small ints: these cannot fail */
        sizes[k] = PyLong_FromSsize_t(PyList_GET_SIZE(pile_lists[k]));
    v[O_piles] = view_of(&PILES_MEMO, PILE_SIZES, sizes, 3);
    for (int k = 0; k < 3; k++) Py_DECREF(sizes[k]);
    v[O_removed] = PyLong_FromSsize_t(PyList_GET_SIZE(box));
    v[O_deck] = PyLong_FromSsize_t(PyUnicode_GET_LENGTH(deck));
    v[O_discard] = view_of(&DISCARD_MEMO, DISCARD_VIEW, &disc, 1);
    /* won and points: every seat's own lists */
    PyObject *won_l = v[O_won] = PyList_New(n), *points_l = v[O_points] = PyList_New(n);
    for (long i = 0; won_l && points_l && i < n; i++) {
        PyList_SET_ITEM(won_l, i,
                        any_won ? copy_list(PyList_GET_ITEM(won, i)) : PyList_New(0));
        PyList_SET_ITEM(points_l, i, PyLong_FromLong(points[i]));
        if (!PyList_GET_ITEM(won_l, i) || !PyList_GET_ITEM(points_l, i)) {
            Py_CLEAR(v[O_won]);
            break;
        }
    }
    int declined = 0;
    x = v[O_offers] = PyList_New(n_offers);
    for (Py_ssize_t j = 0; x && j < n_offers; j++) {
        PyObject *view = offer_public(PyList_GET_ITEM(offers, j), has_seat, s);
        PyList_SET_ITEM(x, j, view);
        if (!view) {
            declined = !PyErr_Occurred(); /* not an offer the engine makes */
            Py_CLEAR(v[O_offers]);
            break;
        }
    }
    v[O_votes] = copy_list(votes);
    v[O_impasses] = ref(impasses);
    v[O_impasse_limit] = ref(limit);
    v[O_severe] = ref(severe);
    x = v[O_claims] = PyList_New(n_claims);
    for (Py_ssize_t j = 0; x && j < n_claims; j++) {
        PyObject *c = PyDict_Copy(PyList_GET_ITEM(claims, j));
        PyList_SET_ITEM(x, j, c);
        if (!c) Py_CLEAR(v[O_claims]);
    }
    v[O_result] = ref(Py_None);
    PyObject *obs = build(OBS_TEMPLATE, OBS_KEYS, v, O_COUNT);
    if (declined) { /* Python's to build */
        PyErr_Clear();
        Py_XDECREF(obs);
        Py_RETURN_NONE;
    }
    return obs;
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

PyMODINIT_FUNC PyInit__fastplay(void) {
#define INTERN(name) \
    if (!(S_##name = PyUnicode_InternFromString(#name))) return NULL;
    STRINGS(INTERN)
#undef INTERN
    PyObject *obs_keys[O_COUNT] = {
        S_game, S_rules_version, S_seat, S_players, S_phase, S_actors, S_hand,
        S_unseen, S_draft, S_hand_sizes, S_in_play, S_owes_forfeit, S_face_up,
        S_piles, S_removed, S_deck, S_discard, S_won, S_points, S_offers,
        S_votes, S_impasses, S_impasse_limit, S_severe, S_claims, S_result};
    PyObject *offer_keys[OF_COUNT] = {S_id, S_from, S_to, S_declared, S_want,
                                      S_open, S_declined, S_cards};
    PyObject *state_keys[F_COUNT] = {
        S_game, S_rules_version, S_cfg, S_rng, S_n, S_hands, S_fresh, S_out,
        S_owe, S_won, S_deck, S_disc, S_piles, S_up, S_box, S_offers, S_closed,
        S_drafts, S_next_offer, S_votes, S_impasses, S_claims, S_phase, S_result};
    memcpy(OBS_KEYS, obs_keys, sizeof obs_keys);
    memcpy(OFFER_KEYS, offer_keys, sizeof offer_keys);
    memcpy(STATE_KEYS, state_keys, sizeof state_keys);
    LEVEL_KEYS[0] = S_easy;
    LEVEL_KEYS[1] = S_normal;
    LEVEL_KEYS[2] = S_difficult;
    if (!(OBS_TEMPLATE = template(OBS_KEYS, O_COUNT)) ||
        !(OFFER_TEMPLATE = template(OFFER_KEYS, OF_COUNT)))
        return NULL;
    return PyModule_Create(&module);
}
