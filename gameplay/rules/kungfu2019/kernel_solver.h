/* Kung Fu (2019) kernel, part of _fastplay.c (included there, not built on its
 * own): combos.satisfies and solver.py's exact dice solver ("auto", "best"),
 * reproduced step by step (the same enumeration orders, so the same answer among
 * equally good assignments), and assignment.py's _check_assignment.
 */
#ifndef KUNGFU2019_KERNEL_SOLVER_H
#define KUNGFU2019_KERNEL_SOLVER_H

#include "kernel_state.h"

/* ---- combos.satisfies ------------------------------------------------------ */

static int satisfies(const Combo *c, const int *d, int m) {
    int k = c->kind, n = c->n, sum = 0;
    for (int i = 0; i < m; i++) sum += d[i];
    if (k == K_CROSS) return m == 0;
    if (k == K_SUM_OVER) {
        if (m == 0 || (n && m != n)) return 0;
        return sum > c->total;
    }
    if (m != n) return 0;
    if (k == K_FACES) {
        for (int i = 0; i < m; i++)
            if (!(c->faces >> d[i] & 1)) return 0;
        return 1;
    }
    if (k == K_KIND) {
        for (int i = 1; i < m; i++)
            if (d[i] != d[0]) return 0;
        return !c->faces || (c->faces >> d[0] & 1);
    }
    if (k == K_STRAIGHT) {
        int seen = 0;
        for (int i = 0; i < m; i++) {
            if (seen >> d[i] & 1) return 0;
            seen |= 1 << d[i];
        }
        int lo = 7;
        for (int i = 0; i < m; i++) if (d[i] < lo) lo = d[i];
        for (int i = 0; i < m; i++)
            if (!(seen >> (lo + i) & 1)) return 0;
        return 1;
    }
    return sum < c->total; /* sum_under */
}

static inline const Combo *combo_of(char ch, int k) { return &COMBO[CB[(int)ch][k]]; }

static inline int usable_k(char ch, int role, int k) {
    for (int i = 0; i < NUSE[(int)ch][role]; i++)
        if (USE[(int)ch][role][i] == k) return 1;
    return 0;
}

/* ---- solver.py: _compute_cost ------------------------------------------------ */

/* dice sorted ascending; returns cost or -1; finals aligned with dice */
static int compute_cost(const Combo *c, const int *dice, int m, int *out) {
    int kind = c->kind, n = c->n, sum = 0;
    for (int i = 0; i < m; i++) sum += dice[i];
    if (kind == K_SUM_OVER) {
        if (m == 0 || (n && m != n)) return -1;
        int need = c->total + 1 - sum;
        memcpy(out, dice, sizeof(int) * (size_t)m);
        if (need <= 0) return 0;
        if (6 * m - sum < need) return -1;
        int cost = need;
        for (int i = m - 1; i >= 0; i--) {
            int up = 6 - out[i] < need ? 6 - out[i] : need;
            out[i] += up;
            need -= up;
        }
        return cost;
    }
    if (m != n) return -1;
    if (kind == K_FACES) {
        int cost = 0;
        for (int i = 0; i < m; i++) {
            int best = -1, bd = 99;
            for (int f = 1; f <= 6; f++) {
                if (!(c->faces >> f & 1)) continue;
                int dd = abs(f - dice[i]);
                if (dd < bd) { bd = dd; best = f; }
            }
            cost += bd;
            out[i] = best;
        }
        return cost;
    }
    if (kind == K_KIND) {
        /* cc: the cost of making every die v, stepped on from v to v + 1 (each
         * die at most v one more, each above one less; the dice are sorted) */
        int best = -1, bv = 0, cc = sum - m, at = 0;
        for (int v = 1; v <= 6; v++) {
            if (!(c->faces && !(c->faces >> v & 1)) && (best < 0 || cc < best)) {
                best = cc;
                bv = v;
            }
            while (at < m && dice[at] == v) at++;
            cc += at - (m - at);
        }
        for (int i = 0; i < m; i++) out[i] = bv;
        return best;
    }
    if (kind == K_STRAIGHT) {
        int best = -1, bs = 1;
        for (int st = 1; st < 8 - n; st++) {
            int cc = 0;
            for (int i = 0; i < m; i++) cc += abs(dice[i] - (st + i));
            if (best < 0 || cc < best) { best = cc; bs = st; }
        }
        for (int i = 0; i < m; i++) out[i] = bs + i;
        return best;
    }
    if (kind == K_SUM_UNDER) {
        int excess = sum - (c->total - 1);
        memcpy(out, dice, sizeof(int) * (size_t)m);
        if (excess <= 0) return 0;
        if (sum - m < excess) return -1;
        for (int i = 0; i < m; i++) {
            int down = out[i] - 1 < excess ? out[i] - 1 : excess;
            out[i] -= down;
            excess -= down;
        }
        int after = 0;
        for (int i = 0; i < m; i++) after += out[i];
        return sum - after;
    }
    return -1;
}

/* A multiset of dice as one int: the count of face f (1-6) in the three bits
 * at 4 (f - 1), the nibble's top bit kept clear so that subtracting a
 * multiset can be checked in one step (GUARD). The search walks sub-multisets
 * of one roll, and each also carries its index in the roll's mixed-radix
 * numbering (digit f: the count of face f, base the roll's count + 1; at most
 * 2 * 2^5 = 96 of them, fewer with repeated faces): both are linear, so the
 * rest left by a chosen part is a subtraction of each, and the index
 * addresses the per-solve memo and cost tables directly. */
#define GUARD 0x888888
#define NIDX_MAX 128

static inline int decode(int nk, int *out) { /* the dice, sorted */
    int n = 0;
    /* bit b of nk: 2^(b % 4) dice of face b / 4 + 1, the bits in increasing order */
    for (unsigned x = (unsigned)nk; x; x &= x - 1) {
        const int b = __builtin_ctz(x);
        for (int c = 1 << (b & 3); c > 0; c--) out[n++] = (b >> 2) + 1;
    }
    return n;
}

/* compute_cost's answer depends only on the combination and the dice (a
 * multiset), and solves ask the same pairs again and again (the same few dice
 * in other rolls): a direct-mapped cache of the costs, keyed by the
 * combination and the multiset and checked against that whole key, so it
 * never changes a result. The search needs only the cost; the answer's few
 * sets get their finals from compute_cost again. */
#define CC_BITS 12
typedef struct { uint64_t key; int cost; } CCEntry;
static CCEntry CC[1 << CC_BITS];

static int cached_cost(int cb, int nk) {
    uint64_t key = ((uint64_t)cb << 24 | (uint64_t)nk) + 1; /* 0 = empty */
    CCEntry *e = &CC[(uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - CC_BITS))];
    if (e->key == key) return e->cost;
    int d[DICE], fin[DICE];
    int m = decode(nk, d);
    e->key = key;
    e->cost = compute_cost(&COMBO[cb], d, m, fin);
    return e->cost;
}

/* ---- solver.py: the search ---------------------------------------------------- */

typedef struct { int idx, cb, pat, size, value, gain; } Opt; /* idx: option */
typedef struct { int cost, value, dice, chain; } Entry;
typedef struct { int pat, nd, nk, next; } Node; /* a gain-free set: nk its dice */

#define MAXOPT 16
#define POOL 65536
#define MAXCAP 255

static Opt GL[MAXOPT], GF[MAXOPT]; /* gainless (kept), gainful */
static int NGL, NGF, CAP;
static int BYSIZE[DICE + 1][MAXOPT], NBYSIZE[DICE + 1]; /* GL indexes by size, in order */
static int SIZEWANT; /* bit r: some GL option takes r + 1 dice */
static int W[6]; /* the mixed-radix weights of the roll's faces */
/* per sub-multiset of the roll (by index): the generation it was computed in,
 * where its entries start in EPOOL and how many there are */
typedef struct { int gen, at, len; } Memo;
static Memo FM[NIDX_MAX];
static int GEN = 0;
/* per gain-free option and chosen sub-multiset (by index): its cost, -1 none,
 * GLC_UNKNOWN not asked yet in this solve */
#define GLC_UNKNOWN 127
static int8_t GLC[MAXOPT][NIDX_MAX];
static Entry EPOOL[POOL]; static int NE;
static Node NPOOL[POOL]; static int NN;
static int SOLVE_ERR;

typedef struct { int value, dice, reuse, pat, nd, nk, next, stamp; } Cand;
static Cand BUCKET[DICE + 1][MAXCAP + 1]; /* by the size of the rest, by cost */
static int STAMP = 0;

static inline int gl_cost(int g, int nk, int ix) {
    int8_t *p = &GLC[g][ix];
    if (*p == GLC_UNKNOWN) *p = (int8_t)cached_cost(GL[g].cb, nk);
    return *p;
}

/* The distinct sub-multisets of the roll nk, grouped by size, each group in
 * the lexicographic order of the sorted dice: what enumerating every
 * r-combination of the sorted dice's indices and skipping a multiset already
 * seen gives (solver.py's ``combinations`` then ``seen``). That order is a
 * mixed-radix count down over the faces present, the smallest face the most
 * significant digit (more copies of a smaller face first); this counts up
 * instead, skipping past a digit as soon as the size would pass `most`, and
 * fills each group from its end: group r is SUBS[r].nk/ix[SUBS[r].at ...
 * SUBMAX), kept for the sizes in `want` (bit r). Made once a solve; the subsets of a
 * part of the roll are those of the roll that fit in it, in the same order,
 * and as the order is by the smallest die first, those whose smallest die is
 * face f + 1 or more start at SUBS[r].from[f]. */
#define SUBMAX 35 /* at most C(7, 3) = 35 of one size */
typedef struct { int at, nk[SUBMAX], ix[SUBMAX], from[7]; } SubList;
static SubList SUBS[DICE + 1];

static void sub_multisets(int nk, int most, int want) {
    SubList *out = SUBS;
    int max[6], cnt[6], key[6], wt[6], nf = 0;
    for (int r = 0; r <= most; r++) out[r].at = SUBMAX;
    for (int f = 0; f < 6; f++) {
        int c = nk >> (4 * f) & 7;
        if (!c) continue;
        max[nf] = c; cnt[nf] = 0; key[nf] = 1 << (4 * f); wt[nf] = W[f]; nf++;
    }
    int sk = 0, si = 0, size = 0;
    for (;;) {
        if (want >> size & 1) {
            SubList *o = &out[size];
            o->at--;
            o->nk[o->at] = sk; o->ix[o->at] = si;
        }
        int j = nf - 1;
        for (;;) {
            if (j < 0) goto done;
            if (cnt[j] < max[j] && size < most) {
                cnt[j]++; sk += key[j]; si += wt[j]; size++;
                break;
            }
            sk -= cnt[j] * key[j]; si -= cnt[j] * wt[j]; size -= cnt[j]; cnt[j] = 0;
            j--;
        }
    }
done:
    for (int r = 0; r <= most; r++) { /* (the empty set, r = 0, fits anywhere) */
        if (!(want >> r & 1)) continue;
        SubList *o = &out[r];
        int t = o->at;
        for (int f = 0; f < 7; f++) {
            while (r && t < SUBMAX && __builtin_ctz((unsigned)o->nk[t]) >> 2 < f) t++;
            o->from[f] = t;
        }
    }
}

static int front_build(int nk, int ix, int m);

/* solver.py's _front: the Pareto front (cost up, value strictly up) of the
 * gain-free packings of the rest nk (index ix, m dice); returns its index,
 * the entries at EPOOL[FM[ix].at ...]. Most calls find it made already. */
static inline int front(int nk, int ix, int m) {
    if (FM[ix].gen == GEN) return ix;
    return front_build(nk, ix, m);
}

static __attribute__((noinline)) int front_build(int nk, int ix, int m) {
    Memo *me = &FM[ix];
    if (m == 0) {
        if (NE >= POOL) { SOLVE_ERR = 1; return ix; }
        EPOOL[NE] = (Entry){0, 0, 0, -1};
        me->at = NE++; me->len = 1; me->gen = GEN;
        return ix;
    }
    const int f0 = __builtin_ctz((unsigned)nk) >> 2; /* the smallest die */
    const int onk = nk - (1 << (4 * f0)), oix = ix - W[f0]; /* the others */
    const int k1 = front(onk, oix, m - 1); /* the first die left out */
    /* the sizes some gain-free option takes, from the first die and r others */
    const int want = SIZEWANT & ((2 << (m - 1)) - 1);
    if (!want) { /* no set fits: the others' front (pruned already), shared */
        me->at = FM[k1].at; me->len = FM[k1].len; me->gen = GEN;
        return ix;
    }
    if (STAMP == 0x7FFFFFFF) { memset(BUCKET, 0, sizeof BUCKET); STAMP = 0; }
    const int stamp = ++STAMP;
    Cand *bucket = BUCKET[m]; /* nested calls have smaller rests */
    int hi = -1;
    /* candidates in insertion order; a bucket keeps the first of the best */
#define OFFER(cost_, value_, dice_, reuse_, pat_, nd_, nk_, next_)                   \
    do {                                                                           \
        Cand *b_ = &bucket[(cost_)];                                               \
        if (b_->stamp != stamp || (value_) > b_->value ||                          \
            ((value_) == b_->value && (dice_) < b_->dice)) {                        \
            if (b_->stamp != stamp) {                                              \
                b_->stamp = stamp;                                                 \
                if ((cost_) > hi) hi = (cost_);                                    \
            }                                                                      \
            b_->value = (value_); b_->dice = (dice_); b_->reuse = (reuse_);        \
            b_->pat = (pat_); b_->nd = (nd_); b_->nk = (nk_); b_->next = (next_);  \
        }                                                                          \
    } while (0)
    /* the others' front, each entry in a bucket of its own (their costs
     * differ) */
    for (int e = 0; e < FM[k1].len; e++) {
        const Entry *x = &EPOOL[FM[k1].at + e];
        bucket[x->cost] = (Cand){x->value, x->dice, x->chain, -1, 0, 0, -1, stamp};
        hi = x->cost;
    }
    const int L = m - 1, most = 31 - __builtin_clz((unsigned)want);
    for (int r = 0; r <= most; r++) {
        const int mm = r + 1;
        if (!NBYSIZE[mm]) continue;
        const SubList *sl = &SUBS[r];
        /* the roll's parts of r dice in the others, none below the first */
        for (int t = sl->from[f0]; t < SUBMAX; t++) {
            if ((((onk | GUARD) - sl->nk[t]) & GUARD) != GUARD) continue;
            const int cnk = (1 << (4 * f0)) + sl->nk[t], cix = W[f0] + sl->ix[t];
            int sub = -1;
            for (int q = 0; q < NBYSIZE[mm]; q++) {
                const int g = BYSIZE[mm][q];
                const int c = gl_cost(g, cnk, cix);
                if (c < 0 || c > CAP) continue;
                if (sub < 0) sub = front(onk - sl->nk[t], oix - sl->ix[t], L - r);
                const int val = GL[g].value, pat = GL[g].pat;
                const Entry *x = &EPOOL[FM[sub].at], *end = x + FM[sub].len;
                for (; x < end && x->cost + c <= CAP; x++)
                    OFFER(x->cost + c, x->value + val, x->dice + mm, -1, pat, mm, cnk,
                          x->chain);
            }
        }
    }
#undef OFFER
    /* _prune: increasing cost, strictly increasing value */
    int at = NE, len = 0, have = 0, best = 0;
    for (int c = 0; c <= hi; c++) {
        Cand *b = &bucket[c];
        if (b->stamp != stamp) continue;
        if (have && b->value <= best) continue;
        have = 1; best = b->value;
        if (NE >= POOL || NN >= POOL) { SOLVE_ERR = 1; break; }
        int chain = b->reuse;
        if (b->pat >= 0) {
            NPOOL[NN] = (Node){b->pat, b->nd, b->nk, b->next};
            chain = NN++;
        }
        EPOOL[NE++] = (Entry){c, b->value, b->dice, chain};
        len++;
    }
    me->at = at; me->len = len; me->gen = GEN;
    return ix;
}

/* the front's best entry costing at most avail (-1: none) */
static int best_within(int key, int avail) {
    for (int e = FM[key].len - 1; e >= 0; e--)
        if (EPOOL[FM[key].at + e].cost <= avail) return FM[key].at + e;
    return -1;
}

typedef struct { int opt, nd, d[DICE], cost, fin[DICE], nk, ix; } GCand;
#define MAXGC 1024
static GCand GC[MAXGC]; static int NGC;
static int BASE_BUDGET;
/* best so far */
static int B_VALUE, B_SPENT, B_DICE, B_CHAIN, B_NG, B_SEQ[DICE];
static int CH[DICE], NCH;

static void order_gain(const int *chosen, int nc, int *out) { /* _order */
    int no = 0;
    for (int i = 0; i < nc; i++) { /* pos: gain >= cost, by cost (stable) */
        GCand *x = &GC[chosen[i]];
        if (GF[x->opt].gain < x->cost) continue;
        int k = no++;
        while (k > 0 && GC[out[k - 1]].cost > x->cost) { out[k] = out[k - 1]; k--; }
        out[k] = chosen[i];
    }
    int start = no;
    for (int i = 0; i < nc; i++) { /* neg: by decreasing gain (stable) */
        GCand *x = &GC[chosen[i]];
        if (GF[x->opt].gain >= x->cost) continue;
        int k = no++;
        while (k > start && GF[GC[out[k - 1]].opt].gain < GF[x->opt].gain) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = chosen[i];
    }
}

/* solver.py's _search over the gainful sets (in GC) taken from the rest nk
 * (index ix, m dice) */
static void rec(int start, int nk, int ix, int m, int value) {
    int saturated = 0;
    if (SOLVE_ERR) return;
    if (NCH) {
        int ordered[DICE];
        order_gain(CH, NCH, ordered);
        int avail = BASE_BUDGET, ok = 1;
        for (int i = 0; i < NCH; i++) {
            GCand *x = &GC[ordered[i]];
            if (x->cost > avail) { ok = 0; break; }
            avail += GF[x->opt].gain - x->cost;
        }
        if (ok) {
            int rk = front(nk, ix, m);
            int last = EPOOL[FM[rk].at + FM[rk].len - 1].cost;
            saturated = avail >= last;
            int t = best_within(rk, avail);
            if (t >= 0) {
                Entry *e = &EPOOL[t];
                int spent = e->cost;
                for (int i = 0; i < NCH; i++) spent += GC[CH[i]].cost;
                int dice = e->dice + DICE - m;
                int kv = value + e->value;
                if (kv > B_VALUE || (kv == B_VALUE && (spent < B_SPENT ||
                    (spent == B_SPENT && dice < B_DICE)))) {
                    B_VALUE = kv; B_SPENT = spent; B_DICE = dice; B_CHAIN = e->chain;
                    B_NG = NCH;
                    memcpy(B_SEQ, ordered, sizeof(int) * (size_t)NCH);
                }
            }
        }
    }
    for (int j = start; j < NGC; j++) {
        GCand *c = &GC[j];
        if (saturated && GF[c->opt].value <= 0) continue;
        if ((((nk | GUARD) - c->nk) & GUARD) != GUARD) continue; /* not in the rest */
        if (NCH >= DICE) { SOLVE_ERR = 1; return; }
        CH[NCH++] = j;
        rec(j, nk - c->nk, ix - c->ix, m - c->nd, value + GF[c->opt].value);
        NCH--;
    }
}

/* solver.best_assignment(rolled, _options(played), track, role): the sets in
 * order as (slot, k, die ids, finals). Returns the number of sets, -1 on error. */
static int solve(const Row *played, int role, const int *rolled, int bud, Set *out,
                 int finals[][DICE]) {
    int oslot[MAXOPT], ok_[MAXOPT], ocb[MAXOPT], nopt = 0;
    for (int slot = 0; slot < played->n; slot++) {
        char ch = played->c[slot];
        for (int k = 0; k < NCB[(int)ch]; k++) {
            if (nopt >= MAXOPT) return -1;
            oslot[nopt] = slot; ok_[nopt] = k; ocb[nopt] = CB[(int)ch][k]; nopt++;
        }
    }
    /* _prepare */
    int base_budget = bud; /* the engine's bud already holds the crosses' gains */
    Opt gl[MAXOPT]; int ngl = 0;
    int seenp[MAXOPT], seenv[MAXOPT], seeng[MAXOPT], nseen = 0;
    NGF = 0;
    for (int i = 0; i < nopt; i++) {
        const Combo *c = &COMBO[ocb[i]];
        int f0 = c->eff[3 * role], g = c->eff[3 * role + 1], f2 = c->eff[3 * role + 2];
        if (!f0 && !g && !f2) continue;
        int v = f0 + f2;
        if (c->kind == K_CROSS) continue;
        if (v <= 0 && g <= 0) continue;
        int dup = 0;
        for (int q = 0; q < nseen; q++)
            if (seenp[q] == c->pat && seenv[q] == v && seeng[q] == g) { dup = 1; break; }
        if (dup) continue;
        seenp[nseen] = c->pat; seenv[nseen] = v; seeng[nseen] = g; nseen++;
        Opt o = {i, ocb[i], c->pat, c->n, v, g};
        if (g > 0) GF[NGF++] = o;
        else gl[ngl++] = o;
    }
    NGL = 0;
    for (int i = 0; i < ngl; i++) {
        int q = 0;
        while (q < NGL && GL[q].pat != gl[i].pat) q++;
        if (q == NGL) GL[NGL++] = gl[i];
        else if (gl[i].value > GL[q].value) GL[q] = gl[i];
    }
    int max_gain = 0;
    for (int i = 0; i < NGF; i++) if (GF[i].gain > max_gain) max_gain = GF[i].gain;
    CAP = base_budget + max_gain * DICE;
    if (CAP > MAXCAP || CAP < 0) return -1;
    memset(NBYSIZE, 0, sizeof NBYSIZE);
    SIZEWANT = 0;
    for (int i = 0; i < NGL; i++) { /* (a set of no dice is never chosen: size 1-7) */
        if (GL[i].size < 1) continue;
        BYSIZE[GL[i].size][NBYSIZE[GL[i].size]++] = i;
        SIZEWANT |= 1 << (GL[i].size - 1);
    }
    GEN++;
    if (GEN == 0x7FFFFFFF) { memset(FM, 0, sizeof FM); GEN = 1; }
    NE = NN = 0; SOLVE_ERR = 0;
    BASE_BUDGET = base_budget;
    /* the roll as a multiset: its key, the faces' mixed-radix weights, and its
     * index (the largest: every die) */
    int counts[6] = {0}, nk = 0, nidx = 1;
    for (int i = 0; i < DICE; i++) counts[rolled[i] - 1]++;
    for (int f = 0; f < 6; f++) {
        nk |= counts[f] << (4 * f);
        W[f] = nidx;
        nidx *= counts[f] + 1;
    }
    for (int g = 0; g < NGL; g++) memset(GLC[g], GLC_UNKNOWN, (size_t)nidx);
    /* the parts of the roll the search takes: of r + 1 dice for a gain-free
     * option (a front adds its first die), of n dice for a gainful one */
    int want = SIZEWANT;
    for (int g = 0; g < NGF; g++)
        if (GF[g].size > 0 && GF[g].size <= DICE) want |= 1 << GF[g].size;
    if (want) sub_multisets(nk, 31 - __builtin_clz((unsigned)want), want);
    int rk = front(nk, nidx - 1, DICE);
    if (SOLVE_ERR) return -1;
    int t = best_within(rk, base_budget);
    if (t < 0) return -1;
    B_VALUE = EPOOL[t].value; B_SPENT = EPOOL[t].cost; B_DICE = EPOOL[t].dice;
    B_CHAIN = EPOOL[t].chain; B_NG = 0;
    NGC = 0;
    if (NGF) {
        for (int g = 0; g < NGF; g++) {
            const Combo *c = &COMBO[GF[g].cb];
            int n = GF[g].size;
            /* distinct sub-multisets of the roll with n dice, sorted */
            const int from = n <= DICE && n > 0 ? SUBS[n].at : SUBMAX;
            const int *subk = SUBS[n].nk, *subi = SUBS[n].ix;
            for (int q = from; q < SUBMAX; q++) {
                int fin[DICE], dq[DICE];
                decode(subk[q], dq);
                int cost = compute_cost(c, dq, n, fin);
                if (cost < 0 || cost > CAP) continue;
                if (GF[g].value <= 0 && GF[g].gain <= cost) continue;
                if (NGC >= MAXGC) return -1;
                GCand *x = &GC[NGC++];
                x->opt = g; x->nd = n; x->cost = cost; x->nk = subk[q]; x->ix = subi[q];
                memcpy(x->d, dq, sizeof(int) * (size_t)n);
                memcpy(x->fin, fin, sizeof(int) * (size_t)n);
            }
        }
        NCH = 0;
        rec(0, nk, nidx - 1, DICE, 0);
        if (SOLVE_ERR) return -1;
    }
    /* the sets: gain sets in order, then the gain-free chain */
    int ns = 0;
    int free_[7][DICE], nfree[7] = {0}, ffirst[7] = {0};
    for (int i = 0; i < DICE; i++) free_[rolled[i]][nfree[rolled[i]]++] = i;
    for (int q = 0;; q++) {
        int opt, nd, d[DICE], fin[DICE];
        if (q >= B_NG && B_CHAIN < 0) break;
        if (ns >= DICE) return -1;
        if (q < B_NG) {
            GCand *x = &GC[B_SEQ[q]];
            opt = GF[x->opt].idx; nd = x->nd;
            memcpy(d, x->d, sizeof d); memcpy(fin, x->fin, sizeof fin);
        } else {
            if (B_CHAIN < 0) break;
            Node *nd_ = &NPOOL[B_CHAIN];
            B_CHAIN = nd_->next;
            int g = 0;
            while (g < NGL && GL[g].pat != nd_->pat) g++;
            if (g == NGL) return -1;
            opt = GL[g].idx; nd = nd_->nd; /* index_of[pattern] */
            decode(nd_->nk, d);
            if (compute_cost(&COMBO[ocb[opt]], d, nd, fin) < 0) return -1;
        }
        out[ns].slot = oslot[opt]; out[ns].k = ok_[opt]; out[ns].nd = nd;
        for (int i = 0; i < nd; i++) {
            int v = d[i];
            if (ffirst[v] >= nfree[v]) return -1;
            out[ns].d[i] = free_[v][ffirst[v]++];
            finals[ns][i] = fin[i];
        }
        ns++;
    }
    return ns;
}

/* ---- assignment.py: _check_assignment ------------------------------------- */

/* The checks of one set that do not depend on the others: its card's
 * combination, usable in the role, its number of dice, distinct dice ids, the
 * finals' faces and the combination met. Returns the set's dice as a mask
 * (-1: it fails) with its cost and gain. */
static int set_alone(const Row *played, int role, const int *rolled, const Set *st,
                     const int *fin, int *cost_, int *gain_) {
    if (st->slot < 0 || st->slot >= played->n) return -1;
    char ch = played->c[st->slot];
    if (st->k < 0 || st->k >= NCB[(int)ch] || !usable_k(ch, role, st->k)) return -1;
    const Combo *c = combo_of(ch, st->k);
    if (st->nd != c->n) return -1;
    int mask = 0;
    for (int i = 0; i < st->nd; i++) {
        int d = st->d[i];
        if (d < 0 || d >= DICE || (mask >> d & 1)) return -1;
        mask |= 1 << d;
    }
    for (int i = 0; i < st->nd; i++)
        if (fin[i] < 1 || fin[i] > 6) return -1;
    if (!satisfies(c, fin, st->nd)) return -1;
    int cost = 0;
    for (int i = 0; i < st->nd; i++) cost += abs(fin[i] - rolled[st->d[i]]);
    *cost_ = cost; *gain_ = c->eff[3 * role + 1];
    return mask;
}

/* a set after those before it: no die of theirs, and its cost within the
 * budget left (the dice spent so far and the gains so far) */
static inline int set_fits(int mask, int cost, int bud, int used, int gain, int spent) {
    return !(used & mask) && cost <= bud + gain - spent;
}

static int check_assignment(const Row *played, int role, const int *rolled, int bud,
                            const Set *sets, int nsets, int finals[][DICE], int *v,
                            Set *out, int *gain_, int *spent_) {
    int used = 0, gain = 0, spent = 0;
    for (int i = 0; i < DICE; i++) v[i] = rolled[i];
    for (int q = 0; q < nsets; q++) {
        const Set *st = &sets[q];
        int cost, g;
        const int mask = set_alone(played, role, rolled, st, finals[q], &cost, &g);
        if (mask < 0 || !set_fits(mask, cost, bud, used, gain, spent)) return 0;
        spent += cost;
        gain += g;
        used |= mask;
        for (int i = 0; i < st->nd; i++) v[st->d[i]] = finals[q][i];
        out[q] = *st;
    }
    *gain_ = gain; *spent_ = spent;
    return 1;
}

#endif
