/* Kung Fu (2019): the end of a fight in C, included by _fastassign.c after
 * dice.h's readers (read_set, small) and its own templates (EV_T; observe.h's
 * build).
 *
 * Why: when the last fighter finishes its dice (about one ``auto`` or
 * ``done`` in three), rounds.py's ``_resolve`` settles the fight and
 * ``_next_fight`` rolls the next one or ``_end_round`` opens the next round:
 * about 150,000 instructions in Python (callgrind), 4% of a random game's
 * steps but a tenth of all its instructions (issue 33 §2). The same rules
 * here, rounds.py's functions (``_resolve``, ``_effects``, ``_next_fight``,
 * ``_start_fight``, ``_roll``, ``_end_round``, ``_new_round``) being the
 * reference for every field and event, in their order.
 *
 * ``resolve(s, ev)`` settles the fight of the state ``s`` (a copy the caller
 * owns, its ``fight`` the finished one) and appends the events to ``ev``, or
 * declines (0) having changed neither: a game that ends (``_finish``), dice
 * stacked by the config (tests and tools), a next fight in which no fighter
 * has dice to assign (``_start_fight`` resolves it at once), a malformed
 * state. The caller then runs rounds.py's ``_resolve``. Held equal to it by
 * tests/rules/test_kungfu2019_fight.py. */

#include "../splitmix.h" /* gameplay/rules/rng.py in C: next64 */

#define MAXN 8            /* seats at most (config.py allows 2-5) */
#define NSTAT 5           /* alphabet.py's STAT: hp atk def hit avo */
#define DUMMY (-1)        /* phases.py's DUMMY attacker */
#define SIX7 279936UL     /* 6 ** DICE */

#include "state_fields.h" /* F_*, STATE_KEYS: the state's fields */

/* Per card character, from init_fight(): its initiative; per role (0 attack,
 * 1 defence) its red crosses' (main, gain, extra), whether a combination of
 * it needs dice and acts in the role (USABLE), and per combination the
 * effect's (main, extra): (atk, hp) attacking, (def, yin-yang) defending. */
static int INIT_OF[128], CROSS_OF[128][2][3], USABLE_OF[128][2];
static int EFFECT_OF[128][MAXK][2][2];
static long STAT_STEP[NSTAT], ROUNDS_MAX;
static PyObject *PLAYING; /* phases.py's PLAYING phase */

static PyObject *S_fight_ev, *S_eliminated_ev, *S_round_end, *S_round, *S_attack,
    *S_oi, *S_order, *S_elim, *S_hp, *S_nfight, *S_rng, *S_dummy, *S_discard,
    *S_commit, *S_f, *S_attacker, *S_fighters, *S_auto_done, *S_attack_k,
    *S_attacker_hp_change, *S_yin_yang_damage, *S_attacker_hp, *S_assignments,
    *S_defenders, *S_values, *S_defence, *S_yin_yang, *S_damage, *S_eliminated,
    *S_alive;
static PyObject *EMPTY_STR;

/* Templates of the dicts built here (keys in rounds.py's order). */
static PyObject *FIGHT_PUB_T, *SHOWN_T, *DEFENDER_T, *ELIM_T, *ROUND_END_T,
    *ROUND_T, *ATTACK_T, *ASG_T, *FIGHT_T;
static PyObject *FIGHT_PUB_K[8], *SHOWN_K[4], *DEFENDER_K[6], *ELIM_K[2],
    *ROUND_END_K[2], *ROUND_K[2], *ATTACK_K[5], *ASG_K[7], *FIGHT_K[4];

/* An event {"type": type, "public": public, "private": {}}; steals public. */
static PyObject *event(PyObject *type, PyObject *public) {
    PyObject *v[3] = {ref(type), public, PyDict_New()};
    return build(EV_T, EV_KEYS, v, 3);
}

/* A new list of n ints read through idx. */
static PyObject *picked(const long *v, const int *idx, int n) {
    long x[DICE];
    for (int t = 0; t < n; t++) x[t] = v[idx[t]];
    return int_list(x, n);
}

/* A fighter's record as the fight's end reads it. */
typedef struct {
    long v[DICE], spent;
    int nsets;
    Set sets[DICE];
} Done;

/* A list of small ints of length n (n < 0: any length up to max), or 0. */
static int read_longs(PyObject *x, long *out, Py_ssize_t n, Py_ssize_t max,
                      Py_ssize_t *len) {
    if (!x || !PyList_CheckExact(x)) return 0;
    Py_ssize_t m = PyList_GET_SIZE(x);
    if ((n >= 0 && m != n) || m > max) return 0;
    for (Py_ssize_t i = 0; i < m; i++)
        if (!small(PyList_GET_ITEM(x, i), &out[i])) return 0;
    if (len) *len = m;
    return 1;
}

/* A str of cards (ASCII, each a card character) of at most max, or NULL. */
static const unsigned char *cards(PyObject *x, Py_ssize_t max, Py_ssize_t *len) {
    if (!x || !PyUnicode_CheckExact(x) || !PyUnicode_IS_ASCII(x) ||
        PyUnicode_GET_LENGTH(x) > max)
        return NULL;
    const unsigned char *c = PyUnicode_1BYTE_DATA(x);
    *len = PyUnicode_GET_LENGTH(x);
    for (Py_ssize_t j = 0; j < *len; j++)
        if (NCOMBO[c[j]] < 0) return NULL;
    return c;
}

/* rounds.py's ``_effects``: (main, extra) of a fighter in a role. */
static void effects(const unsigned char *played, Py_ssize_t np, const long *track,
                    const Done *d, int role, long *main, long *extra) {
    int stat = role == 0 ? 1 : 2; /* atk, def */
    *main = track[stat] * STAT_STEP[stat];
    *extra = 0;
    for (Py_ssize_t j = 0; j < np; j++) {
        *main += CROSS_OF[played[j]][role][0];
        *extra += CROSS_OF[played[j]][role][2];
    }
    for (int j = 0; j < d->nsets; j++) {
        const int *e = EFFECT_OF[played[d->sets[j].slot]][d->sets[j].k][role];
        *main += e[0];
        *extra += e[1];
    }
}

/* The state's rng (16 lower-case hex digits) as its counter, or 0. */
static int read_rng(PyObject *x, uint64_t *c) {
    if (!x || !PyUnicode_CheckExact(x) || !PyUnicode_IS_ASCII(x) ||
        PyUnicode_GET_LENGTH(x) != 16)
        return 0;
    const char *h = (const char *)PyUnicode_1BYTE_DATA(x);
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        int d = h[i] >= '0' && h[i] <= '9'   ? h[i] - '0'
                : h[i] >= 'a' && h[i] <= 'f' ? h[i] - 'a' + 10
                                             : -1;
        if (d < 0) return 0;
        v = v << 4 | (uint64_t)d;
    }
    *c = v;
    return 1;
}

/* Everything the fight's end changes, computed before anything is built. */
typedef struct {
    Py_ssize_t n, nf, norder, nplayed[MAXN], ndummy, ndiscard;
    long a, round, oi, nfight, hp[MAXN], elim[MAXN], fighters[MAXN],
        order[MAXN + 1], tracks[MAXN][NSTAT];
    const unsigned char *played[MAXN], *dummy;
    Done done[MAXN];
    long atk, heal, yy_total, dv[MAXN], yy[MAXN], dmg[MAXN];
    int out[MAXN], nout, next; /* next: the next attacker, or 2 * DUMMY: none */
    /* the next fight */
    int nnf, nf_seat[MAXN], nf_done[MAXN], nauto;
    long rolls[MAXN][DICE], bud[MAXN];
    uint64_t rng;
} End;

static int plan_fight(PyObject **fl, End *e);

/* Read and settle; 1, or 0 to decline. */
static int settle(PyObject **fl, End *e) {
    long n;
    if (!small(fl[F_n], &n) || n < 2 || n > MAXN) return 0;
    e->n = n;
    PyObject *fight = fl[F_fight];
    if (!fight || !PyDict_CheckExact(fight) ||
        !read_longs(fl[F_hp], e->hp, n, n, NULL) ||
        !read_longs(fl[F_elim], e->elim, n, n, NULL) ||
        !read_longs(fl[F_order], e->order, -1, MAXN + 1, &e->norder) ||
        !small(fl[F_nfight], &e->nfight) || !small(fl[F_round], &e->round) ||
        !small(fl[F_oi], &e->oi) || !fl[F_played] || !PyList_CheckExact(fl[F_played]) ||
        PyList_GET_SIZE(fl[F_played]) != n || !fl[F_tracks] ||
        !PyList_CheckExact(fl[F_tracks]) || PyList_GET_SIZE(fl[F_tracks]) != n ||
        !(e->dummy = cards(fl[F_dummy], PLAY, &e->ndummy)) ||
        !cards(fl[F_discard], 128, &e->ndiscard))
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(e->played[i] = cards(PyList_GET_ITEM(fl[F_played], i), PLAY,
                                   &e->nplayed[i])) ||
            !read_longs(PyList_GET_ITEM(fl[F_tracks], i), e->tracks[i], NSTAT, NSTAT,
                        NULL))
            return 0;
    PyObject *fs = get(fight, S_f), *asgs = get(fight, S_asg);
    if (!small(get(fight, S_a), &e->a) || (e->a != DUMMY && (e->a < 0 || e->a >= n)) ||
        !read_longs(fs, e->fighters, -1, n, &e->nf) || !asgs ||
        !PyList_CheckExact(asgs) || PyList_GET_SIZE(asgs) != n)
        return 0;
    int seen = 0;
    for (Py_ssize_t j = 0; j < e->nf; j++) {
        long seat = e->fighters[j];
        if (seat < 0 || seat >= n || seen >> seat & 1 || e->elim[seat]) return 0;
        seen |= 1 << seat;
        PyObject *asg = PyList_GET_ITEM(asgs, seat);
        Done *d = &e->done[seat];
        PyObject *sets;
        if (!PyDict_CheckExact(asg) || !read_longs(get(asg, S_v), d->v, DICE, DICE, NULL) ||
            !small(get(asg, S_spent), &d->spent) || !(sets = get(asg, S_sets)) ||
            !PyList_CheckExact(sets) || PyList_GET_SIZE(sets) > DICE)
            return 0;
        d->nsets = (int)PyList_GET_SIZE(sets);
        for (int t = 0; t < d->nsets; t++) {
            Set *st = &d->sets[t];
            if (!read_set(PyList_GET_ITEM(sets, t), st) || st->slot >= e->nplayed[seat] ||
                st->k >= NCOMBO[e->played[seat][st->slot]])
                return 0;
        }
    }
    if (e->a != DUMMY && !(seen >> e->a & 1)) return 0;
    /* _resolve */
    if (e->a == DUMMY) {
        e->atk = 0;
        for (Py_ssize_t j = 0; j < e->ndummy; j++) e->atk += INIT_OF[e->dummy[j]];
        e->heal = 0;
    } else {
        effects(e->played[e->a], e->nplayed[e->a], e->tracks[e->a], &e->done[e->a], 0,
                &e->atk, &e->heal);
    }
    e->nfight += 1;
    e->yy_total = 0;
    e->nout = 0;
    for (Py_ssize_t j = 0; j < e->nf; j++) {
        long seat = e->fighters[j];
        if (seat == e->a) continue;
        effects(e->played[seat], e->nplayed[seat], e->tracks[seat], &e->done[seat], 1,
                &e->dv[seat], &e->yy[seat]);
        e->dmg[seat] = e->atk > e->dv[seat] ? e->atk - e->dv[seat] : 0;
        e->hp[seat] -= e->dmg[seat];
        if (e->hp[seat] <= 0) {
            e->elim[seat] = e->nfight;
            e->out[e->nout++] = (int)seat;
        } else {
            e->yy_total += e->yy[seat];
        }
    }
    if (e->a != DUMMY) {
        long h = e->hp[e->a] + e->heal - e->yy_total;
        e->hp[e->a] = h > 1 ? h : 1;
    }
    int alive = 0;
    for (Py_ssize_t i = 0; i < n; i++) alive += !e->elim[i];
    if (alive <= 1) return 0; /* _finish: Python's */
    /* _next_fight */
    e->oi += 1;
    e->next = 2 * DUMMY;
    while (e->oi >= 0 && e->oi < e->norder) {
        long a = e->order[e->oi];
        if (a != DUMMY && (a < 0 || a >= n)) return 0;
        if (a != DUMMY && e->elim[a]) {
            e->oi += 1;
            continue;
        }
        e->next = (int)a;
        break;
    }
    if (e->next == 2 * DUMMY) return e->round < ROUNDS_MAX; /* _end_round */
    return plan_fight(fl, e);
}

/* ``_start_fight``'s rolls and records for the attacker ``e->next`` (the
 * fighters every seat not in ``e->elim``, their cards ``e->played``): 1, or
 * 0 to decline (dice stacked by the config: Python's; nobody with dice to
 * assign: Python resolves that fight at once; a malformed state). */
static int plan_fight(PyObject **fl, End *e) {
    PyObject *cfg = fl[F_cfg], *stack;
    long di;
    if (!cfg || !PyDict_CheckExact(cfg) || !(stack = get(cfg, S_dice)) ||
        !(PyList_CheckExact(stack) || PyTuple_CheckExact(stack)) ||
        !small(fl[F_di], &di) || di < PySequence_Fast_GET_SIZE(stack) ||
        !read_rng(fl[F_rng], &e->rng))
        return 0;
    e->nnf = 0;
    e->nauto = 0;
    for (Py_ssize_t i = 0; i < e->n; i++) {
        if (e->elim[i]) continue;
        int j = e->nnf++;
        e->nf_seat[j] = (int)i;
        uint64_t x = next64(&e->rng) % SIX7; /* _roll: one draw */
        for (int t = 0; t < DICE; t++) {
            e->rolls[j][t] = (long)(x % 6) + 1;
            x /= 6;
        }
        int role = (long)i == e->next ? 0 : 1;
        long bud = e->tracks[i][role == 0 ? 3 : 4] * STAT_STEP[role == 0 ? 3 : 4];
        int usable = 0;
        for (Py_ssize_t t = 0; t < e->nplayed[i]; t++) {
            bud += CROSS_OF[e->played[i][t]][role][1];
            usable |= USABLE_OF[e->played[i][t]][role];
        }
        e->bud[j] = bud;
        e->nf_done[j] = !usable;
        e->nauto += !usable;
    }
    return e->nauto < e->nnf; /* nobody to assign: Python resolves again */
}

static PyObject *num(long x) { return PyLong_FromLong(x); }

/* The fight event and the elimination events, appended to ev. */
static int fight_events(End *e, PyObject *ev) {
    PyObject *shown = PyList_New(e->nf), *defenders = PyList_New(0);
    if (!shown || !defenders) goto fail;
    for (Py_ssize_t j = 0; j < e->nf; j++) {
        long seat = e->fighters[j];
        Done *d = &e->done[seat];
        PyObject *sets = PyList_New(d->nsets);
        if (!sets) goto fail;
        for (int t = 0; t < d->nsets; t++) {
            Set *st = &d->sets[t];
            long dice[DICE];
            for (int u = 0; u < st->nd; u++) dice[u] = st->d[u];
            PyObject *row = PyList_New(4);
            if (!row) {
                Py_DECREF(sets);
                goto fail;
            }
            PyList_SET_ITEM(sets, t, row);
            PyObject *items[4] = {num(st->slot), num(st->k), int_list(dice, st->nd),
                                  picked(d->v, st->d, st->nd)};
            int bad = 0;
            for (int u = 0; u < 4; u++) {
                bad |= items[u] == NULL;
                PyList_SET_ITEM(row, u, items[u] ? items[u] : ref(Py_None));
            }
            if (bad) {
                Py_DECREF(sets);
                goto fail;
            }
        }
        PyObject *v[4] = {num(seat), int_list(d->v, DICE), sets, num(d->spent)};
        PyObject *one = build(SHOWN_T, SHOWN_K, v, 4);
        if (!one) goto fail;
        PyList_SET_ITEM(shown, j, one);
    }
    for (Py_ssize_t j = 0; j < e->nf; j++) {
        long seat = e->fighters[j];
        if (seat == e->a) continue;
        PyObject *v[6] = {num(seat), num(e->dv[seat]), num(e->yy[seat]),
                          num(e->dmg[seat]), num(e->hp[seat]),
                          ref(e->elim[seat] == e->nfight ? Py_True : Py_False)};
        PyObject *one = build(DEFENDER_T, DEFENDER_K, v, 6);
        if (!one || PyList_Append(defenders, one)) {
            Py_XDECREF(one);
            goto fail;
        }
        Py_DECREF(one);
    }
    int dummy = e->a == DUMMY;
    PyObject *pv[8] = {num(e->round), num(e->a), num(e->atk),
                       num(dummy ? 0 : e->heal), num(dummy ? 0 : e->yy_total),
                       dummy ? ref(Py_None) : num(e->hp[e->a]), shown, defenders};
    shown = defenders = NULL;
    PyObject *one = event(S_fight_ev, build(FIGHT_PUB_T, FIGHT_PUB_K, pv, 8));
    if (!one || PyList_Append(ev, one)) {
        Py_XDECREF(one);
        return -1;
    }
    Py_DECREF(one);
    for (int j = 0; j < e->nout; j++) {
        PyObject *v[2] = {num(e->out[j]), num(e->hp[e->out[j]])};
        one = event(S_eliminated_ev, build(ELIM_T, ELIM_K, v, 2));
        if (!one || PyList_Append(ev, one)) {
            Py_XDECREF(one);
            return -1;
        }
        Py_DECREF(one);
    }
    return 0;
fail:
    Py_XDECREF(shown);
    Py_XDECREF(defenders);
    return -1;
}

/* An event appended (its public part from a template); steals the values. */
static int append_event(PyObject *ev, PyObject *type, PyObject *tmpl,
                        PyObject *const *keys, PyObject **v, int nv) {
    PyObject *one = event(type, build(tmpl, keys, v, nv));
    if (!one || PyList_Append(ev, one)) {
        Py_XDECREF(one);
        return -1;
    }
    Py_DECREF(one);
    return 0;
}

/* n copies of o in a new list. */
static PyObject *repeat(PyObject *o, Py_ssize_t n) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(l, i, ref(o));
    return l;
}

/* The next fight (``_start_fight``): the state's fields and its event. */
static int start_fight(End *e, PyObject *s, PyObject *ev) {
    PyObject *dice = repeat(Py_None, e->n), *asg = repeat(Py_None, e->n),
             *fighters = PyList_New(e->nnf), *shown = repeat(Py_None, e->n),
             *auto_done = PyList_New(0);
    if (!dice || !asg || !fighters || !shown || !auto_done) goto fail;
    for (int j = 0; j < e->nnf; j++) {
        int seat = e->nf_seat[j];
        PyObject *x = num(seat);
        if (!x) goto fail;
        PyList_SET_ITEM(fighters, j, x);
        if (e->nf_done[j] && PyList_Append(auto_done, x)) goto fail;
        PyObject *r = int_list(e->rolls[j], DICE), *r2 = int_list(e->rolls[j], DICE);
        if (!r || !r2) {
            Py_XDECREF(r);
            Py_XDECREF(r2);
            goto fail;
        }
        PyList_SetItem(dice, seat, r); /* steals r, drops the None */
        PyList_SetItem(shown, seat, r2);
        PyObject *v[7] = {int_list(e->rolls[j], DICE), PyList_New(0), ref(Py_None),
                          num(e->bud[j]), num(0), num(0),
                          ref(e->nf_done[j] ? Py_True : Py_False)};
        PyObject *one = build(ASG_T, ASG_K, v, 7);
        if (!one) goto fail;
        PyList_SetItem(asg, seat, one);
    }
    PyObject *fighters2 = PySequence_List(fighters);
    if (!fighters2) goto fail;
    PyObject *fv[4] = {num(e->next), fighters, dice, asg};
    fighters = dice = asg = NULL;
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)e->rng);
    if (put(s, S_fight, build(FIGHT_T, FIGHT_K, fv, 4)) ||
        put(s, S_rng, PyUnicode_FromString(hex)) || put(s, S_oi, num(e->oi)) ||
        PyDict_SetItem(s, S_phase, ASSIGN)) {
        Py_DECREF(fighters2);
        goto fail;
    }
    PyObject *av[5] = {num(e->round), num(e->next), fighters2, shown, auto_done};
    return append_event(ev, S_attack, ATTACK_T, ATTACK_K, av, 5);
fail:
    Py_XDECREF(dice);
    Py_XDECREF(asg);
    Py_XDECREF(fighters);
    Py_XDECREF(shown);
    Py_XDECREF(auto_done);
    return -1;
}

/* The round's end and the next round (``_end_round``, ``_new_round``). */
static int new_round(End *e, PyObject **fl, PyObject *s, PyObject *ev) {
    PyObject *hp = int_list(e->hp, (int)e->n);
    PyObject *rv[2] = {num(e->round), hp};
    if (append_event(ev, S_round_end, ROUND_END_T, ROUND_END_K, rv, 2)) return -1;
    /* discard + the played cards + the dummy's */
    char buf[128 + MAXN * PLAY + PLAY];
    Py_ssize_t len = e->ndiscard;
    memcpy(buf, PyUnicode_1BYTE_DATA(fl[F_discard]), len);
    for (Py_ssize_t i = 0; i < e->n; i++) {
        memcpy(buf + len, e->played[i], e->nplayed[i]);
        len += e->nplayed[i];
    }
    memcpy(buf + len, e->dummy, e->ndummy);
    len += e->ndummy;
    long alive[MAXN];
    int nalive = 0;
    for (Py_ssize_t i = 0; i < e->n; i++)
        if (!e->elim[i]) alive[nalive++] = (long)i;
    if (put(s, S_discard, PyUnicode_FromStringAndSize(buf, len)) ||
        put(s, S_round, num(e->round + 1)) || PyDict_SetItem(s, S_phase, PLAYING) ||
        put(s, S_commit, repeat(EMPTY_STR, e->n)) ||
        put(s, S_played, repeat(EMPTY_STR, e->n)) ||
        PyDict_SetItem(s, S_dummy, EMPTY_STR) || put(s, S_order, PyList_New(0)) ||
        put(s, S_oi, num(0)) || PyDict_SetItem(s, S_fight, Py_None))
        return -1;
    PyObject *nv[2] = {num(e->round + 1), int_list(alive, nalive)};
    return append_event(ev, S_round, ROUND_T, ROUND_K, nv, 2);
}

/* rounds.py's ``_resolve(s, ev)``: 1 done, 0 declined (s and ev as they
 * were), -1 an error raised (s and ev may be part done: the caller drops
 * both). */
static int resolve(PyObject *s, PyObject *ev) {
    PyObject *fl[F_COUNT];
    End e;
    if (!PyDict_CheckExact(s) || !PyList_CheckExact(ev)) return 0;
    if (read_fields(s, STATE_KEYS, F_COUNT, fl)) return -1;
    if (!settle(fl, &e)) return PyErr_Occurred() ? -1 : 0;
    /* fl and e's card strings stay borrowed from s: nothing here replaces
     * discard, played or dummy before new_round has copied them */
    int r = fight_events(&e, ev);
    if (!r)
        r = put(s, S_hp, int_list(e.hp, (int)e.n)) ||
            put(s, S_elim, int_list(e.elim, (int)e.n)) || put(s, S_nfight, num(e.nfight)) ||
            PyDict_SetItem(s, S_fight, Py_None);
    if (!r) r = e.next == 2 * DUMMY ? new_round(&e, fl, s, ev) : start_fight(&e, s, ev);
    return r ? -1 : 1;
}

static PyObject *py_resolve(PyObject *self, PyObject *args) {
    PyObject *s, *ev;
    if (!PyArg_UnpackTuple(args, "resolve", 2, 2, &s, &ev)) return NULL;
    if (!ROUNDS_MAX) Py_RETURN_FALSE; /* init_fight() not called */
    int r = resolve(s, ev);
    if (r < 0) return NULL;
    return ref(r ? Py_True : Py_False);
}

/* The tables: per character (None: not a card) (initiative, attack crosses
 * (main, gain, extra), defence crosses, usable attacking, usable defending,
 * per combination ((atk, hp), (def, yy))); STEP per stat; ROUNDS; PLAYING. */
static PyObject *py_init_fight(PyObject *self, PyObject *args) {
    PyObject *table, *steps, *playing, *solve;
    long rounds;
    if (!PyArg_ParseTuple(args, "O!O!lUO:init_fight", &PyTuple_Type, &table,
                          &PyTuple_Type, &steps, &rounds, &playing, &solve))
        return NULL;
    if (PyTuple_GET_SIZE(table) != 128 || PyTuple_GET_SIZE(steps) != NSTAT ||
        rounds < 1) {
        PyErr_SetString(PyExc_ValueError, "init_fight: 128 characters, 5 stats");
        return NULL;
    }
    for (int i = 0; i < NSTAT; i++)
        if ((STAT_STEP[i] = PyLong_AsLong(PyTuple_GET_ITEM(steps, i))) == -1 &&
            PyErr_Occurred())
            return NULL;
    for (int ch = 0; ch < 128; ch++) {
        PyObject *row = PyTuple_GET_ITEM(table, ch), *effs;
        if (row == Py_None) continue;
        int *ca = CROSS_OF[ch][0], *cd = CROSS_OF[ch][1];
        if (!PyArg_ParseTuple(row, "i(iii)(iii)iiO!", &INIT_OF[ch], &ca[0], &ca[1],
                              &ca[2], &cd[0], &cd[1], &cd[2], &USABLE_OF[ch][0],
                              &USABLE_OF[ch][1], &PyTuple_Type, &effs))
            return NULL;
        if (PyTuple_GET_SIZE(effs) > MAXK) {
            PyErr_SetString(PyExc_ValueError, "init_fight: at most 4 combinations");
            return NULL;
        }
        for (int k = 0; k < PyTuple_GET_SIZE(effs); k++) {
            int *x = EFFECT_OF[ch][k][0], *y = EFFECT_OF[ch][k][1];
            if (!PyArg_ParseTuple(PyTuple_GET_ITEM(effs, k), "(ii)(ii)", &x[0], &x[1],
                                  &y[0], &y[1]))
                return NULL;
        }
    }
    Py_INCREF(playing);
    Py_XSETREF(PLAYING, playing);
    Py_INCREF(solve);
    Py_XSETREF(SOLVE, solve);
    ROUNDS_MAX = rounds;
    Py_RETURN_NONE;
}

/* The strings and templates (at import). 0, or -1 with an exception. */
static int fight_module_init(void) {
#define S(var, text) \
    if (!(var = PyUnicode_InternFromString(text))) return -1;
    S(S_fight_ev, "fight") S(S_eliminated_ev, "eliminated")
    S(S_round_end, "round_end") S(S_round, "round") S(S_attack, "attack")
    S(S_oi, "oi") S(S_order, "order") S(S_elim, "elim") S(S_hp, "hp")
    S(S_nfight, "nfight") S(S_rng, "rng") S(S_dummy, "dummy")
    S(S_discard, "discard")
    S(S_commit, "commit") S(S_f, "f") S(S_attacker, "attacker")
    S(S_fighters, "fighters") S(S_auto_done, "auto_done")
    S(S_attack_k, "attack") S(S_attacker_hp_change, "attacker_hp_change")
    S(S_yin_yang_damage, "yin_yang_damage") S(S_attacker_hp, "attacker_hp")
    S(S_assignments, "assignments") S(S_defenders, "defenders")
    S(S_values, "values") S(S_defence, "defence") S(S_yin_yang, "yin_yang")
    S(S_damage, "damage") S(S_eliminated, "eliminated") S(S_alive, "alive")
    S(EMPTY_STR, "")
#undef S
    if (state_keys_init()) return -1;
    PyObject *fight_pub[8] = {S_round, S_attacker, S_attack_k, S_attacker_hp_change,
                              S_yin_yang_damage, S_attacker_hp, S_assignments,
                              S_defenders};
    PyObject *shown[4] = {S_seat, S_values, S_sets, S_spent};
    PyObject *defender[6] = {S_seat, S_defence, S_yin_yang, S_damage, S_hp,
                             S_eliminated};
    PyObject *elim[2] = {S_seat, S_hp};
    PyObject *round_end[2] = {S_round, S_hp};
    PyObject *round[2] = {S_round, S_alive};
    PyObject *attack[5] = {S_round, S_attacker, S_fighters, S_dice, S_auto_done};
    PyObject *asg[7] = {S_v, S_sets, S_open, S_bud, S_gain, S_spent, S_done};
    PyObject *fight[4] = {S_a, S_f, S_dice, S_asg};
    memcpy(FIGHT_PUB_K, fight_pub, sizeof fight_pub);
    memcpy(SHOWN_K, shown, sizeof shown);
    memcpy(DEFENDER_K, defender, sizeof defender);
    memcpy(ELIM_K, elim, sizeof elim);
    memcpy(ROUND_END_K, round_end, sizeof round_end);
    memcpy(ROUND_K, round, sizeof round);
    memcpy(ATTACK_K, attack, sizeof attack);
    memcpy(ASG_K, asg, sizeof asg);
    memcpy(FIGHT_K, fight, sizeof fight);
    if (!(FIGHT_PUB_T = template(FIGHT_PUB_K, 8)) || !(SHOWN_T = template(SHOWN_K, 4)) ||
        !(DEFENDER_T = template(DEFENDER_K, 6)) || !(ELIM_T = template(ELIM_K, 2)) ||
        !(ROUND_END_T = template(ROUND_END_K, 2)) || !(ROUND_T = template(ROUND_K, 2)) ||
        !(ATTACK_T = template(ATTACK_K, 5)) || !(ASG_T = template(ASG_K, 7)) ||
        !(FIGHT_T = template(FIGHT_K, 4)))
        return -1;
    return 0;
}
