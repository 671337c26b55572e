/* Kung Fu (2019): the draft's and the play's steps in C, included by
 * _fastassign.c after fight.h (whose next-fight code the last card played
 * uses).
 *
 * Why: a draft pick and a card played are a third of a random game's steps,
 * and in Python (engine.py's ``apply``: handlers.py's ``_is_legal`` then
 * ``_h_pick`` or ``_h_play``) they cost 23,500 and 37,300 instructions a step
 * (callgrind), a fifth of all a game's, most of it the interpreter's own. The
 * same rules here, handlers.py's and rounds.py's functions being the
 * reference for every field and event in their order: ``_h_pick`` (the
 * draft's pass of the packs when the last seat has kept its card),
 * ``_h_play`` and, when the last card is in, ``_reveal`` and ``_next_fight``.
 *
 * ``step`` (``pick_step``, ``play_step``) declines (None) whatever else: an
 * illegal step (Python raises), the draft's last pass (``_start_status``),
 * tied initiative totals (a shuffle breaks the tie), a first fight with dice
 * stacked or nobody to assign, a malformed state. Held equal to Python's ``apply`` by
 * tests/rules/test_kungfu2019_commit.py. */

/* Cards a pack or hand holds at most: a bound on alphabet.py's HAND
 * (init_commit() refuses a larger one), the size of the buffers here. */
#define HAND_MAX 16

static PyObject *CODE_OF[128];    /* from init_commit(): a card's code */
static PyObject *PICK_ARG_D, *PLAY_ARG_D, *DRAFT_PH; /* from init_commit() */
static long HAND_N;               /* from init_commit(): alphabet.py's HAND */

static PyObject *S_pick, *S_commit_ev, *S_draft_pass, *S_reveal, *S_card,
    *S_count, *S_turn, *S_pack_size, *S_pack, *S_packs, *S_picks, *S_hands,
    *S_deck, *S_totals, *S_dummy_total, *S_tiebreak;
static PyObject *SEAT_T, *CARD_T, *COUNT_T, *PASS_T, *PACK_T, *REVEAL_T;
static PyObject *SEAT_K[1], *CARD_K[1], *COUNT_K[2], *PASS_K[2], *PACK_K[1],
    *REVEAL_K[7];

/* ``s`` without every ``ch`` (``str.replace(ch, "")``), a new str. */
static PyObject *without(PyObject *s, int ch) {
    const char *c = (const char *)PyUnicode_1BYTE_DATA(s);
    char buf[HAND_MAX];
    Py_ssize_t n = 0;
    for (Py_ssize_t j = 0; j < PyUnicode_GET_LENGTH(s); j++)
        if (c[j] != ch) buf[n++] = c[j];
    return PyUnicode_FromStringAndSize(buf, n);
}

/* A list of str of cards, n of them, each at most max long, or 0. */
static int card_strs(PyObject *x, Py_ssize_t n, Py_ssize_t max) {
    if (!x || !PyList_CheckExact(x) || PyList_GET_SIZE(x) != n) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len;
        if (!cards(PyList_GET_ITEM(x, i), max, &len)) return 0;
    }
    return 1;
}

/* The card codes of a str of cards (sorted when ``sorted``), a new list. */
static PyObject *codes(PyObject *s, int sorted) {
    const unsigned char *c = PyUnicode_1BYTE_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    unsigned char k[HAND_MAX];
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_ssize_t u = j;
        if (sorted)
            while (u > 0 && k[u - 1] > c[j]) {
                k[u] = k[u - 1];
                u--;
            }
        k[u] = c[j];
    }
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t j = 0; j < n; j++) PyList_SET_ITEM(out, j, ref(CODE_OF[k[j]]));
    return out;
}

/* A commit event {"type": type, "public": public, "private": {seat: {"card":
 * code}}}; steals public. */
static PyObject *card_event(PyObject *type, PyObject *public, long me, int ch) {
    PyObject *cv[1] = {ref(CODE_OF[ch])};
    PyObject *ov[1] = {build(CARD_T, CARD_K, cv, 1)};
    PyObject *v[3] = {ref(type), public, build(PRIV_T[me], &SEAT_KEY[me], ov, 1)};
    return build(EV_T, EV_KEYS, v, 3);
}

/* The step's result (s, [events...]); steals s and the events (NULL: an
 * error raised, all dropped). */
static PyObject *result(PyObject *s, PyObject **ev, int n) {
    PyObject *l = PyList_New(n);
    int bad = !s || !l;
    for (int j = 0; j < n; j++) {
        bad |= ev[j] == NULL;
        if (l) PyList_SET_ITEM(l, j, ev[j] ? ev[j] : ref(Py_None));
        else Py_XDECREF(ev[j]);
    }
    if (bad) {
        Py_XDECREF(s);
        Py_XDECREF(l);
        return NULL;
    }
    return Py_BuildValue("(NN)", s, l);
}

/* ``_h_pick``: a draft pick (and the pass when it is the last). */
static PyObject *pick_step(PyObject *state, PyObject **fl, long n, long me,
                           PyObject *seat, PyObject *aid) {
    PyObject *chs = get(PICK_ARG_D, aid), *packs = fl[F_packs], *picks = fl[F_picks];
    long turn;
    if (!chs || !card_strs(packs, n, HAND_MAX) || !card_strs(picks, n, 1) ||
        !small(fl[F_turn], &turn) || !card_strs(fl[F_hands], n, HAND_MAX - 1))
        DECLINE();
    int ch = PyUnicode_1BYTE_DATA(chs)[0];
    PyObject *mine = PyList_GET_ITEM(packs, me);
    if (PyUnicode_GET_LENGTH(PyList_GET_ITEM(picks, me)) ||
        !memchr(PyUnicode_1BYTE_DATA(mine), ch, PyUnicode_GET_LENGTH(mine)))
        DECLINE();
    int last = 1;
    for (long i = 0; i < n; i++)
        if (i != me && !PyUnicode_GET_LENGTH(PyList_GET_ITEM(picks, i))) last = 0;
    if (last && turn + 1 >= HAND_N) DECLINE(); /* _start_status: Python's */
    PyObject *s = PyDict_Copy(state);
    PyObject *np = PyList_GetSlice(packs, 0, n), *nk = PyList_GetSlice(picks, 0, n);
    PyObject *rest = without(mine, ch);
    if (!s || !np || !nk || !rest) {
        Py_XDECREF(s);
        Py_XDECREF(np);
        Py_XDECREF(nk);
        Py_XDECREF(rest);
        return NULL;
    }
    PyList_SetItem(np, me, rest);
    PyList_SetItem(nk, me, ref(chs));
    PyObject *pv[1] = {ref(seat)};
    PyObject *ev[2] = {card_event(S_pick, build(SEAT_T, SEAT_K, pv, 1), me, ch), NULL};
    if (!last) {
        int bad = put(s, S_packs, np); /* takes np either way; nk is ours */
        if (bad) Py_DECREF(nk);
        if (bad || put(s, S_picks, nk)) {
            Py_XDECREF(ev[0]);
            Py_DECREF(s);
            return NULL;
        }
        return result(s, ev, 1);
    }
    /* the pass: each seat's pick into its hand, the packs to the left */
    PyObject *hands = PyList_New(n), *rot = PyList_New(n),
             *priv = PyDict_New();
    int bad = !hands || !rot || !priv;
    for (long i = 0; !bad && i < n; i++) {
        PyObject *h = PyUnicode_Concat(PyList_GET_ITEM(fl[F_hands], i),
                                       PyList_GET_ITEM(nk, i));
        PyList_SET_ITEM(hands, i, h ? h : ref(Py_None));
        PyList_SET_ITEM(rot, i, ref(PyList_GET_ITEM(np, (i + n - 1) % n)));
        bad |= !h;
    }
    for (long i = 0; !bad && i < n; i++) {
        PyObject *kv[1] = {codes(PyList_GET_ITEM(rot, i), 1)};
        bad |= put(priv, SEAT_KEY[i], build(PACK_T, PACK_K, kv, 1)) != 0;
    }
    Py_DECREF(np);
    Py_DECREF(nk);
    if (bad) {
        Py_XDECREF(hands);
        Py_XDECREF(rot);
        Py_XDECREF(priv);
        Py_XDECREF(ev[0]);
        Py_DECREF(s);
        return NULL;
    }
    PyObject *tv[2] = {num(turn + 1), num(PyUnicode_GET_LENGTH(PyList_GET_ITEM(rot, 0)))};
    PyObject *v[3] = {ref(S_draft_pass), build(PASS_T, PASS_K, tv, 2), priv};
    ev[1] = build(EV_T, EV_KEYS, v, 3);
    bad = put(s, S_hands, hands); /* takes hands either way; rot is ours */
    if (bad) Py_DECREF(rot);
    if (bad || put(s, S_packs, rot) ||
        put(s, S_picks, repeat(EMPTY_STR, n)) || put(s, S_turn, num(turn + 1))) {
        Py_XDECREF(ev[0]);
        Py_XDECREF(ev[1]);
        Py_DECREF(s);
        return NULL;
    }
    return result(s, ev, 2);
}

/* The reveal event (``_reveal``), a new reference. */
static PyObject *reveal_event(End *e, PyObject *played, const long *totals,
                              PyObject *dummy, long dummy_total) {
    PyObject *pl = PyList_New(e->n), *tl = PyList_New(e->n);
    if (!pl || !tl) {
        Py_XDECREF(pl);
        Py_XDECREF(tl);
        return NULL;
    }
    int bad = 0;
    for (Py_ssize_t i = 0; i < e->n; i++) {
        PyObject *p = PyList_GET_ITEM(played, i);
        PyObject *c = PyUnicode_GET_LENGTH(p) ? codes(p, 0) : ref(Py_None);
        PyObject *t = e->elim[i] ? ref(Py_None) : num(totals[i]);
        PyList_SET_ITEM(pl, i, c ? c : ref(Py_None));
        PyList_SET_ITEM(tl, i, t ? t : ref(Py_None));
        bad |= !c || !t;
    }
    if (bad) {
        Py_DECREF(pl);
        Py_DECREF(tl);
        return NULL;
    }
    int has = PyUnicode_GET_LENGTH(dummy) > 0;
    PyObject *v[7] = {num(e->round), pl, tl, has ? codes(dummy, 0) : ref(Py_None),
                      has ? num(dummy_total) : ref(Py_None),
                      int_list(e->order, (int)e->norder), ref(Py_None)};
    return event(S_reveal, build(REVEAL_T, REVEAL_K, v, 7));
}

/* ``_h_play``: a card committed (and when it is the round's last, the
 * reveal and the first fight). */
static PyObject *play_step(PyObject *state, PyObject **fl, long n, long me,
                           PyObject *seat, PyObject *aid) {
    PyObject *chs = get(PLAY_ARG_D, aid), *hands = fl[F_hands], *commit = fl[F_commit];
    End e;
    e.n = n;
    if (!chs || !card_strs(hands, n, HAND_MAX) || !card_strs(commit, n, PLAY) ||
        !read_longs(fl[F_elim], e.elim, n, n, NULL) || e.elim[me])
        DECLINE();
    int ch = PyUnicode_1BYTE_DATA(chs)[0];
    PyObject *hand = PyList_GET_ITEM(hands, me), *mine = PyList_GET_ITEM(commit, me);
    if (PyUnicode_GET_LENGTH(mine) >= PLAY ||
        !memchr(PyUnicode_1BYTE_DATA(hand), ch, PyUnicode_GET_LENGTH(hand)))
        DECLINE();
    int last = 1;
    for (long i = 0; i < n; i++)
        if (i != me && !e.elim[i] && PyUnicode_GET_LENGTH(PyList_GET_ITEM(commit, i)) != PLAY)
            last = 0;
    last &= PyUnicode_GET_LENGTH(mine) + 1 == PLAY;
    long totals[MAXN] = {0}, dummy_total = 0;
    /* this seat's cards with ch last: e.played[me] points here, so it lives
     * as long as e */
    unsigned char last_cards[PLAY];
    const unsigned char *deck = NULL;
    Py_ssize_t ndeck = 0;
    PyObject *played = NULL;
    if (last) { /* _reveal, without a tie; then the first fight */
        if (!small(fl[F_round], &e.round) || !fl[F_tracks] ||
            !PyList_CheckExact(fl[F_tracks]) || PyList_GET_SIZE(fl[F_tracks]) != n ||
            (n == 2 && (!(deck = cards(fl[F_deck], 128, &ndeck)) || ndeck < PLAY)))
            DECLINE();
        for (long i = 0; i < n; i++) {
            if (!read_longs(PyList_GET_ITEM(fl[F_tracks], i), e.tracks[i], NSTAT, NSTAT,
                            NULL))
                DECLINE();
            PyObject *p = PyList_GET_ITEM(commit, i);
            e.played[i] = PyUnicode_1BYTE_DATA(p);
            e.nplayed[i] = e.elim[i] ? 0 : PyUnicode_GET_LENGTH(p);
            if (i == me) e.nplayed[i] = PLAY; /* its last card: ch */
            for (Py_ssize_t t = 0; t < e.nplayed[i]; t++)
                totals[i] += INIT_OF[i == me && t == PLAY - 1 ? ch : e.played[i][t]];
        }
        e.norder = 0;
        for (long i = 0; i < n; i++) { /* alive seats by total (no tie) */
            if (e.elim[i]) continue;
            Py_ssize_t u = e.norder++;
            while (u > 0 && totals[e.order[u - 1]] >= totals[i]) {
                if (totals[e.order[u - 1]] == totals[i]) DECLINE(); /* a tie */
                e.order[u] = e.order[u - 1];
                u--;
            }
            e.order[u] = i;
        }
        if (n == 2) { /* the dummy: the top three of the deck, after ties */
            for (int t = 0; t < PLAY; t++) dummy_total += INIT_OF[deck[ndeck - 1 - t]];
            Py_ssize_t pos = 0;
            for (Py_ssize_t j = 0; j < e.norder; j++) pos += totals[e.order[j]] <= dummy_total;
            memmove(&e.order[pos + 1], &e.order[pos], (e.norder - pos) * sizeof(long));
            e.order[pos] = DUMMY;
            e.norder++;
        }
        e.next = (int)e.order[0];
        e.oi = 0;
        e.ndummy = 0;
        /* the fighters' cards: the commits, the last one with ch */
        memcpy(last_cards, PyUnicode_1BYTE_DATA(mine), PLAY - 1);
        last_cards[PLAY - 1] = (unsigned char)ch;
        e.played[me] = last_cards;
        if (!plan_fight(fl, &e)) DECLINE();
    }
    PyObject *s = PyDict_Copy(state), *nh = PyList_GetSlice(hands, 0, n),
             *nc = PyList_GetSlice(commit, 0, n), *rest = without(hand, ch),
             *more = PyUnicode_FromFormat("%U%c", mine, ch);
    PyObject *ev[3] = {NULL, NULL, NULL};
    if (!s || !nh || !nc || !rest || !more) goto fail;
    PyList_SetItem(nh, me, rest);
    PyList_SetItem(nc, me, more);
    rest = more = NULL;
    PyObject *cv[2] = {ref(seat), num(PyUnicode_GET_LENGTH(PyList_GET_ITEM(nc, me)))};
    if (!(ev[0] = card_event(S_commit_ev, build(COUNT_T, COUNT_K, cv, 2), me, ch)))
        goto fail;
    int bad = put(s, S_hands, nh); /* steals nh either way */
    nh = NULL;
    if (bad) goto fail;
    if (!last) {
        if (put(s, S_commit, nc)) {
            nc = NULL;
            goto fail;
        }
        return result(s, ev, 1);
    }
    /* _reveal: the played cards (the alive seats' commits), the dummy's */
    if (!(played = PyList_New(n))) goto fail;
    for (long i = 0; i < n; i++)
        PyList_SET_ITEM(played, i, ref(e.elim[i] ? EMPTY_STR : PyList_GET_ITEM(nc, i)));
    PyObject *dummy = EMPTY_STR;
    if (n == 2) {
        unsigned char top[PLAY];
        for (int t = 0; t < PLAY; t++) top[t] = deck[ndeck - 1 - t];
        dummy = PyUnicode_FromStringAndSize((const char *)top, PLAY);
        if (!dummy || put(s, S_deck, PyUnicode_FromStringAndSize((const char *)deck,
                                                                 ndeck - PLAY)) ||
            PyDict_SetItem(s, S_dummy, dummy)) {
            Py_XDECREF(dummy);
            goto fail;
        }
    } else {
        Py_INCREF(dummy);
    }
    ev[1] = reveal_event(&e, played, totals, dummy, dummy_total);
    Py_DECREF(dummy);
    if (!ev[1] || put(s, S_played, ref(played)) ||
        put(s, S_commit, repeat(EMPTY_STR, n)) ||
        put(s, S_order, int_list(e.order, (int)e.norder)) || put(s, S_oi, num(0)))
        goto fail;
    PyObject *rest_ev = PyList_New(0);
    if (!rest_ev || start_fight(&e, s, rest_ev)) {
        Py_XDECREF(rest_ev);
        goto fail;
    }
    ev[2] = ref(PyList_GET_ITEM(rest_ev, 0));
    Py_DECREF(rest_ev);
    Py_DECREF(played);
    Py_DECREF(nc);
    return result(s, ev, 3);
fail:
    Py_XDECREF(s);
    Py_XDECREF(nh);
    Py_XDECREF(nc);
    Py_XDECREF(rest);
    Py_XDECREF(more);
    Py_XDECREF(played);
    for (int j = 0; j < 3; j++) Py_XDECREF(ev[j]);
    return NULL;
}

/* step(state, seat, action_id): a draft, play or dice step, or None. */
static PyObject *py_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *fl[F_COUNT];
    long me, n;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "step(state, seat, action_id)");
        return NULL;
    }
    PyObject *state = args[0], *seat = args[1], *aid = args[2];
    if (!DRAFT_PH || !PyUnicode_CheckExact(aid) || !check_seat(state, seat, &me))
        DECLINE();
    if (read_fields(state, STATE_KEYS, F_COUNT, fl)) return NULL;
    PyObject *rv = fl[F_rules_version], *ph = fl[F_phase];
    if (!small(fl[F_n], &n) || n < 2 || n > MAXN || !rv || !ph ||
        !PyUnicode_CheckExact(rv) || PyUnicode_Compare(rv, RULES_VERSION) != 0 ||
        !PyUnicode_CheckExact(ph))
        DECLINE();
    if (ph == ASSIGN || PyUnicode_Compare(ph, ASSIGN) == 0)
        return assign_step(state, seat, aid);
    if (PyUnicode_Compare(ph, DRAFT_PH) == 0)
        return pick_step(state, fl, n, me, seat, aid);
    if (PyUnicode_Compare(ph, PLAYING) == 0)
        return play_step(state, fl, n, me, seat, aid);
    DECLINE();
}

/* Per card character its pick and play ids (the keys of PICK_ARG_D and
 * PLAY_ARG_D, borrowed: those dicts are kept). */
static PyObject *PICK_ID_OF[128], *PLAY_ID_OF[128];

/* The menu of a pack or hand (``_PICK_MENUS``, ``_PLAY_MENUS``): its cards'
 * ids by card, a new list; None to decline. */
static PyObject *pile_ids(PyObject *pile, PyObject **ids_of) {
    const unsigned char *c;
    Py_ssize_t n;
    unsigned char k[HAND_MAX];
    if (!(c = cards(pile, HAND_MAX, &n))) DECLINE();
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_ssize_t u = j;
        while (u > 0 && k[u - 1] > c[j]) {
            k[u] = k[u - 1];
            u--;
        }
        k[u] = c[j];
        if (!ids_of[c[j]]) DECLINE();
    }
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t j = 0; j < n; j++) PyList_SET_ITEM(out, j, ref(ids_of[k[j]]));
    return out;
}

/* ids(state, seat): ``legal_action_ids``, or None to decline. */
static PyObject *py_ids(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *fl[F_COUNT];
    long me, n, x;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "ids(state, seat)");
        return NULL;
    }
    PyObject *state = args[0], *seat = args[1];
    if (!DRAFT_PH || !check_seat(state, seat, &me)) DECLINE();
    if (read_fields(state, STATE_KEYS, F_COUNT, fl)) return NULL;
    PyObject *ph = fl[F_phase];
    if (!small(fl[F_n], &n) || n < 2 || n > MAXN || !ph || !PyUnicode_CheckExact(ph))
        DECLINE();
    if (ph == ASSIGN || PyUnicode_Compare(ph, ASSIGN) == 0) {
        Asg a;
        int r = read_asg(state, me, &a);
        if (r == 2) return PyList_New(0);
        if (r != 1) DECLINE();
        return menu(&a);
    }
    if (PyUnicode_Compare(ph, DRAFT_PH) == 0) {
        PyObject *picks = fl[F_picks], *packs = fl[F_packs];
        if (!card_strs(picks, n, 1) || !packs || !PyList_CheckExact(packs) ||
            PyList_GET_SIZE(packs) != n)
            DECLINE();
        if (PyUnicode_GET_LENGTH(PyList_GET_ITEM(picks, me))) return PyList_New(0);
        return pile_ids(PyList_GET_ITEM(packs, me), PICK_ID_OF);
    }
    if (PyUnicode_Compare(ph, PLAYING) == 0) {
        PyObject *elim = fl[F_elim], *commit = fl[F_commit], *hands = fl[F_hands];
        if (!elim || !PyList_CheckExact(elim) || PyList_GET_SIZE(elim) != n ||
            !small(PyList_GET_ITEM(elim, me), &x) || !card_strs(commit, n, HAND_MAX) ||
            !hands || !PyList_CheckExact(hands) || PyList_GET_SIZE(hands) != n)
            DECLINE();
        if (x || PyUnicode_GET_LENGTH(PyList_GET_ITEM(commit, me)) >= PLAY)
            return PyList_New(0);
        return pile_ids(PyList_GET_ITEM(hands, me), PLAY_ID_OF);
    }
    DECLINE(); /* over, or another phase: Python's */
}

/* init_commit(codes, pick_arg, play_arg, draft, hand). */
static PyObject *py_init_commit(PyObject *self, PyObject *args) {
    PyObject *codes_t, *pick_arg, *play_arg, *draft;
    long hand;
    if (!PyArg_ParseTuple(args, "O!O!O!Ul:init_commit", &PyTuple_Type, &codes_t,
                          &PyDict_Type, &pick_arg, &PyDict_Type, &play_arg, &draft,
                          &hand))
        return NULL;
    if (PyTuple_GET_SIZE(codes_t) != 128 || hand < 1 || hand > HAND_MAX) {
        PyErr_SetString(PyExc_ValueError, "init_commit: 128 codes, a hand of 1-16");
        return NULL;
    }
    for (int ch = 0; ch < 128; ch++) {
        PyObject *c = PyTuple_GET_ITEM(codes_t, ch);
        Py_INCREF(c);
        Py_XSETREF(CODE_OF[ch], c);
    }
    /* every id's card: one character that is a card with a code */
    PyObject *dicts[2] = {pick_arg, play_arg};
    for (int j = 0; j < 2; j++) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(dicts[j], &pos, &k, &v))
            if (!PyUnicode_CheckExact(v) || PyUnicode_GET_LENGTH(v) != 1 ||
                PyUnicode_READ_CHAR(v, 0) >= 128 ||
                CODE_OF[PyUnicode_READ_CHAR(v, 0)] == Py_None ||
                NCOMBO[PyUnicode_READ_CHAR(v, 0)] < 0) {
                PyErr_SetString(PyExc_ValueError, "init_commit: an id of no card");
                return NULL;
            }
    }
    for (int j = 0; j < 2; j++) {
        PyObject **ids_of = j ? PLAY_ID_OF : PICK_ID_OF;
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        memset(ids_of, 0, 128 * sizeof(PyObject *));
        while (PyDict_Next(dicts[j], &pos, &k, &v)) ids_of[PyUnicode_READ_CHAR(v, 0)] = k;
    }
    Py_INCREF(pick_arg);
    Py_XSETREF(PICK_ARG_D, pick_arg);
    Py_INCREF(play_arg);
    Py_XSETREF(PLAY_ARG_D, play_arg);
    Py_INCREF(draft);
    Py_XSETREF(DRAFT_PH, draft);
    HAND_N = hand;
    Py_RETURN_NONE;
}

/* The strings and templates (at import). 0, or -1 with an exception. */
static int commit_module_init(void) {
#define S(var, text) \
    if (!(var = PyUnicode_InternFromString(text))) return -1;
    S(S_pick, "pick") S(S_commit_ev, "commit") S(S_draft_pass, "draft_pass")
    S(S_reveal, "reveal") S(S_card, "card") S(S_count, "count") S(S_turn, "turn")
    S(S_pack_size, "pack_size") S(S_pack, "pack") S(S_packs, "packs")
    S(S_picks, "picks") S(S_hands, "hands") S(S_deck, "deck") S(S_totals, "totals")
    S(S_dummy_total, "dummy_total") S(S_tiebreak, "tiebreak")
#undef S
    SEAT_K[0] = S_seat;
    CARD_K[0] = S_card;
    COUNT_K[0] = S_seat;
    COUNT_K[1] = S_count;
    PASS_K[0] = S_turn;
    PASS_K[1] = S_pack_size;
    PACK_K[0] = S_pack;
    PyObject *reveal[7] = {S_round, S_played, S_totals, S_dummy, S_dummy_total,
                           S_order, S_tiebreak};
    memcpy(REVEAL_K, reveal, sizeof reveal);
    if (!(SEAT_T = template(SEAT_K, 1)) || !(CARD_T = template(CARD_K, 1)) ||
        !(COUNT_T = template(COUNT_K, 2)) || !(PASS_T = template(PASS_K, 2)) ||
        !(PACK_T = template(PACK_K, 1)) || !(REVEAL_T = template(REVEAL_K, 7)))
        return -1;
    return 0;
}
