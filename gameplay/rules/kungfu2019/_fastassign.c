/* Kung Fu (2019): the public API's steps and menus in C (optional CPython
 * extension, a sibling of the kernel _fastplay.c).
 *
 * Why: about two thirds of a random game's steps are dice steps, and the
 * Python menu (assignment.py's ``_assign_ids``) and the steps' ``apply``
 * (``_assign_legal`` then ``_h_assign``) were each mostly the interpreter's
 * own cost: 13,000-34,000 instructions a call, a fight's end 150,000 (issue
 * 33 §2, callgrind). The same rules here, read from the same state;
 * the Python functions (assignment.py, handlers.py, rounds.py) stay the
 * reference.
 *
 * ``step(state, seat, action_id)``: ``apply``'s ``(state, events)`` for a
 * legal draft, play or dice step (commit.h for the first two; the dice steps
 * in dice.h and assign_step here, a fight's end in fight.h), or None for
 * anything else or anything declined (an illegal step, a malformed state,
 * the rare cases the headers name): the engine then does it in Python,
 * errors included. ``ids(state,
 * seat)``: ``legal_action_ids``, or None. ``assign_ids``, ``assign_step``
 * and ``resolve``: the dice menu, a dice step and a fight's end alone (the
 * tests compare them with Python's). Equal results for every seat at every
 * step of seeded games: tests/rules/test_kungfu2019_assign.py, _fight.py,
 * _commit.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../observe.h" /* get, put */

#define DICE 7   /* alphabet.py's DICE */
#define PLAY 3   /* alphabet.py's PLAY: cards (set slots) per fighter */
#define MAXK 4   /* combinations a card has at most (SET_ID covers k < 4) */

enum { K_CROSS = 0, K_FACES, K_KIND, K_STRAIGHT, K_SUM_OVER, K_SUM_UNDER };
enum { A_AUTO = 0, A_DONE, A_BEST, A_RESET, A_CANCEL, A_SET, A_DROP, A_DIE, A_UP,
       A_DOWN };

/* Per card character and combination: alphabet.py's COMBOS (kind, n, faces as
 * a bit mask, total) and SETTABLE's gain per role (-1: not settable). */
typedef struct {
    int kind, n, faces, total;
    int gain[2];
} Combo;
static Combo COMBO[128][MAXK];
static int NCOMBO[128]; /* -1: not a card */

static PyObject *S_fight, *S_asg, *S_dice, *S_a, *S_played, *S_v, *S_sets,
    *S_open, *S_bud, *S_gain, *S_spent, *S_done, *S_phase, *S_rules_version,
    *S_n, *S_type, *S_public, *S_private, *S_seat, *S_step, *S_assign;
static PyObject *RULES_VERSION, *ASSIGN; /* from init() */
static PyObject *ID_AUTO, *ID_DONE, *ID_BEST, *ID_RESET, *ID_CANCEL;
static PyObject *DROP_ID[DICE], *DIE_ID[DICE], *UP_ID[DICE], *DOWN_ID[DICE];
static PyObject *SET_ID[PLAY][MAXK];
static PyObject *SEAT_KEY[8];
static PyObject *STEP_CODE; /* action id -> kind << 8 | i << 4 | k */

#include "dice.h" /* the record read, its menu and steps */

/* Return None (Python does it), or NULL when a check on the way raised: a
 * None returned with an exception set would be a SystemError. */
#define DECLINE()                         \
    do {                                  \
        if (PyErr_Occurred()) return NULL; \
        Py_RETURN_NONE;                   \
    } while (0)

static int check_seat(PyObject *state, PyObject *seat, long *me) {
    long n;
    return PyDict_CheckExact(state) && small(get(state, S_n), &n) &&
           small(seat, me) && *me >= 0 && *me < n && *me < 8;
}

static PyObject *py_assign_ids(PyObject *self, PyObject *args) {
    PyObject *state, *seat;
    if (!PyArg_UnpackTuple(args, "assign_ids", 2, 2, &state, &seat)) return NULL;
    long me;
    Asg a;
    if (!RULES_VERSION || !check_seat(state, seat, &me)) DECLINE();
    int r = read_asg(state, me, &a);
    if (r == 2) return PyList_New(0);
    if (r != 1) DECLINE();
    return menu(&a);
}

/* Templates (observe.h's ``build()``): an event, an assign event's public
 * part, a step's private part, and per seat the private part's outer dict. */
static PyObject *EV_T, *PUB_T, *STEP_T, *STEP_SETS_T, *PRIV_T[8];
static PyObject *EV_KEYS[3], *PUB_KEYS[2], *STEP_SETS_KEYS[2];

/* {"type": "assign", "public": {"seat": seat, "done": done}, "private":
 * {SEAT_KEY[me]: {"step": aid}}}, and "sets" after "step" when ``sets`` (a
 * new reference, stolen) is not NULL: dicts copied from templates, their values
 * written in place (Py_BuildValue parsed its format at every step: about
 * 4,600 instructions of an 11,500 step). */
static PyObject *assign_event(long me, PyObject *seat, PyObject *done,
                              PyObject *aid, PyObject *sets) {
    PyObject *pv[2] = {ref(seat), ref(done)};
    PyObject *sv[2] = {ref(aid), sets};
    PyObject *inner = sets ? build(STEP_SETS_T, STEP_SETS_KEYS, sv, 2)
                           : build(STEP_T, &S_step, sv, 1);
    PyObject *ov[1] = {inner};
    PyObject *ev[3] = {ref(S_assign), build(PUB_T, PUB_KEYS, pv, 2),
                       build(PRIV_T[me], &SEAT_KEY[me], ov, 1)};
    return build(EV_T, EV_KEYS, ev, 3);
}

#include "fight.h" /* resolve(), after the templates and readers above */

static PyObject *assign_step(PyObject *state, PyObject *seat, PyObject *aid) {
    long me;
    Asg a;
    if (!RULES_VERSION || !PyUnicode_CheckExact(aid) || !check_seat(state, seat, &me))
        DECLINE();
    PyObject *rv = get(state, S_rules_version), *ph = get(state, S_phase);
    PyObject *code = get(STEP_CODE, aid);
    long c;
    if (!rv || !ph || !code || !small(code, &c) || !PyUnicode_CheckExact(rv) ||
        !PyUnicode_CheckExact(ph) || PyUnicode_Compare(rv, RULES_VERSION) != 0 ||
        PyUnicode_Compare(ph, ASSIGN) != 0)
        DECLINE();
    int kind = (int)(c >> 8), i = (int)(c >> 4 & 15), k = (int)(c & 15);
    if (read_asg(state, me, &a) != 1 || !legal(&a, kind, i, k)) DECLINE();
    PyObject *s = PyDict_Copy(state), *f = NULL, *asgs = NULL, *asg = NULL,
             *ev = NULL;
    if (!s || !(f = PyDict_Copy(a.fight)) || PyDict_SetItem(s, S_fight, f) ||
        !(asgs = PyList_GetSlice(a.asgs, 0, PyList_GET_SIZE(a.asgs))) ||
        PyDict_SetItem(f, S_asg, asgs) || !(asg = PyDict_Copy(a.asg)))
        goto fail;
    PyList_SET_ITEM(asgs, me, asg); /* the list's reference; the old one: */
    Py_DECREF(a.asg);
    Py_INCREF(asg);
    if (dice_step(&a, asg, kind, i, k, state, me)) goto fail;
    PyObject *done = get(asg, S_done), *shown = NULL;
    int finished;
    if (!done || (finished = PyObject_IsTrue(done)) < 0 ||
        (finished && !(shown = shown_sets(asg))) || !(ev = PyList_New(1)))
        goto fail;
    PyObject *e = assign_event(me, seat, done, aid, shown);
    if (!e) goto fail;
    PyList_SET_ITEM(ev, 0, e);
    if (finished) { /* the last fighter done settles the fight */
        PyObject *fs = get(f, S_f);
        if (!fs || !PyList_CheckExact(fs)) goto fail;
        int all = 1;
        for (Py_ssize_t j = 0; all && j < PyList_GET_SIZE(fs); j++) {
            long seat_j;
            PyObject *x, *d;
            if (!small(PyList_GET_ITEM(fs, j), &seat_j) || seat_j < 0 ||
                seat_j >= PyList_GET_SIZE(asgs) ||
                !PyDict_CheckExact(x = PyList_GET_ITEM(asgs, seat_j)) ||
                !(d = get(x, S_done)) || (all = PyObject_IsTrue(d)) < 0)
                goto fail;
        }
        if (all && resolve(s, ev) != 1) goto fail;
    }
    Py_DECREF(f);
    Py_DECREF(asgs);
    Py_DECREF(asg);
    return Py_BuildValue("(NN)", s, ev);
fail:
    Py_XDECREF(s);
    Py_XDECREF(f);
    Py_XDECREF(asgs);
    Py_XDECREF(asg);
    Py_XDECREF(ev);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_assign_step(PyObject *self, PyObject *args) {
    PyObject *state, *seat, *aid;
    if (!PyArg_UnpackTuple(args, "assign_step", 3, 3, &state, &seat, &aid)) return NULL;
    return assign_step(state, seat, aid);
}

#include "commit.h" /* step(): the draft's and the play's steps, then these */

static PyObject *intern(const char *fmt, int i, int k) {
    char buf[32];
    snprintf(buf, sizeof buf, fmt, i, k);
    return PyUnicode_InternFromString(buf);
}

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *rules_version, *assign, *combos;
    if (!PyArg_ParseTuple(args, "UUO!:init", &rules_version, &assign, &PyTuple_Type,
                          &combos))
        return NULL;
    if (PyTuple_GET_SIZE(combos) != 128) {
        PyErr_SetString(PyExc_ValueError, "init: the combinations of 128 characters");
        return NULL;
    }
    for (int ch = 0; ch < 128; ch++) {
        PyObject *row = PyTuple_GET_ITEM(combos, ch);
        NCOMBO[ch] = -1;
        if (row == Py_None) continue;
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) > MAXK) {
            PyErr_SetString(PyExc_ValueError, "init: at most 4 combinations a card");
            return NULL;
        }
        for (int k = 0; k < PyTuple_GET_SIZE(row); k++) {
            Combo *c = &COMBO[ch][k];
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(row, k), "iiiiii", &c->kind, &c->n,
                                  &c->faces, &c->total, &c->gain[0], &c->gain[1]))
                return NULL;
        }
        NCOMBO[ch] = (int)PyTuple_GET_SIZE(row);
    }
    Py_INCREF(rules_version);
    Py_XSETREF(RULES_VERSION, rules_version);
    Py_INCREF(assign);
    Py_XSETREF(ASSIGN, assign);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(assign_ids_doc,
"assign_ids(state, seat, /) -> list[str] | None\n\n"
"assignment.py's ``_assign_ids(state, seat)`` in a fight, or None when this\n"
"declines (a malformed state): the engine then builds it in Python.");
PyDoc_STRVAR(assign_step_doc,
"assign_step(state, seat, action_id, /) -> tuple[dict, list] | None\n\n"
"``apply``'s (state, events) for a legal dice step (with the fight's end\n"
"when it is the last, fight.h), or None for anything else or anything\n"
"declined (the engine then applies it in Python).");
PyDoc_STRVAR(init_fight_doc,
"init_fight(table, steps, rounds, playing, solve, /)\n\n"
"What the fight's end reads (fight.h): per character (None: not a card)\n"
"(initiative, attack crosses (main, gain, extra), defence crosses, usable\n"
"attacking, usable defending, per combination ((atk, hp), (def, yy))); STEP\n"
"per stat; ROUNDS; the PLAYING phase; the kernel's solve_checked (or None).");
PyDoc_STRVAR(init_commit_doc,
"init_commit(codes, pick_arg, play_arg, draft, hand, /)\n\n"
"What the draft's and the play's steps read (commit.h): per character its\n"
"card code (None: no card), actions.py's PICK_ARG and PLAY_ARG, its DRAFT\n"
"phase and HAND.");
PyDoc_STRVAR(ids_doc,
"ids(state, seat, /) -> list[str] | None\n\n"
"``legal_action_ids(state, seat)`` in the draft, the play or a fight (there\n"
"as assign_ids), or None when this declines (an invalid seat, another phase,\n"
"a malformed state): the engine then builds it in Python.");
PyDoc_STRVAR(step_doc,
"step(state, seat, action_id, /) -> tuple[dict, list] | None\n\n"
"``apply``'s (state, events) for a legal draft, play or dice step (the\n"
"dice ones as assign_step), or None for anything else or anything declined\n"
"(commit.h: the draft's last pass, a tie at the reveal): the engine then\n"
"applies it in Python.");
PyDoc_STRVAR(resolve_doc,
"resolve(state, events, /) -> bool\n\n"
"rounds.py's ``_resolve(state, events)`` on a state the caller owns: True\n"
"when done, False when it declines, having changed neither.");
PyDoc_STRVAR(init_doc,
"init(rules_version, assign, combos, /)\n\n"
"The engine's RULES_VERSION and ASSIGN phase, and per character (None: not a\n"
"card) its combinations as (kind index, n, faces mask, total, attack gain,\n"
"defence gain), a gain -1 where the combination is not settable.");

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"assign_ids", py_assign_ids, METH_VARARGS, assign_ids_doc},
    {"assign_step", py_assign_step, METH_VARARGS, assign_step_doc},
    {"init_fight", py_init_fight, METH_VARARGS, init_fight_doc},
    {"init_commit", py_init_commit, METH_VARARGS, init_commit_doc},
    {"step", (PyCFunction)(void (*)(void))py_step, METH_FASTCALL, step_doc},
    {"ids", (PyCFunction)(void (*)(void))py_ids, METH_FASTCALL, ids_doc},
    {"resolve", py_resolve, METH_VARARGS, resolve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastassign",
    "Kung Fu (2019): the dice-assignment menu and steps in C (assignment.py's).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__fastassign(void) {
#define S(name) \
    if (!(S_##name = PyUnicode_InternFromString(#name))) return NULL;
    S(fight) S(asg) S(dice) S(a) S(played) S(v) S(sets) S(open) S(bud) S(gain)
    S(spent) S(done) S(phase) S(rules_version) S(n) S(type) S(public) S(private)
    S(seat) S(step) S(assign)
#undef S
    if (!(ID_AUTO = PyUnicode_InternFromString("auto")) ||
        !(ID_DONE = PyUnicode_InternFromString("done")) ||
        !(ID_BEST = PyUnicode_InternFromString("best")) ||
        !(ID_RESET = PyUnicode_InternFromString("reset")) ||
        !(ID_CANCEL = PyUnicode_InternFromString("cancel")) ||
        !(STEP_CODE = PyDict_New()))
        return NULL;
    PyObject *plain[] = {ID_AUTO, ID_DONE, ID_BEST, ID_RESET, ID_CANCEL};
    for (int j = 0; j < 5; j++) {
        PyObject *code = PyLong_FromLong((long)j << 8);
        if (!code || PyDict_SetItem(STEP_CODE, plain[j], code)) return NULL;
        Py_DECREF(code);
    }
    for (int i = 0; i < DICE; i++) {
        PyObject **ids[] = {&DROP_ID[i], &DIE_ID[i], &UP_ID[i], &DOWN_ID[i]};
        const char *fmt[] = {"drop:%d", "die:%d", "up:%d", "down:%d"};
        for (int j = 0; j < 4; j++) {
            PyObject *code = PyLong_FromLong((long)(A_DROP + j) << 8 | i << 4);
            if (!(*ids[j] = intern(fmt[j], i, 0)) || !code ||
                PyDict_SetItem(STEP_CODE, *ids[j], code))
                return NULL;
            Py_DECREF(code);
        }
    }
    for (int slot = 0; slot < PLAY; slot++)
        for (int k = 0; k < MAXK; k++) {
            PyObject *code = PyLong_FromLong((long)A_SET << 8 | slot << 4 | k);
            if (!(SET_ID[slot][k] = intern("set:%d:%d", slot, k)) || !code ||
                PyDict_SetItem(STEP_CODE, SET_ID[slot][k], code))
                return NULL;
            Py_DECREF(code);
        }
    for (int i = 0; i < 8; i++)
        if (!(SEAT_KEY[i] = intern("%d", i, 0)) ||
            !(PRIV_T[i] = template(&SEAT_KEY[i], 1)))
            return NULL;
    EV_KEYS[0] = S_type;
    EV_KEYS[1] = S_public;
    EV_KEYS[2] = S_private;
    PUB_KEYS[0] = S_seat;
    PUB_KEYS[1] = S_done;
    STEP_SETS_KEYS[0] = S_step;
    STEP_SETS_KEYS[1] = S_sets;
    if (!(EV_T = template(EV_KEYS, 3)) || !(PUB_T = template(PUB_KEYS, 2)) ||
        !(STEP_T = template(&S_step, 1)) ||
        !(STEP_SETS_T = template(STEP_SETS_KEYS, 2)) || fight_module_init() ||
        commit_module_init())
        return NULL;
    return PyModule_Create(&module);
}
