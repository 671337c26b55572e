/* Kung Fu (2019), the dice game: a native random-playout kernel (optional
 * CPython extension), following the pattern of kungfu2013/_fastplay.c.
 *
 * It plays exactly the rules of handlers.py and rounds.py (the draft ``_h_pick``, the commits
 * ``_h_play``, ``_reveal`` with its tie-break shuffle and the 2-player dummy,
 * ``_start_fight`` and its rolls, every small dice decision of ``_h_assign``
 * with the menu ``_assign_ids``, ``_resolve``, ``_end_round``), with the same
 * SplitMix64 generator and mixed-radix Fisher-Yates shuffle as
 * gameplay/rules/rng.py. "auto" and "best" need the exact solver: solver.py's
 * algorithm is reproduced step by step in kernel_solver.h (the same enumeration
 * orders, so the same answer among equally good assignments). The seat that acts is the
 * first of ``actors`` and every decision picks index
 * ``randbelow(choice_state, len(menu))`` of the engine's menu, the choice
 * stream being a second SplitMix64 counter (rng.py's ``uniform_chooser``).
 *
 * No card data are written here: ``init`` receives the card and combination
 * tables from cards.py (through native.py) when the engine is imported. The
 * state travels as a flat tuple of fields (fields.py's ``_native_fields`` /
 * ``_native_store``); the result (placements) is built by rounds.py's
 * ``_finish`` from the HP and eliminations the kernel returns.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* the kernel's parts, in this order: tables and state, the dice solver, the
 * game flow and decisions; what follows here is the Python interface */
#include "kernel_state.h"
#include "kernel_solver.h"
#include "kernel_rules.h"

/* ---- Python interface -------------------------------------------------------------- */

static int load_row(PyObject *str, Row *r, int max) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(str, &n);
    if (!p) return -1;
    if (n > max) { PyErr_SetString(PyExc_ValueError, "row of cards too long"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 128 || !IS_CARD[c]) {
            PyErr_SetString(PyExc_ValueError, "not a card character");
            return -1;
        }
        r->c[i] = (char)c;
    }
    r->n = (int)n;
    return 0;
}

static int load_rows(PyObject *t, Row *rows, int n, int max) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != n) {
        PyErr_SetString(PyExc_ValueError, "expected one row per seat");
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (load_row(PyTuple_GET_ITEM(t, i), &rows[i], max)) return -1;
    return 0;
}

static int load_ints(PyObject *t, int *out, int n, int lo, int hi) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != n) {
        PyErr_SetString(PyExc_ValueError, "expected a tuple of integers");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x < lo || x > hi) { PyErr_SetString(PyExc_ValueError, "integer out of range"); return -1; }
        out[i] = (int)x;
    }
    return 0;
}

/* a set as bytes: slot, k, nd, dice... */
static int load_set(const unsigned char *p, Py_ssize_t len, Py_ssize_t *at, Set *st) {
    if (*at + 3 > len) return -1;
    st->slot = p[*at]; st->k = p[*at + 1]; st->nd = p[*at + 2];
    *at += 3;
    if (st->slot >= PLAY || st->k >= MAXCOMBO || st->nd > DICE || *at + st->nd > len) return -1;
    for (int i = 0; i < st->nd; i++) {
        st->d[i] = p[*at + i];
        if (st->d[i] >= DICE) return -1;
    }
    *at += st->nd;
    return 0;
}

static PyObject *dump_set(const Set *st) {
    unsigned char b[3 + DICE];
    b[0] = (unsigned char)st->slot; b[1] = (unsigned char)st->k; b[2] = (unsigned char)st->nd;
    for (int i = 0; i < st->nd; i++) b[3 + i] = (unsigned char)st->d[i];
    return PyBytes_FromStringAndSize((const char *)b, 3 + st->nd);
}

static PyObject *row_str(const Row *r) { return PyUnicode_FromStringAndSize(r->c, r->n); }

static PyObject *rows_tuple(const Row *rows, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, row_str(&rows[i]));
    return t;
}

static PyObject *ints_tuple(const int *x, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(x[i]));
    return t;
}

PyDoc_STRVAR(init_doc,
"init(combos, cards, steps, start_hp, words)\n\n"
"``combos``: (kind index into combos.KINDS, n, faces bitmask, total, atk, hit, hp,\n"
"def, avo, yy, pattern id) rows; ``cards``: (character, initiative, icon index,\n"
"combination ids) rows; ``steps``: points per track space (hp, atk, def, hit,\n"
"avo); ``start_hp``: by player count (index 0-5); ``words``: rng._words_for(n).");

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *combos, *cards, *steps, *start, *words;
    if (!PyArg_ParseTuple(args, "OOOOO", &combos, &cards, &steps, &start, &words)) return NULL;
    PyObject *seq = PySequence_Fast(combos, "combos must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq);
    if (nc > MAXCOMBOS) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "too many combinations"); return NULL; }
    for (Py_ssize_t i = 0; i < nc; i++) {
        Combo *c = &COMBO[i];
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiiiiiiiii", &c->kind,
                              &c->n, &c->faces, &c->total, &c->eff[0], &c->eff[1],
                              &c->eff[2], &c->eff[3], &c->eff[4], &c->eff[5], &c->pat)) {
            Py_DECREF(seq);
            return NULL;
        }
        if (c->kind < 0 || c->kind > K_SUM_UNDER || c->n < 0 || c->n > DICE ||
            (c->kind != K_CROSS && c->n < 1)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "bad combination row");
            return NULL;
        }
    }
    Py_DECREF(seq);
    NCOMBO = (int)nc;
    seq = PySequence_Fast(cards, "cards must be a sequence");
    if (!seq) return NULL;
    memset(IS_CARD, 0, sizeof IS_CARD);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        int ch, init, icon;
        PyObject *ids;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "CiiO", &ch, &init, &icon, &ids)) {
            Py_DECREF(seq);
            return NULL;
        }
        PyObject *is = PySequence_Fast(ids, "combination ids must be a sequence");
        if (!is) { Py_DECREF(seq); return NULL; }
        Py_ssize_t k = PySequence_Fast_GET_SIZE(is);
        if (ch <= 0 || ch >= 128 || icon < 0 || icon > 4 || k > MAXCOMBO) {
            Py_DECREF(is); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "bad card row");
            return NULL;
        }
        IS_CARD[ch] = 1; INIT[ch] = (int8_t)init; ICON[ch] = (int8_t)icon; NCB[ch] = (int8_t)k;
        for (int r = 0; r < 2; r++) {
            NUSE[ch][r] = 0;
            CROSS_[ch][r][0] = CROSS_[ch][r][1] = CROSS_[ch][r][2] = 0;
        }
        for (Py_ssize_t j = 0; j < k; j++) {
            long id = PyLong_AsLong(PySequence_Fast_GET_ITEM(is, j));
            if (id < 0 || id >= nc) {
                Py_DECREF(is); Py_DECREF(seq);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad combination id");
                return NULL;
            }
            CB[ch][j] = (int16_t)id;
            const Combo *c = &COMBO[id];
            for (int r = 0; r < 2; r++) {
                int active = c->eff[3 * r] || c->eff[3 * r + 1] || c->eff[3 * r + 2];
                if (c->kind != K_CROSS && active) USE[ch][r][NUSE[ch][r]++] = (int8_t)j;
                if (c->kind == K_CROSS)
                    for (int f = 0; f < 3; f++) CROSS_[ch][r][f] += c->eff[3 * r + f];
            }
        }
        Py_DECREF(is);
    }
    Py_DECREF(seq);
    if (load_ints(steps, STEP, 5, 0, 100) || load_ints(start, START_HP, 6, 0, 10000))
        return NULL;
    PyObject *wseq = PySequence_Fast(words, "words must be a sequence");
    if (!wseq) return NULL;
    if (PySequence_Fast_GET_SIZE(wseq) < MAXC + 1) {
        Py_DECREF(wseq);
        PyErr_SetString(PyExc_ValueError, "words must cover 0..80 cards");
        return NULL;
    }
    for (int i = 0; i <= MAXC; i++) {
        long w = PyLong_AsLong(PySequence_Fast_GET_ITEM(wseq, i));
        if (w < 0 || w > 10) {
            Py_DECREF(wseq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shuffle needs more than 10 words");
            return NULL;
        }
        WORDS[i] = (int)w;
    }
    Py_DECREF(wseq);
    ready = 1;
    Py_RETURN_NONE;
}

#define NFIELDS 20

PyDoc_STRVAR(playout_doc,
"playout(fields, choice, max_steps) -> (fields, choice, steps, reason)\n\n"
"Play the state given as fields.py's flat field tuple on to the end (or\n"
"``max_steps`` decisions, -1 for no limit): the first actor decides each time,\n"
"taking index ``randbelow(choice, len(menu))`` of the engine's menu. Returns the\n"
"new field tuple, the choice stream's counter, the number of decisions and how\n"
"the game ended (0 not over, 1 rounds, 2 last standing, 3 all eliminated).");

PyDoc_STRVAR(policy_playout_doc,
"policy_playout(fields, choice, max_steps) -> (fields, choice, steps, reason)\n\n"
"``playout`` with rollout.py's playout policy instead of uniform choices (what\n"
"ISMCTS's playouts and the post-game analysis run after their heuristic plies):\n"
"each decision is rollout.py's ``choose`` on the choice stream, so the state\n"
"ends exactly as rollout.py's Python twin ends it. Needs ``init_policy``.");

/* playout and policy_playout: parse, play, build the answer. */
static PyObject *play(PyObject *args, int policy) {
    PyObject *f;
    unsigned long long choice;
    long long max_steps;
    if (!PyArg_ParseTuple(args, "O!KL", &PyTuple_Type, &f, &choice, &max_steps)) return NULL;
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "_fastplay.init was not called"); return NULL; }
    if (PyTuple_GET_SIZE(f) != NFIELDS) { PyErr_SetString(PyExc_ValueError, "expected 20 state fields"); return NULL; }
    static St s;
    memset(&s, 0, sizeof s);
#define F(i) PyTuple_GET_ITEM(f, i)
    s.rng = PyLong_AsUnsignedLongLong(F(0));
    if (PyErr_Occurred()) return NULL;
    int hdr[4];
    if (load_ints(F(1), hdr, 4, 0, 1000)) return NULL;
    s.n = hdr[0]; s.phase = hdr[1]; s.round = hdr[2]; s.turn = hdr[3];
    if (s.n < 2 || s.n > MAXP || s.phase > PH_OVER) { PyErr_SetString(PyExc_ValueError, "bad header"); return NULL; }
    int n = s.n;
    if (load_row(F(2), &s.deck, MAXC) || load_row(F(3), &s.discard, MAXC) ||
        load_row(F(4), &s.dummy, PLAY) || load_rows(F(5), s.packs, n, MAXC) ||
        load_rows(F(6), s.picks, n, 1) || load_rows(F(7), s.hands, n, MAXC) ||
        load_rows(F(8), s.commit, n, PLAY) || load_rows(F(9), s.played, n, PLAY))
        return NULL;
    {
        char *p; Py_ssize_t len;
        if (PyBytes_AsStringAndSize(F(10), &p, &len) < 0) return NULL;
        if (len != 5 * n) { PyErr_SetString(PyExc_ValueError, "bad tracks"); return NULL; }
        for (int i = 0; i < n; i++) for (int k = 0; k < 5; k++) s.tracks[i][k] = (unsigned char)p[5 * i + k];
    }
    if (load_ints(F(11), s.hp, n, -100000, 100000) || load_ints(F(12), s.elim, n, 0, 100000))
        return NULL;
    int misc[3];
    if (load_ints(F(13), misc, 3, 0, 100000)) return NULL;
    s.nfight = misc[0]; s.oi = misc[1]; s.di = misc[2];
    {
        PyObject *o = F(14);
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) > MAXP + 1) { PyErr_SetString(PyExc_ValueError, "bad order"); return NULL; }
        s.norder = (int)PyTuple_GET_SIZE(o);
        if (load_ints(o, s.order, s.norder, -1, n - 1)) return NULL;
        if (s.oi > s.norder) { PyErr_SetString(PyExc_ValueError, "bad order index"); return NULL; }
    }
    {
        char *p; Py_ssize_t len;
        if (PyBytes_AsStringAndSize(F(15), &p, &len) < 0) return NULL;
        if (len % DICE) { PyErr_SetString(PyExc_ValueError, "bad dice stack"); return NULL; }
        for (Py_ssize_t i = 0; i < len; i++)
            if (p[i] < 1 || p[i] > 6) { PyErr_SetString(PyExc_ValueError, "bad die"); return NULL; }
        s.stack = (const unsigned char *)p; s.nstack = (int)(len / DICE);
    }
    /* the fight: 16 attacker (or None), 17 fighters, 18 dice, 19 asg records */
    if (F(16) != Py_None) {
        long a = PyLong_AsLong(F(16));
        if ((a == -1 && PyErr_Occurred()) || a < -1 || a >= n) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad attacker"); return NULL; }
        s.fight = 1; s.fa = (int)a;
        PyObject *ff = F(17);
        if (!PyTuple_Check(ff) || PyTuple_GET_SIZE(ff) > n) { PyErr_SetString(PyExc_ValueError, "bad fighters"); return NULL; }
        s.nf = (int)PyTuple_GET_SIZE(ff);
        if (load_ints(ff, s.ff, s.nf, 0, n - 1)) return NULL;
        PyObject *dice = F(18), *asg = F(19);
        if (!PyTuple_Check(dice) || PyTuple_GET_SIZE(dice) != n || !PyTuple_Check(asg) || PyTuple_GET_SIZE(asg) != n) {
            PyErr_SetString(PyExc_ValueError, "bad fight"); return NULL;
        }
        for (int i = 0; i < n; i++) {
            PyObject *d = PyTuple_GET_ITEM(dice, i);
            if (d != Py_None) {
                char *p; Py_ssize_t len;
                if (PyBytes_AsStringAndSize(d, &p, &len) < 0) return NULL;
                if (len != DICE) { PyErr_SetString(PyExc_ValueError, "bad roll"); return NULL; }
                for (int k = 0; k < DICE; k++) s.dice[i][k] = (unsigned char)p[k];
                s.has_dice[i] = 1;
            }
            PyObject *g = PyTuple_GET_ITEM(asg, i);
            if (g == Py_None) continue;
            /* (v bytes, sets bytes, open bytes or None, bud, gain, spent, done) */
            PyObject *v, *sets, *open;
            Asg *A = &s.asg[i];
            if (!PyArg_ParseTuple(g, "SSOiiip", &v, &sets, &open, &A->bud, &A->gain, &A->spent, &A->done)) return NULL;
            if (PyBytes_GET_SIZE(v) != DICE) { PyErr_SetString(PyExc_ValueError, "bad values"); return NULL; }
            for (int k = 0; k < DICE; k++) A->v[k] = (unsigned char)PyBytes_AS_STRING(v)[k];
            const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(sets);
            Py_ssize_t len = PyBytes_GET_SIZE(sets), at = 0;
            while (at < len) {
                if (A->nsets >= DICE || load_set(p, len, &at, &A->sets[A->nsets])) { PyErr_SetString(PyExc_ValueError, "bad sets"); return NULL; }
                A->nsets++;
            }
            if (open != Py_None) {
                if (!PyBytes_Check(open)) { PyErr_SetString(PyExc_ValueError, "bad open set"); return NULL; }
                Py_ssize_t at2 = 0;
                if (load_set((const unsigned char *)PyBytes_AS_STRING(open), PyBytes_GET_SIZE(open), &at2, &A->open)) {
                    PyErr_SetString(PyExc_ValueError, "bad open set"); return NULL;
                }
                A->has_open = 1;
            }
            s.has_asg[i] = 1;
        }
        for (int q = 0; q < s.nf; q++) {
            int seat = s.ff[q];
            if (!s.has_asg[seat] || !s.has_dice[seat]) { PyErr_SetString(PyExc_ValueError, "fighter without dice"); return NULL; }
            for (int j = 0; j < s.asg[seat].nsets; j++)
                if (s.asg[seat].sets[j].slot >= s.played[seat].n || s.asg[seat].sets[j].k >= NCB[(int)s.played[seat].c[s.asg[seat].sets[j].slot]]) {
                    PyErr_SetString(PyExc_ValueError, "bad set"); return NULL;
                }
            if (s.asg[seat].has_open && (s.asg[seat].open.slot >= s.played[seat].n || s.asg[seat].open.k >= NCB[(int)s.played[seat].c[s.asg[seat].open.slot]])) {
                PyErr_SetString(PyExc_ValueError, "bad open set"); return NULL;
            }
        }
    } else if (s.phase == PH_ASSIGN) {
        PyErr_SetString(PyExc_ValueError, "assign phase without a fight"); return NULL;
    }
#undef F
    uint64_t ch = (uint64_t)choice;
    long long steps = 0;
    while (steps != max_steps && !s.error && first_actor(&s) >= 0) {
        decide(&s, &ch, policy);
        steps++;
    }
    if (s.error) {
        PyErr_SetString(PyExc_RuntimeError, s.error == 2
            ? "kungfu2019 native playout: the solver's answer did not check"
            : "kungfu2019 native playout: invalid state");
        return NULL;
    }
    int hdr2[4] = {s.n, s.phase, s.round, s.turn};
    unsigned char tr[5 * MAXP];
    for (int i = 0; i < n; i++) for (int k = 0; k < 5; k++) tr[5 * i + k] = (unsigned char)s.tracks[i][k];
    int misc2[3] = {s.nfight, s.oi, s.di};
    PyObject *fa, *ff, *dice, *asg;
    if (s.fight) {
        fa = PyLong_FromLong(s.fa);
        ff = ints_tuple(s.ff, s.nf);
        dice = PyTuple_New(n);
        asg = PyTuple_New(n);
        if (!fa || !ff || !dice || !asg) return NULL;
        for (int i = 0; i < n; i++) {
            if (s.has_dice[i]) {
                unsigned char b[DICE];
                for (int k = 0; k < DICE; k++) b[k] = (unsigned char)s.dice[i][k];
                PyTuple_SET_ITEM(dice, i, PyBytes_FromStringAndSize((const char *)b, DICE));
            } else {
                Py_INCREF(Py_None);
                PyTuple_SET_ITEM(dice, i, Py_None);
            }
            if (!s.has_asg[i]) { Py_INCREF(Py_None); PyTuple_SET_ITEM(asg, i, Py_None); continue; }
            Asg *A = &s.asg[i];
            unsigned char vb[DICE], sb[DICE * (3 + DICE)];
            int sl = 0;
            for (int k = 0; k < DICE; k++) vb[k] = (unsigned char)A->v[k];
            for (int q = 0; q < A->nsets; q++) {
                sb[sl++] = (unsigned char)A->sets[q].slot; sb[sl++] = (unsigned char)A->sets[q].k;
                sb[sl++] = (unsigned char)A->sets[q].nd;
                for (int k = 0; k < A->sets[q].nd; k++) sb[sl++] = (unsigned char)A->sets[q].d[k];
            }
            PyObject *open;
            if (A->has_open) open = dump_set(&A->open);
            else { Py_INCREF(Py_None); open = Py_None; }
            PyTuple_SET_ITEM(asg, i, Py_BuildValue("(y#y#Niiii)", (const char *)vb, (Py_ssize_t)DICE,
                (const char *)sb, (Py_ssize_t)sl, open, A->bud, A->gain, A->spent, A->done));
        }
    } else {
        Py_INCREF(Py_None); fa = Py_None;
        ff = PyTuple_New(0); dice = PyTuple_New(0); asg = PyTuple_New(0);
    }
    PyObject *out = Py_BuildValue("(KNNNNNNNNNy#NNNNy#NNNN)",
        (unsigned long long)s.rng, ints_tuple(hdr2, 4), row_str(&s.deck), row_str(&s.discard),
        row_str(&s.dummy), rows_tuple(s.packs, n), rows_tuple(s.picks, n),
        rows_tuple(s.hands, n), rows_tuple(s.commit, n), rows_tuple(s.played, n),
        (const char *)tr, (Py_ssize_t)(5 * n), ints_tuple(s.hp, n), ints_tuple(s.elim, n),
        ints_tuple(misc2, 3), ints_tuple(s.order, s.norder),
        (const char *)s.stack, (Py_ssize_t)(DICE * s.nstack), fa, ff, dice, asg);
    if (!out) return NULL;
    return Py_BuildValue("(NKLi)", out, (unsigned long long)ch, steps, s.reason);
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    return play(args, 0);
}

static PyObject *py_policy_playout(PyObject *self, PyObject *args) {
    if (!policy_ready) {
        PyErr_SetString(PyExc_RuntimeError, "_fastplay.init_policy was not called");
        return NULL;
    }
    return play(args, 1);
}

PyDoc_STRVAR(init_policy_doc,
"init_policy(worth, play)\n\n"
"rollout.py's card values for ``policy_playout``: ``worth`` and ``play`` each\n"
"hold, for every player count 0-5, a tuple of 128 floats indexed by the card's\n"
"character code (heuristic.worth and heuristic.play_value; 0.0 elsewhere).");

static int load_values(PyObject *rows, double out[MAXP + 1][128]) {
    if (!PyTuple_Check(rows) || PyTuple_GET_SIZE(rows) != MAXP + 1) {
        PyErr_SetString(PyExc_ValueError, "expected a tuple per player count 0-5");
        return -1;
    }
    for (int n = 0; n <= MAXP; n++) {
        PyObject *row = PyTuple_GET_ITEM(rows, n);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 128) {
            PyErr_SetString(PyExc_ValueError, "expected 128 values per player count");
            return -1;
        }
        for (int c = 0; c < 128; c++) {
            double v = PyFloat_AsDouble(PyTuple_GET_ITEM(row, c));
            if (v == -1.0 && PyErr_Occurred()) return -1;
            out[n][c] = v;
        }
    }
    return 0;
}

static PyObject *py_init_policy(PyObject *self, PyObject *args) {
    PyObject *worth, *play_;
    if (!PyArg_ParseTuple(args, "OO", &worth, &play_)) return NULL;
    if (load_values(worth, PWORTH) || load_values(play_, PPLAY)) return NULL;
    policy_ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(solve_doc,
"solve(played, role, rolled, budget) -> [(slot, k, die ids, finals), ...]\n\n"
"The kernel's copy of solver.best_assignment for the cards ``played`` (a string\n"
"of card characters), ``role`` 0 attack / 1 defence, seven dice ``rolled`` and\n"
"the whole HIT/AVO ``budget`` (track plus red crosses), for the tests.");

/* solve()'s and solve_checked()'s arguments: played, role, rolled, budget. */
static int solve_args(PyObject *args, Row *played, int *role, int *rolled, int *bud) {
    PyObject *pl;
    const char *dice;
    Py_ssize_t nd;
    if (!PyArg_ParseTuple(args, "Uiy#i", &pl, role, &dice, &nd, bud)) return -1;
    if (!ready) { PyErr_SetString(PyExc_RuntimeError, "_fastplay.init was not called"); return -1; }
    if (load_row(pl, played, PLAY)) return -1;
    if (nd != DICE || (*role != ATT && *role != DEF) || *bud < 0) {
        PyErr_SetString(PyExc_ValueError, "seven dice, role 0 or 1, budget >= 0");
        return -1;
    }
    for (int i = 0; i < DICE; i++) {
        rolled[i] = (unsigned char)dice[i];
        if (rolled[i] < 1 || rolled[i] > 6) { PyErr_SetString(PyExc_ValueError, "bad die"); return -1; }
    }
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    Row played;
    int role, bud, rolled[DICE];
    if (solve_args(args, &played, &role, rolled, &bud)) return NULL;
    Set sets[DICE];
    int fin[DICE][DICE];
    int ns = solve(&played, role, rolled, bud, sets, fin);
    if (ns < 0) { PyErr_SetString(PyExc_RuntimeError, "solver failed"); return NULL; }
    PyObject *out = PyList_New(ns);
    if (!out) return NULL;
    for (int q = 0; q < ns; q++) {
        PyObject *ids = PyTuple_New(sets[q].nd), *fs = PyTuple_New(sets[q].nd);
        if (!ids || !fs) { Py_XDECREF(ids); Py_XDECREF(fs); Py_DECREF(out); return NULL; }
        for (int i = 0; i < sets[q].nd; i++) {
            PyTuple_SET_ITEM(ids, i, PyLong_FromLong(sets[q].d[i]));
            PyTuple_SET_ITEM(fs, i, PyLong_FromLong(fin[q][i]));
        }
        PyList_SET_ITEM(out, q, Py_BuildValue("(iiNN)", sets[q].slot, sets[q].k, ids, fs));
    }
    return out;
}

PyDoc_STRVAR(solve_checked_doc,
"solve_checked(played, role, rolled, budget) -> (values, sets, gain, spent) | None\n\n"
"``solve``'s answer checked by the kernel's copy of assignment._check_assignment, in\n"
"the form that check returns: the die values (a list), the closed sets\n"
"[[slot, k, [die ids]], ...], the HIT/AVO gained and spent; None when the\n"
"check refuses it (the engine then falls back as it does for ``solve``).");

static PyObject *py_solve_checked(PyObject *self, PyObject *args) {
    Row played;
    int role, bud, rolled[DICE];
    if (solve_args(args, &played, &role, rolled, &bud)) return NULL;
    Set sets[DICE], out[DICE];
    int fin[DICE][DICE], v[DICE], gain = 0, spent = 0;
    int ns = solve(&played, role, rolled, bud, sets, fin);
    if (ns < 0) { PyErr_SetString(PyExc_RuntimeError, "solver failed"); return NULL; }
    if (!check_assignment(&played, role, rolled, bud, sets, ns, fin, v, out, &gain, &spent))
        Py_RETURN_NONE;
    PyObject *vs = PyList_New(DICE), *ss = PyList_New(ns);
    if (!vs || !ss) { Py_XDECREF(vs); Py_XDECREF(ss); return NULL; }
    for (int i = 0; i < DICE; i++) PyList_SET_ITEM(vs, i, PyLong_FromLong(v[i]));
    for (int q = 0; q < ns; q++) {
        PyObject *ids = PyList_New(out[q].nd);
        if (!ids) { Py_DECREF(vs); Py_DECREF(ss); return NULL; }
        for (int i = 0; i < out[q].nd; i++)
            PyList_SET_ITEM(ids, i, PyLong_FromLong(out[q].d[i]));
        PyObject *st = Py_BuildValue("[iiN]", out[q].slot, out[q].k, ids);
        if (!st) { Py_DECREF(vs); Py_DECREF(ss); return NULL; }
        PyList_SET_ITEM(ss, q, st);
    }
    return Py_BuildValue("(NNii)", vs, ss, gain, spent);
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"solve_checked", py_solve_checked, METH_VARARGS, solve_checked_doc},
    {"playout", py_playout, METH_VARARGS, playout_doc},
    {"init_policy", py_init_policy, METH_VARARGS, init_policy_doc},
    {"policy_playout", py_policy_playout, METH_VARARGS, policy_playout_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastplay",
    "Kung Fu (2019) native playouts: uniform random (engine.py's random_playout)\n"
    "and by the playout policy (rollout.py's playout).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastplay(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "FIELDS", NFIELDS)) { Py_DECREF(m); return NULL; }
    return m;
}
