/* Kung Fu (2019): the dice assignment in C, included by _fastassign.c after
 * its tables (COMBO, the ids) and interned names: a fighter's record read
 * (``read_asg``), its menu (assignment.py's ``_assign_ids``), the check of a
 * step (``_assign_legal``) and the step on a copy of the record
 * (``dice_step``, handlers.py's ``_h_assign`` with assignment.py's helpers,
 * ``_droppable``, ``_maybe_close``, ``_dropped``, ``_checked_proposal``).
 * The readers here (small, read_set) serve fight.h and commit.h too.
 * assignment.py is the reference; tests/rules/test_kungfu2019_assign.py
 * holds the two equal. */

/* A small exact int's value (|v| < 2**30, one digit), else 0. */
static inline int small(PyObject *o, long *out) {
    if (o == NULL || !PyLong_CheckExact(o)) return 0;
    Py_ssize_t size = Py_SIZE(o);
    if (size < -1 || size > 1) return 0;
    *out = size * (long)((PyLongObject *)o)->ob_digit[0];
    return 1;
}

/* A set [slot, k, dice] as read. */
typedef struct {
    int slot, k, nd;
    int d[DICE];
} Set;

/* A fighter's assignment record and what its menu and steps read. */
typedef struct {
    PyObject *fight, *asgs, *asg, *rolled_obj, *v_obj, *sets_obj, *open_obj;
    const unsigned char *played;
    int nplayed, role, nsets, has_open, done;
    long v[DICE], rolled[DICE], bud, gain, spent;
    Set sets[DICE], op;
} Asg;

/* A record's seven dice values: fight.h's read_longs(x, out, DICE, DICE,
 * NULL) with the length a constant, a loop the compiler unrolls. Kept apart
 * for read_asg, which reads two at every dice step and menu: read_longs
 * there cost 121 instructions a step more (callgrind, 43,430 -> 43,551). */
static int read_ints(PyObject *x, long *out) {
    if (!PyList_CheckExact(x) || PyList_GET_SIZE(x) != DICE) return 0;
    for (int i = 0; i < DICE; i++)
        if (!small(PyList_GET_ITEM(x, i), &out[i])) return 0;
    return 1;
}

static int read_set(PyObject *x, Set *s) {
    if (!(PyList_CheckExact(x) || PyTuple_CheckExact(x)) ||
        PySequence_Fast_GET_SIZE(x) != 3)
        return 0;
    PyObject **it = PySequence_Fast_ITEMS(x);
    long slot, k;
    if (!small(it[0], &slot) || !small(it[1], &k) || slot < 0 || slot >= PLAY ||
        k < 0 || k >= MAXK)
        return 0;
    PyObject *d = it[2];
    if (!(PyList_CheckExact(d) || PyTuple_CheckExact(d))) return 0;
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(d);
    if (nd > DICE) return 0;
    for (Py_ssize_t j = 0; j < nd; j++) {
        long i;
        if (!small(PySequence_Fast_ITEMS(d)[j], &i) || i < 0 || i >= DICE) return 0;
        s->d[j] = (int)i;
    }
    s->slot = (int)slot;
    s->k = (int)k;
    s->nd = (int)nd;
    return 1;
}

/* Read seat's record: 1, 0 to decline, 2 when it has none or is done (no
 * decision: an empty menu). */
static int read_asg(PyObject *state, long seat, Asg *a) {
    PyObject *f = get(state, S_fight);
    if (!f || !PyDict_CheckExact(f)) return 0;
    PyObject *asgs = get(f, S_asg), *rolls = get(f, S_dice), *att = get(f, S_a),
             *played = get(state, S_played);
    long attacker;
    if (!asgs || !rolls || !played || !PyList_CheckExact(asgs) ||
        !PyList_CheckExact(rolls) || !PyList_CheckExact(played) ||
        seat >= PyList_GET_SIZE(asgs) || seat >= PyList_GET_SIZE(played) ||
        seat >= PyList_GET_SIZE(rolls) || !small(att, &attacker))
        return 0;
    PyObject *asg = PyList_GET_ITEM(asgs, seat);
    a->fight = f;
    a->asgs = asgs;
    a->asg = asg;
    if (asg == Py_None) return 2;
    if (!PyDict_CheckExact(asg)) return 0;
    PyObject *done = get(asg, S_done);
    if (!done) return 0;
    int r = PyObject_IsTrue(done);
    if (r < 0) return 0;
    if (r) return 2;
    PyObject *p = PyList_GET_ITEM(played, seat);
    if (!PyUnicode_CheckExact(p) || !PyUnicode_IS_ASCII(p) ||
        PyUnicode_GET_LENGTH(p) > PLAY)
        return 0;
    a->played = PyUnicode_1BYTE_DATA(p);
    a->nplayed = (int)PyUnicode_GET_LENGTH(p);
    for (int j = 0; j < a->nplayed; j++)
        if (NCOMBO[a->played[j]] < 0) return 0;
    a->role = seat == attacker ? 0 : 1;
    a->rolled_obj = PyList_GET_ITEM(rolls, seat);
    a->v_obj = get(asg, S_v);
    a->sets_obj = get(asg, S_sets);
    a->open_obj = get(asg, S_open);
    if (!a->v_obj || !a->sets_obj || !a->open_obj || !read_ints(a->v_obj, a->v) ||
        !read_ints(a->rolled_obj, a->rolled) || !PyList_CheckExact(a->sets_obj) ||
        PyList_GET_SIZE(a->sets_obj) > DICE || !small(get(asg, S_bud), &a->bud) ||
        !small(get(asg, S_gain), &a->gain) || !small(get(asg, S_spent), &a->spent))
        return 0;
    a->nsets = (int)PyList_GET_SIZE(a->sets_obj);
    for (int j = 0; j < a->nsets; j++)
        if (!read_set(PyList_GET_ITEM(a->sets_obj, j), &a->sets[j])) return 0;
    a->has_open = a->open_obj != Py_None;
    if (a->has_open && !read_set(a->open_obj, &a->op)) return 0;
    /* every set's card is played and has that combination */
    for (int j = 0; j <= a->nsets; j++) {
        Set *s = j < a->nsets ? &a->sets[j] : a->has_open ? &a->op : NULL;
        if (s && (s->slot >= a->nplayed || s->k >= NCOMBO[a->played[s->slot]]))
            return 0;
    }
    return 1;
}

static inline Combo *combo_of(Asg *a, Set *s) {
    return &COMBO[a->played[s->slot]][s->k];
}

/* assignment.py's ``_droppable``. */
static int droppable(Asg *a, int j) {
    long avail = a->bud;
    for (int n = 0; n < a->nsets; n++) {
        if (n == j) continue;
        Set *s = &a->sets[n];
        long cost = 0;
        for (int t = 0; t < s->nd; t++) cost += labs(a->v[s->d[t]] - a->rolled[s->d[t]]);
        if (cost > avail) return 0;
        avail += combo_of(a, s)->gain[a->role] - cost;
    }
    return 1;
}

static int append(PyObject *list, PyObject *x) { return PyList_Append(list, x); }

/* The menu (``_assign_ids``) of a record read with no decline. */
static PyObject *menu(Asg *a) {
    PyObject *ids = PyList_New(0);
    if (!ids) return NULL;
    if (!a->has_open) {
        if (append(ids, ID_AUTO) || append(ids, ID_DONE) || append(ids, ID_BEST))
            goto fail;
        if (a->nsets || a->spent) {
            if (append(ids, ID_RESET)) goto fail;
            for (int j = 0; j < a->nsets; j++)
                if ((!a->spent || droppable(a, j)) && append(ids, DROP_ID[j])) goto fail;
        }
        int free = DICE;
        for (int j = 0; j < a->nsets; j++) free -= a->sets[j].nd;
        for (int slot = 0; slot < a->nplayed; slot++) {
            int ch = a->played[slot];
            for (int k = 0; k < NCOMBO[ch]; k++) {
                Combo *c = &COMBO[ch][k];
                if (c->gain[a->role] >= 0 && c->n <= free && append(ids, SET_ID[slot][k]))
                    goto fail;
            }
        }
        return ids;
    }
    if (append(ids, ID_AUTO)) goto fail;
    if (a->op.nd < combo_of(a, &a->op)->n) {
        int used = 0;
        for (int j = 0; j < a->nsets; j++)
            for (int t = 0; t < a->sets[j].nd; t++) used |= 1 << a->sets[j].d[t];
        for (int t = 0; t < a->op.nd; t++) used |= 1 << a->op.d[t];
        for (int i = 0; i < DICE; i++)
            if (!(used >> i & 1) && append(ids, DIE_ID[i])) goto fail;
    }
    long avail = a->bud + a->gain - a->spent;
    for (int t = 0; t < a->op.nd; t++) {
        int i = a->op.d[t];
        long x = a->v[i], r = a->rolled[i];
        if (x < 6 && (x < r || avail > 0) && append(ids, UP_ID[i])) goto fail;
        if (x > 1 && (x > r || avail > 0) && append(ids, DOWN_ID[i])) goto fail;
    }
    if (append(ids, ID_CANCEL)) goto fail;
    return ids;
fail:
    Py_DECREF(ids);
    return NULL;
}

/* combos.py's ``satisfies`` for a settable combination (a fixed n > 0). */
static int satisfies(Combo *c, const long *x, int size) {
    if (c->kind == K_CROSS) return size == 0;
    if (size != c->n) return 0;
    long sum = 0;
    for (int t = 0; t < size; t++) sum += x[t];
    switch (c->kind) {
    case K_SUM_OVER:
        return size > 0 && sum > c->total;
    case K_SUM_UNDER:
        return sum < c->total;
    case K_FACES:
        for (int t = 0; t < size; t++)
            if (x[t] < 0 || x[t] > 30 || !(c->faces >> x[t] & 1)) return 0;
        return 1;
    case K_KIND:
        for (int t = 1; t < size; t++)
            if (x[t] != x[0]) return 0;
        return !c->faces || (x[0] >= 0 && x[0] <= 30 && (c->faces >> x[0] & 1));
    default: { /* straight: sorted, each one more than the last */
        long s[DICE];
        for (int t = 0; t < size; t++) {
            int u = t;
            while (u > 0 && s[u - 1] > x[t]) {
                s[u] = s[u - 1];
                u--;
            }
            s[u] = x[t];
        }
        for (int t = 0; t + 1 < size; t++)
            if (s[t + 1] != s[t] + 1) return 0;
        return 1;
    }
    }
}

/* ``_assign_legal`` for the kinds done here. */
static int legal(Asg *a, int kind, int i, int k) {
    switch (kind) {
    case A_AUTO:
        return 1;
    case A_DONE:
    case A_BEST:
        return !a->has_open;
    case A_DROP:
        return !a->has_open && i < a->nsets && droppable(a, i);
    case A_RESET:
        return !a->has_open && (a->nsets || a->spent);
    case A_CANCEL:
        return a->has_open;
    case A_SET: {
        if (a->has_open || i >= a->nplayed) return 0;
        int ch = a->played[i];
        if (k >= NCOMBO[ch] || COMBO[ch][k].gain[a->role] < 0) return 0;
        int free = DICE;
        for (int j = 0; j < a->nsets; j++) free -= a->sets[j].nd;
        return COMBO[ch][k].n <= free;
    }
    case A_DIE:
        if (!a->has_open || a->op.nd >= combo_of(a, &a->op)->n) return 0;
        for (int t = 0; t < a->op.nd; t++)
            if (a->op.d[t] == i) return 0;
        for (int j = 0; j < a->nsets; j++)
            for (int t = 0; t < a->sets[j].nd; t++)
                if (a->sets[j].d[t] == i) return 0;
        return 1;
    default: { /* up, down */
        if (!a->has_open) return 0;
        int in = 0;
        for (int t = 0; t < a->op.nd; t++) in |= a->op.d[t] == i;
        if (!in) return 0;
        long x = a->v[i], r = a->rolled[i], avail = a->bud + a->gain - a->spent;
        if (kind == A_UP) return x < 6 && (x < r || avail > 0);
        return x > 1 && (x > r || avail > 0);
    }
    }
}

static PyObject *int_list(const long *x, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int t = 0; t < n; t++) {
        PyObject *o = PyLong_FromLong(x[t]);
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, t, o);
    }
    return out;
}

/* A new open set [slot, k, dice] (its slot and k the old one's objects). */
static PyObject *open_set(Asg *a, int extra) {
    PyObject **it = PySequence_Fast_ITEMS(a->open_obj);
    long d[DICE + 1];
    for (int t = 0; t < a->op.nd; t++) d[t] = a->op.d[t];
    int nd = a->op.nd;
    if (extra >= 0) d[nd++] = extra;
    PyObject *dice = int_list(d, nd);
    if (!dice) return NULL;
    PyObject *out = PyList_New(3);
    if (!out) {
        Py_DECREF(dice);
        return NULL;
    }
    Py_INCREF(it[0]);
    Py_INCREF(it[1]);
    PyList_SET_ITEM(out, 0, it[0]);
    PyList_SET_ITEM(out, 1, it[1]);
    PyList_SET_ITEM(out, 2, dice);
    return out;
}

/* ``_maybe_close`` on the new record, whose open set is ``op`` (dice as
 * read plus ``extra``) and values ``v``. */
static int maybe_close(Asg *a, PyObject *asg, PyObject *op, const long *v, int extra) {
    Combo *c = combo_of(a, &a->op);
    long x[DICE + 1];
    int nd = 0;
    for (int t = 0; t < a->op.nd; t++) x[nd++] = v[a->op.d[t]];
    if (extra >= 0) x[nd++] = v[extra];
    if (nd != c->n || !satisfies(c, x, nd)) return 0;
    PyObject *sets = PyList_GetSlice(a->sets_obj, 0, a->nsets);
    if (!sets || PyList_Append(sets, op)) {
        Py_XDECREF(sets);
        return -1;
    }
    if (put(asg, S_sets, sets) || PyDict_SetItem(asg, S_open, Py_None) ||
        put(asg, S_gain, PyLong_FromLong(a->gain + c->gain[a->role])))
        return -1;
    return 0;
}

static PyObject *SOLVE; /* from init_fight(): _fastplay.solve_checked, or None */

/* ``_checked_proposal``'s answer loaded into ``asg`` (``auto``, ``best``):
 * 0, 1 to decline (no kernel answer: Python's fallbacks), -1 an error. */
static int load_proposal(Asg *a, PyObject *asg, PyObject *state, long me) {
    if (!SOLVE || SOLVE == Py_None) return 1;
    char rolled[DICE];
    for (int t = 0; t < DICE; t++) {
        if (a->rolled[t] < 0 || a->rolled[t] > 255) return 1;
        rolled[t] = (char)a->rolled[t];
    }
    PyObject *played = PyList_GET_ITEM(get(state, S_played), me);
    PyObject *r = PyObject_CallFunction(SOLVE, "OiNO", played, a->role,
                                        PyBytes_FromStringAndSize(rolled, DICE),
                                        get(a->asg, S_bud));
    if (!r) return -1;
    if (!PyTuple_CheckExact(r) || PyTuple_GET_SIZE(r) != 4) {
        Py_DECREF(r);
        return 1;
    }
    PyObject *keys[4] = {S_v, S_sets, S_gain, S_spent};
    for (int t = 0; t < 4; t++)
        if (PyDict_SetItem(asg, keys[t], PyTuple_GET_ITEM(r, t))) {
            Py_DECREF(r);
            return -1;
        }
    Py_DECREF(r);
    return 0;
}

/* ``_dropped``: closed set j dropped (its dice back to the roll). */
static int drop(Asg *a, PyObject *asg, int j) {
    long v[DICE], gain = 0, spent = 0;
    memcpy(v, a->v, sizeof v);
    PyObject *sets = PyList_New(0);
    if (!sets) return -1;
    for (int n = 0; n < a->nsets; n++) {
        Set *st = &a->sets[n];
        if (n == j) {
            for (int t = 0; t < st->nd; t++) v[st->d[t]] = a->rolled[st->d[t]];
            continue;
        }
        for (int t = 0; t < st->nd; t++) spent += labs(v[st->d[t]] - a->rolled[st->d[t]]);
        gain += combo_of(a, st)->gain[a->role];
        PyObject **it = PySequence_Fast_ITEMS(PyList_GET_ITEM(a->sets_obj, n));
        long d[DICE];
        for (int t = 0; t < st->nd; t++) d[t] = st->d[t];
        PyObject *row = PyList_New(3), *dice = int_list(d, st->nd);
        if (!row || !dice || PyList_Append(sets, row)) {
            Py_XDECREF(row);
            Py_XDECREF(dice);
            Py_DECREF(sets);
            return -1;
        }
        PyList_SET_ITEM(row, 0, ref(it[0]));
        PyList_SET_ITEM(row, 1, ref(it[1]));
        PyList_SET_ITEM(row, 2, dice);
        Py_DECREF(row);
    }
    /* sets (built already) first: put() takes it even when it fails, and the
     * values after it are built only when reached */
    return put(asg, S_sets, sets) || put(asg, S_v, int_list(v, DICE)) ||
                   put(asg, S_gain, PyLong_FromLong(gain)) ||
                   put(asg, S_spent, PyLong_FromLong(spent))
               ? -1
               : 0;
}

/* The closed sets as a finished assignment's event shows them: [slot, k,
 * dice, their values] each (``_h_assign``); NULL to decline or on error. */
static PyObject *shown_sets(PyObject *asg) {
    PyObject *sets = get(asg, S_sets);
    long v[DICE];
    if (!sets || !PyList_CheckExact(sets) || !read_ints(get(asg, S_v), v)) return NULL;
    PyObject *out = PyList_New(PyList_GET_SIZE(sets));
    if (!out) return NULL;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(sets); j++) {
        Set st;
        PyObject *row;
        if (!read_set(PyList_GET_ITEM(sets, j), &st) || !(row = PyList_New(4))) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, j, row);
        PyObject **it = PySequence_Fast_ITEMS(PyList_GET_ITEM(sets, j));
        long d[DICE], x[DICE];
        for (int t = 0; t < st.nd; t++) {
            d[t] = st.d[t];
            x[t] = v[st.d[t]];
        }
        PyObject *dice = int_list(d, st.nd), *vals = int_list(x, st.nd);
        PyList_SET_ITEM(row, 0, ref(it[0]));
        PyList_SET_ITEM(row, 1, ref(it[1]));
        PyList_SET_ITEM(row, 2, dice ? dice : ref(Py_None));
        PyList_SET_ITEM(row, 3, vals ? vals : ref(Py_None));
        if (!dice || !vals) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* A dice step (``_h_assign``'s) on the new record ``asg`` (a copy of the
 * old): 0, 1 to decline, -1 an error. Not the module's ``step()``
 * (commit.h's py_step), which calls it through assign_step. */
static int dice_step(Asg *a, PyObject *asg, int kind, int i, int k, PyObject *state,
                     long me) {
    long v[DICE];
    memcpy(v, a->v, sizeof v);
    switch (kind) {
    case A_AUTO: {
        int r = load_proposal(a, asg, state, me);
        if (r) return r;
        return PyDict_SetItem(asg, S_open, Py_None) ||
               PyDict_SetItem(asg, S_done, Py_True);
    }
    case A_BEST:
        return load_proposal(a, asg, state, me);
    case A_DONE:
        return PyDict_SetItem(asg, S_done, Py_True);
    case A_DROP:
        return drop(a, asg, i);
    case A_RESET:
        return put(asg, S_v, PySequence_List(a->rolled_obj)) ||
               put(asg, S_sets, PyList_New(0)) ||
               put(asg, S_gain, PyLong_FromLong(0)) ||
               put(asg, S_spent, PyLong_FromLong(0));
    case A_CANCEL: {
        long spent = a->spent;
        for (int t = 0; t < a->op.nd; t++) {
            int d = a->op.d[t];
            spent -= labs(v[d] - a->rolled[d]);
            v[d] = a->rolled[d];
        }
        return put(asg, S_spent, PyLong_FromLong(spent)) ||
               put(asg, S_v, int_list(v, DICE)) || PyDict_SetItem(asg, S_open, Py_None);
    }
    case A_SET: {
        PyObject *op = PyList_New(3), *dice = PyList_New(0);
        if (!op || !dice) {
            Py_XDECREF(op);
            Py_XDECREF(dice);
            return -1;
        }
        PyList_SET_ITEM(op, 0, PyLong_FromLong(i)); /* small ints: cached */
        PyList_SET_ITEM(op, 1, PyLong_FromLong(k));
        PyList_SET_ITEM(op, 2, dice);
        return put(asg, S_open, op);
    }
    case A_DIE: {
        PyObject *op = open_set(a, i);
        if (!op || PyDict_SetItem(asg, S_open, op)) {
            Py_XDECREF(op);
            return -1;
        }
        int r = maybe_close(a, asg, op, v, i);
        Py_DECREF(op);
        return r;
    }
    default: { /* up, down */
        long before = labs(v[i] - a->rolled[i]);
        v[i] += kind == A_UP ? 1 : -1;
        if (put(asg, S_spent, PyLong_FromLong(a->spent + labs(v[i] - a->rolled[i]) - before)) ||
            put(asg, S_v, int_list(v, DICE)))
            return -1;
        PyObject *op = open_set(a, -1);
        if (!op || PyDict_SetItem(asg, S_open, op)) {
            Py_XDECREF(op);
            return -1;
        }
        int r = maybe_close(a, asg, op, v, -1);
        Py_DECREF(op);
        return r;
    }
    }
}
