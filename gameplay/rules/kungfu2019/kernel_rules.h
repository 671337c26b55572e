/* Kung Fu (2019) kernel, part of _fastplay.c (included there, not built on its
 * own): the game flow of rounds.py (rounds, reveal, fights, rolls, resolve) and
 * the decisions of a playout (the menus of handlers.py and assignment.py,
 * uniform or by policy).
 */
#ifndef KUNGFU2019_KERNEL_RULES_H
#define KUNGFU2019_KERNEL_RULES_H

#include "kernel_solver.h"
#include "kernel_state.h"

/* ---- flow (rounds.py) --------------------------------------------------------- */

static inline int role_of(const St *s, int seat) { return seat == s->fa ? ATT : DEF; }

static int nalive(const St *s) {
    int k = 0;
    for (int i = 0; i < s->n; i++) k += !s->elim[i];
    return k;
}

static void finish(St *s, int reason) { /* _finish (the result is built in Python) */
    s->reason = reason;
    s->phase = PH_OVER;
    s->fight = 0;
}

static void new_round(St *s) { /* _new_round */
    for (int i = 0; i < s->n; i++)
        for (int j = 0; j < s->played[i].n; j++) push(s, &s->discard, s->played[i].c[j]);
    for (int j = 0; j < s->dummy.n; j++) push(s, &s->discard, s->dummy.c[j]);
    s->round++;
    s->phase = PH_PLAY;
    for (int i = 0; i < s->n; i++) { s->commit[i].n = 0; s->played[i].n = 0; }
    s->dummy.n = 0;
    s->norder = 0;
    s->oi = 0;
    s->fight = 0;
}

static void start_status(St *s) { /* _start_status */
    for (int seat = 0; seat < s->n; seat++) {
        for (int k = 0; k < 5; k++) s->tracks[seat][k] = 0;
        for (int j = 0; j < s->hands[seat].n; j++) s->tracks[seat][ICON[(int)s->hands[seat].c[j]]]++;
        s->hp[seat] = START_HP[s->n] + s->tracks[seat][0] * STEP[0];
    }
    new_round(s);
}

static void roll(St *s, int *out) { /* _roll */
    if (s->di < s->nstack) {
        for (int i = 0; i < DICE; i++) out[i] = s->stack[DICE * s->di + i];
        s->di++;
        return;
    }
    uint64_t x = next64(&s->rng) % 279936ULL; /* 6 ** 7 */
    for (int i = 0; i < DICE; i++) { out[i] = (int)(x % 6) + 1; x /= 6; }
}

static void resolve(St *s);
static void next_fight(St *s);

static void start_fight(St *s, int a) { /* _start_fight */
    s->nf = 0;
    for (int i = 0; i < s->n; i++) {
        s->has_dice[i] = 0; s->has_asg[i] = 0;
        if (!s->elim[i]) s->ff[s->nf++] = i;
    }
    s->fight = 1; s->fa = a;
    for (int q = 0; q < s->nf; q++) {
        int seat = s->ff[q];
        roll(s, s->dice[seat]);
        s->has_dice[seat] = 1;
    }
    int all_done = 1;
    for (int q = 0; q < s->nf; q++) {
        int seat = s->ff[q], role = role_of(s, seat);
        const Row *pl = &s->played[seat];
        int bud = s->tracks[seat][role == ATT ? 3 : 4] * STEP[role == ATT ? 3 : 4];
        int usable = 0;
        for (int j = 0; j < pl->n; j++) {
            bud += CROSS_[(int)pl->c[j]][role][1];
            if (NUSE[(int)pl->c[j]][role]) usable = 1;
        }
        Asg *g = &s->asg[seat];
        memset(g, 0, sizeof *g);
        memcpy(g->v, s->dice[seat], sizeof g->v);
        g->bud = bud; g->done = !usable;
        s->has_asg[seat] = 1;
        if (usable) all_done = 0;
    }
    s->phase = PH_ASSIGN;
    if (all_done) resolve(s);
}

static void effects(const St *s, int seat, int role, int *main_, int *extra_) {
    const Asg *g = &s->asg[seat];
    const Row *pl = &s->played[seat];
    int main = s->tracks[seat][role == ATT ? 1 : 2] * STEP[role == ATT ? 1 : 2];
    int extra = 0;
    for (int j = 0; j < pl->n; j++) {
        main += CROSS_[(int)pl->c[j]][role][0];
        extra += CROSS_[(int)pl->c[j]][role][2];
    }
    for (int q = 0; q < g->nsets; q++) {
        const Combo *c = combo_of(pl->c[g->sets[q].slot], g->sets[q].k);
        main += c->eff[3 * role];
        extra += c->eff[3 * role + 2];
    }
    *main_ = main; *extra_ = extra;
}

static void resolve(St *s) { /* _resolve */
    int a = s->fa, atk, heal;
    if (a == DUMMY) {
        atk = 0; heal = 0;
        for (int j = 0; j < s->dummy.n; j++) atk += INIT[(int)s->dummy.c[j]];
    } else {
        effects(s, a, ATT, &atk, &heal);
    }
    s->nfight++;
    int seq = s->nfight, yy_total = 0;
    for (int q = 0; q < s->nf; q++) {
        int seat = s->ff[q];
        if (seat == a) continue;
        int dv, yy;
        effects(s, seat, DEF, &dv, &yy);
        int dmg = atk - dv > 0 ? atk - dv : 0;
        s->hp[seat] -= dmg;
        if (s->hp[seat] <= 0) s->elim[seat] = seq;
        else yy_total += yy;
    }
    if (a != DUMMY) {
        int h = s->hp[a] + heal - yy_total;
        s->hp[a] = h > 1 ? h : 1;
    }
    s->fight = 0;
    int alive = nalive(s);
    if (alive <= 1) { finish(s, alive ? R_LAST : R_ALL); return; }
    s->oi++;
    next_fight(s);
}

static void end_round(St *s) { /* _end_round */
    if (s->round >= ROUNDS) { finish(s, R_ROUNDS); return; }
    new_round(s);
}

static void next_fight(St *s) { /* _next_fight */
    while (s->oi < s->norder) {
        int a = s->order[s->oi];
        if (a != DUMMY && s->elim[a]) { s->oi++; continue; }
        start_fight(s, a);
        return;
    }
    end_round(s);
}

static void reveal(St *s) { /* _reveal */
    int n = s->n, alive[MAXP], na = 0, totals[MAXP];
    for (int i = 0; i < n; i++) {
        if (!s->elim[i]) { alive[na++] = i; s->played[i] = s->commit[i]; }
        else s->played[i].n = 0;
        s->commit[i].n = 0;
    }
    for (int q = 0; q < na; q++) {
        int i = alive[q], t = 0;
        for (int j = 0; j < s->played[i].n; j++) t += INIT[(int)s->played[i].c[j]];
        totals[i] = t;
    }
    if (n == 2) {
        s->dummy.n = 0;
        int take = s->deck.n < PLAY ? s->deck.n : PLAY;
        for (int j = 0; j < take; j++) s->dummy.c[s->dummy.n++] = s->deck.c[s->deck.n - 1 - j];
        s->deck.n -= take;
    }
    int tied = 0;
    for (int x = 0; x < na && !tied; x++)
        for (int y = x + 1; y < na; y++)
            if (totals[alive[x]] == totals[alive[y]]) { tied = 1; break; }
    int tiebreak[MAXP], rank[MAXP];
    for (int q = 0; q < na; q++) tiebreak[q] = alive[q];
    if (tied) {
        char perm[MAXP];
        for (int q = 0; q < na; q++) perm[q] = (char)('0' + alive[q]);
        shuffled(&s->rng, perm, na);
        for (int q = 0; q < na; q++) tiebreak[q] = perm[q] - '0';
    }
    for (int q = 0; q < na; q++) rank[tiebreak[q]] = q;
    int order[MAXP + 1], no = 0;
    for (int q = 0; q < na; q++) { /* sorted by (total, rank) */
        int i = alive[q], k = no++;
        while (k > 0 && (totals[order[k - 1]] > totals[i] ||
                         (totals[order[k - 1]] == totals[i] && rank[order[k - 1]] > rank[i]))) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    if (s->dummy.n) {
        int dt = 0, pos = 0;
        for (int j = 0; j < s->dummy.n; j++) dt += INIT[(int)s->dummy.c[j]];
        for (int q = 0; q < no; q++) pos += totals[order[q]] <= dt;
        memmove(order + pos + 1, order + pos, sizeof(int) * (size_t)(no - pos));
        order[pos] = DUMMY;
        no++;
    }
    memcpy(s->order, order, sizeof(int) * (size_t)no);
    s->norder = no;
    s->oi = 0;
    next_fight(s);
}

/* ---- decisions ------------------------------------------------------------------ */

enum { A_PICK = 0, A_PLAY, A_AUTO, A_DONE, A_BEST, A_RESET, A_DROP, A_SET, A_DIE,
       A_UP, A_DOWN, A_CANCEL };
typedef struct { int kind, x, y; } Act;

static int used_mask(const Asg *g) {
    int m = 0;
    for (int q = 0; q < g->nsets; q++)
        for (int i = 0; i < g->sets[q].nd; i++) m |= 1 << g->sets[q].d[i];
    if (g->has_open)
        for (int i = 0; i < g->open.nd; i++) m |= 1 << g->open.d[i];
    return m;
}

static int popcount7(int m) {
    int k = 0;
    for (int i = 0; i < DICE; i++) k += m >> i & 1;
    return k;
}

/* _without: the assignment with closed set j dropped */
static int without(const St *s, int seat, int j, int *v, Set *out, int *nout, int *gain,
                   int *spent) {
    const Asg *g = &s->asg[seat];
    Set rest[DICE]; int fin[DICE][DICE], nr = 0;
    for (int q = 0; q < g->nsets; q++) {
        if (q == j) continue;
        rest[nr] = g->sets[q];
        for (int i = 0; i < g->sets[q].nd; i++) fin[nr][i] = g->v[g->sets[q].d[i]];
        nr++;
    }
    *nout = nr;
    return check_assignment(&s->played[seat], role_of(s, seat), s->dice[seat], g->bud,
                            rest, nr, fin, v, out, gain, spent);
}

/* The closed sets _without may drop (bit j): for each j, check_assignment of
 * the others, each set's own checks (set_alone) made once for all j. */
static int droppable(const St *s, int seat) {
    const Asg *g = &s->asg[seat];
    const int role = role_of(s, seat), *rolled = s->dice[seat];
    int mask[DICE], cost[DICE], gain[DICE], out = 0;
    for (int q = 0; q < g->nsets; q++) {
        const Set *st = &g->sets[q];
        int fin[DICE];
        for (int i = 0; i < st->nd; i++) fin[i] = g->v[st->d[i]];
        mask[q] = set_alone(&s->played[seat], role, rolled, st, fin, &cost[q], &gain[q]);
    }
    for (int j = 0; j < g->nsets; j++) {
        int used = 0, gn = 0, sp = 0, q = 0;
        for (; q < g->nsets; q++) {
            if (q == j) continue;
            if (mask[q] < 0 || !set_fits(mask[q], cost[q], g->bud, used, gn, sp)) break;
            sp += cost[q]; gn += gain[q]; used |= mask[q];
        }
        if (q == g->nsets) out |= 1 << j;
    }
    return out;
}

static int assign_menu(const St *s, int seat, Act *m) {
    const Asg *g = &s->asg[seat];
    int role = role_of(s, seat), n = 0;
    int used = used_mask(g);
    const Row *pl = &s->played[seat];
    if (!g->has_open) {
        m[n++] = (Act){A_AUTO, 0, 0};
        m[n++] = (Act){A_DONE, 0, 0};
        m[n++] = (Act){A_BEST, 0, 0};
        if (g->nsets || g->spent) m[n++] = (Act){A_RESET, 0, 0};
        const int drop = g->nsets ? droppable(s, seat) : 0;
        for (int j = 0; j < g->nsets; j++)
            if (drop >> j & 1) m[n++] = (Act){A_DROP, j, 0};
        int freec = DICE - popcount7(used);
        for (int slot = 0; slot < pl->n; slot++) {
            char ch = pl->c[slot];
            for (int q = 0; q < NUSE[(int)ch][role]; q++) {
                int k = USE[(int)ch][role][q];
                if (combo_of(ch, k)->n <= freec) m[n++] = (Act){A_SET, slot, k};
            }
        }
        return n;
    }
    m[n++] = (Act){A_AUTO, 0, 0};
    const Combo *c = combo_of(pl->c[g->open.slot], g->open.k);
    if (g->open.nd < c->n)
        for (int i = 0; i < DICE; i++)
            if (!(used >> i & 1)) m[n++] = (Act){A_DIE, i, 0};
    int avail = g->bud + g->gain - g->spent;
    const int *rolled = s->dice[seat];
    for (int q = 0; q < g->open.nd; q++) {
        int i = g->open.d[q], x = g->v[i], r = rolled[i];
        if (x < 6 && (x < r || avail > 0)) m[n++] = (Act){A_UP, i, 0};
        if (x > 1 && (x > r || avail > 0)) m[n++] = (Act){A_DOWN, i, 0};
    }
    m[n++] = (Act){A_CANCEL, 0, 0};
    return n;
}

static void maybe_close(St *s, int seat) { /* _maybe_close */
    Asg *g = &s->asg[seat];
    const Combo *c = combo_of(s->played[seat].c[g->open.slot], g->open.k);
    if (g->open.nd != c->n) return;
    int vals[DICE];
    for (int i = 0; i < g->open.nd; i++) vals[i] = g->v[g->open.d[i]];
    if (!satisfies(c, vals, g->open.nd)) return;
    if (g->nsets >= DICE) { s->error = 1; return; }
    g->sets[g->nsets++] = g->open;
    g->has_open = 0;
    g->gain += c->eff[3 * role_of(s, seat) + 1];
}

static void load_proposal(St *s, int seat) { /* _proposal(...)[1] */
    Asg *g = &s->asg[seat];
    if (!g->prop) {
        Set sets[DICE]; int fin[DICE][DICE];
        int role = role_of(s, seat);
        int ns = solve(&s->played[seat], role, s->dice[seat], g->bud, sets, fin);
        if (ns < 0 || !check_assignment(&s->played[seat], role, s->dice[seat], g->bud,
                                        sets, ns, fin, g->pv, g->psets, &g->pgain,
                                        &g->pspent)) {
            s->error = 2; /* the greedy fallback is not in the kernel */
            return;
        }
        g->pnsets = ns;
        g->prop = 1;
    }
    memcpy(g->v, g->pv, sizeof g->v);
    memcpy(g->sets, g->psets, sizeof(Set) * (size_t)g->pnsets);
    g->nsets = g->pnsets; g->gain = g->pgain; g->spent = g->pspent;
}

/* rollout.py's card values by player count and card: worth (draft) and
 * play_value (commit), set by init_policy. */
static int policy_ready = 0;
static double PWORTH[MAXP + 1][128], PPLAY[MAXP + 1][128];

/* rollout.py's ``choose`` for a card among the sorted row srt (the engine's
 * menu order), k > 1 of them: 3 times in 4 the first of the best by `value`,
 * else uniform. A forced move (k == 1) takes no draw, as in ISMCTS's loop. */
static int policy_card(uint64_t *choice, const char *srt, int k, const double *value) {
    if (k == 1) return 0;
    if (randbelow(choice, 4) >= 3) return randbelow(choice, k);
    int best = 0;
    for (int i = 1; i < k; i++)
        if (value[(int)srt[i]] > value[(int)srt[best]]) best = i;
    return best;
}

/* One decision of the first actor. Uniform (``policy`` 0): menu index
 * ``randbelow(choice, len(menu))``. Policy (``policy`` 1): rollout.py's
 * ``choose`` on the same stream: ``auto`` for every dice decision, cards by
 * policy_card. */
static void decide(St *s, uint64_t *choice, int policy) {
    int seat = -1, n = s->n;
    Act menu[64];
    int nm = 0;
    if (s->phase == PH_DRAFT) {
        for (int i = 0; i < n; i++) if (!s->picks[i].n) { seat = i; break; }
        if (seat < 0) { s->error = 1; return; }
        char srt[MAXC];
        int k = sorted_row(&s->packs[seat], srt);
        if (!k) { s->error = 1; return; }
        char ch = srt[policy ? policy_card(choice, srt, k, PWORTH[n])
                             : (int)randbelow(choice, k)];
        remove_card(&s->packs[seat], ch);
        s->picks[seat].c[0] = ch; s->picks[seat].n = 1;
        for (int i = 0; i < n; i++) if (!s->picks[i].n) return;
        Row packs[MAXP];
        for (int i = 0; i < n; i++) {
            push(s, &s->hands[i], s->picks[i].c[0]);
            packs[i] = s->packs[(i - 1 + n) % n];
        }
        for (int i = 0; i < n; i++) { s->packs[i] = packs[i]; s->picks[i].n = 0; }
        s->turn++;
        if (s->turn >= HAND) start_status(s);
        return;
    }
    if (s->phase == PH_PLAY) {
        for (int i = 0; i < n; i++)
            if (!s->elim[i] && s->commit[i].n < PLAY) { seat = i; break; }
        if (seat < 0) { s->error = 1; return; }
        char srt[MAXC];
        int k = sorted_row(&s->hands[seat], srt);
        if (!k) { s->error = 1; return; }
        char ch = srt[policy ? policy_card(choice, srt, k, PPLAY[n])
                             : (int)randbelow(choice, k)];
        remove_card(&s->hands[seat], ch);
        push(s, &s->commit[seat], ch);
        for (int i = 0; i < n; i++)
            if (!s->elim[i] && s->commit[i].n != PLAY) return;
        reveal(s);
        return;
    }
    if (s->phase != PH_ASSIGN || !s->fight) { s->error = 1; return; }
    for (int q = 0; q < s->nf; q++)
        if (!s->asg[s->ff[q]].done) { seat = s->ff[q]; break; }
    if (seat < 0) { s->error = 1; return; }
    Act a = {A_AUTO, 0, 0}; /* the policy's: every menu here starts with auto */
    if (!policy) {
        nm = assign_menu(s, seat, menu);
        a = menu[randbelow(choice, nm)];
    }
    Asg *g = &s->asg[seat];
    const int *rolled = s->dice[seat];
    switch (a.kind) {
    case A_AUTO:
        load_proposal(s, seat);
        g->has_open = 0;
        g->done = 1;
        break;
    case A_DONE:
        g->done = 1;
        break;
    case A_BEST:
        load_proposal(s, seat);
        break;
    case A_RESET:
        memcpy(g->v, rolled, sizeof g->v);
        g->nsets = 0; g->gain = g->spent = 0;
        break;
    case A_CANCEL:
        for (int q = 0; q < g->open.nd; q++) {
            int i = g->open.d[q];
            g->spent -= abs(g->v[i] - rolled[i]);
            g->v[i] = rolled[i];
        }
        g->has_open = 0;
        break;
    case A_SET:
        g->has_open = 1; g->open.slot = a.x; g->open.k = a.y; g->open.nd = 0;
        break;
    case A_DROP: {
        int v[DICE], gn, sp, no; Set out[DICE];
        if (!without(s, seat, a.x, v, out, &no, &gn, &sp)) { s->error = 1; return; }
        memcpy(g->v, v, sizeof v);
        memcpy(g->sets, out, sizeof(Set) * (size_t)no);
        g->nsets = no; g->gain = gn; g->spent = sp;
        break;
    }
    case A_DIE:
        g->open.d[g->open.nd++] = a.x;
        maybe_close(s, seat);
        break;
    case A_UP:
    case A_DOWN: {
        int i = a.x, before = abs(g->v[i] - rolled[i]);
        g->v[i] += a.kind == A_UP ? 1 : -1;
        g->spent += abs(g->v[i] - rolled[i]) - before;
        maybe_close(s, seat);
        break;
    }
    default:
        s->error = 1;
        return;
    }
    if (!g->done) return;
    for (int q = 0; q < s->nf; q++) if (!s->asg[s->ff[q]].done) return;
    resolve(s);
}

static int first_actor(const St *s) {
    if (s->phase == PH_DRAFT) {
        for (int i = 0; i < s->n; i++) if (!s->picks[i].n) return i;
    } else if (s->phase == PH_PLAY) {
        for (int i = 0; i < s->n; i++)
            if (!s->elim[i] && s->commit[i].n < PLAY) return i;
    } else if (s->phase == PH_ASSIGN && s->fight) {
        for (int q = 0; q < s->nf; q++) if (!s->asg[s->ff[q]].done) return s->ff[q];
    }
    return -1;
}

#endif
