/* Kung Fu (2019), the dice game: a native random-playout kernel (optional
 * CPython extension), following the pattern of kungfu2013/_fastplay.c.
 *
 * It plays exactly the rules of engine.py (the draft ``_h_pick``, the commits
 * ``_h_play``, ``_reveal`` with its tie-break shuffle and the 2-player dummy,
 * ``_start_fight`` and its rolls, every small dice decision of ``_h_assign``
 * with the menu ``_assign_ids``, ``_resolve``, ``_end_round``), with the same
 * SplitMix64 generator and mixed-radix Fisher-Yates shuffle as
 * gameplay/rules/rng.py. "auto" and "best" need the exact solver: solver.py's
 * algorithm is reproduced step by step below (the same enumeration orders, so
 * the same answer among equally good assignments). The seat that acts is the
 * first of ``actors`` and every decision picks index
 * ``randbelow(choice_state, len(menu))`` of the engine's menu, the choice
 * stream being a second SplitMix64 counter (engine.py's ``uniform_chooser``).
 *
 * No card data are written here: ``init`` receives the card and combination
 * tables from cards.py (through engine.py) when the engine is imported. The
 * state travels as a flat tuple of fields (engine.py's ``_native_fields`` /
 * ``_native_store``); the result (placements) is built by engine.py's
 * ``_finish`` from the HP and eliminations the kernel returns.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../splitmix.h" /* gameplay/rules/rng.py in C */

#define MAXC 80     /* a row of cards (the deck has 74) */
#define MAXP 5      /* players */
#define DICE 7
#define PLAY 3
#define HAND 10
#define ROUNDS 3
#define MAXCOMBO 4  /* combinations per card */
#define MAXCOMBOS 512
#define DUMMY (-1)

enum { K_CROSS = 0, K_FACES, K_KIND, K_STRAIGHT, K_SUM_OVER, K_SUM_UNDER };
enum { PH_DRAFT = 0, PH_PLAY, PH_ASSIGN, PH_OVER };
enum { R_NONE = 0, R_ROUNDS, R_LAST, R_ALL };
enum { ATT = 0, DEF = 1 };
/* effect fields: atk hit hp def avo yy; role r uses 3r, 3r+1 (gain), 3r+2 */

typedef struct {
    int kind, n, faces, total, pat; /* faces: bit f set for face f */
    int eff[6];
} Combo;

static int ready = 0;
static Combo COMBO[MAXCOMBOS];
static int NCOMBO = 0;
static int8_t IS_CARD[128], INIT[128], ICON[128], NCB[128];
static int16_t CB[128][MAXCOMBO];
/* per card and role: usable combination ks (needs dice, active in role) */
static int8_t NUSE[128][2], USE[128][2][MAXCOMBO];
static int CROSS_[128][2][3]; /* summed red-cross fields: main, gain, side */
static int STEP[5], START_HP[6];
static int WORDS[MAXC + 1];

typedef struct { char c[MAXC]; int n; } Row;
typedef struct { int slot, k, nd; int d[DICE]; } Set;
typedef struct {
    int v[DICE];
    Set sets[DICE]; int nsets;
    int has_open; Set open;
    int bud, gain, spent, done;
    int prop; /* the proposal below is computed */
    int pv[DICE]; Set psets[DICE]; int pnsets, pgain, pspent;
} Asg;

typedef struct {
    uint64_t rng;
    int n, phase, round, turn;
    Row deck, discard, dummy;
    Row packs[MAXP], picks[MAXP], hands[MAXP], commit[MAXP], played[MAXP];
    int tracks[MAXP][5];
    int hp[MAXP], elim[MAXP], nfight;
    int order[MAXP + 1], norder, oi;
    int di, nstack; const unsigned char *stack;
    int fight, fa, ff[MAXP], nf;
    int has_dice[MAXP], dice[MAXP][DICE];
    int has_asg[MAXP]; Asg asg[MAXP];
    int reason, error;
} St;

/* ---- gameplay/rules/rng.py ------------------------------------------------ */

static void shuffled(uint64_t *c, char *r, int n) { /* rng.shuffled */
    shuffle_chars(c, r, n, WORDS[n]);
}

/* ---- rows ------------------------------------------------------------------ */

static inline void push(St *s, Row *r, char ch) {
    if (r->n >= MAXC) { s->error = 1; return; }
    r->c[r->n++] = ch;
}

static inline void remove_card(Row *r, char ch) { /* str.replace(card, "") */
    int j = 0;
    for (int i = 0; i < r->n; i++)
        if (r->c[i] != ch) r->c[j++] = r->c[i];
    r->n = j;
}

static int sorted_row(const Row *r, char *out) {
    int n = r->n;
    for (int i = 0; i < n; i++) {
        char c = r->c[i];
        int k = i;
        while (k > 0 && (unsigned char)out[k - 1] > (unsigned char)c) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = c;
    }
    return n;
}

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
        int best = -1, bv = 0;
        for (int v = 1; v <= 6; v++) {
            if (c->faces && !(c->faces >> v & 1)) continue;
            int cc = 0;
            for (int i = 0; i < m; i++) cc += abs(dice[i] - v);
            if (best < 0 || cc < best) { best = cc; bv = v; }
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
    for (int f = 0; f < 6; f++)
        for (int c = nk >> (4 * f) & 7; c > 0; c--) out[n++] = f + 1;
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

/* The distinct sub-multisets of nk with at most `most` dice, grouped by size,
 * each group in the lexicographic order of the sorted dice: what enumerating
 * every r-combination of the sorted dice's indices and skipping a multiset
 * already seen gives (solver.py's ``combinations`` then ``seen``). That order
 * is a mixed-radix count down over the faces present, the smallest face the
 * most significant digit (more copies of a smaller face first); this counts
 * up instead, skipping past a digit as soon as the size would pass `most`,
 * and fills each group from its end. Only the sizes in `want` (bit r) are
 * kept; group r is out[r].nk/ix[out[r].at ... SUBMAX). */
#define SUBMAX 35 /* at most C(7, 3) = 35 of one size */
typedef struct { int at, nk[SUBMAX], ix[SUBMAX]; } SubList;

static void sub_multisets(int nk, int most, int want, SubList *out) {
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
            if (j < 0) return;
            if (cnt[j] < max[j] && size < most) {
                cnt[j]++; sk += key[j]; si += wt[j]; size++;
                break;
            }
            sk -= cnt[j] * key[j]; si -= cnt[j] * wt[j]; size -= cnt[j]; cnt[j] = 0;
            j--;
        }
    }
}

/* solver.py's _front: the Pareto front (cost up, value strictly up) of the
 * gain-free packings of the rest nk (index ix, m dice); returns its index,
 * the entries at EPOOL[FM[ix].at ...]. */
static int front(int nk, int ix, int m) {
    Memo *me = &FM[ix];
    if (me->gen == GEN) return ix;
    if (m == 0) {
        if (NE >= POOL) { SOLVE_ERR = 1; return ix; }
        EPOOL[NE] = (Entry){0, 0, 0, -1};
        me->at = NE++; me->len = 1; me->gen = GEN;
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
    const int f0 = __builtin_ctz((unsigned)nk) >> 2; /* the smallest die */
    const int onk = nk - (1 << (4 * f0)), oix = ix - W[f0]; /* the others */
    int k1 = front(onk, oix, m - 1);
    for (int e = 0; e < FM[k1].len; e++) {
        const Entry *x = &EPOOL[FM[k1].at + e];
        OFFER(x->cost, x->value, x->dice, x->chain, -1, 0, 0, -1);
    }
    /* the sizes some gain-free option takes, from the first die and r others */
    const int want = SIZEWANT & ((2 << (m - 1)) - 1);
    if (want) {
        const int L = m - 1, most = 31 - __builtin_clz((unsigned)want);
        SubList subs[DICE];
        sub_multisets(onk, most, want, subs);
        for (int r = 0; r <= most; r++) {
            const int mm = r + 1;
            if (!NBYSIZE[mm]) continue;
            const SubList *sl = &subs[r];
            for (int t = sl->at; t < SUBMAX; t++) {
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
            SubList subs[DICE + 1];
            if (n <= DICE && n > 0) sub_multisets(nk, n, 1 << n, subs);
            const int from = n <= DICE && n > 0 ? subs[n].at : SUBMAX;
            const int *subk = subs[n].nk, *subi = subs[n].ix;
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

/* ---- engine.py: _check_assignment --------------------------------------------- */

static int check_assignment(const Row *played, int role, const int *rolled, int bud,
                            const Set *sets, int nsets, int finals[][DICE], int *v,
                            Set *out, int *gain_, int *spent_) {
    int used = 0, gain = 0, spent = 0;
    for (int i = 0; i < DICE; i++) v[i] = rolled[i];
    for (int q = 0; q < nsets; q++) {
        const Set *st = &sets[q];
        if (st->slot < 0 || st->slot >= played->n) return 0;
        char ch = played->c[st->slot];
        if (st->k < 0 || st->k >= NCB[(int)ch] || !usable_k(ch, role, st->k)) return 0;
        const Combo *c = combo_of(ch, st->k);
        if (st->nd != c->n) return 0;
        int mask = 0;
        for (int i = 0; i < st->nd; i++) {
            int d = st->d[i];
            if (d < 0 || d >= DICE || (used >> d & 1) || (mask >> d & 1)) return 0;
            mask |= 1 << d;
        }
        for (int i = 0; i < st->nd; i++)
            if (finals[q][i] < 1 || finals[q][i] > 6) return 0;
        if (!satisfies(c, finals[q], st->nd)) return 0;
        int cost = 0;
        for (int i = 0; i < st->nd; i++) cost += abs(finals[q][i] - rolled[st->d[i]]);
        if (cost > bud + gain - spent) return 0;
        spent += cost;
        gain += c->eff[3 * role + 1];
        used |= mask;
        for (int i = 0; i < st->nd; i++) v[st->d[i]] = finals[q][i];
        out[q] = *st;
    }
    *gain_ = gain; *spent_ = spent;
    return 1;
}

/* ---- flow (engine.py) --------------------------------------------------------- */

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
        for (int j = 0; j < g->nsets; j++) {
            int v[DICE], gn, sp, no; Set out[DICE];
            if (without(s, seat, j, v, out, &no, &gn, &sp)) m[n++] = (Act){A_DROP, j, 0};
        }
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
"Play the state given as engine.py's flat field tuple on to the end (or\n"
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
"``solve``'s answer checked by the kernel's copy of engine._check_assignment, in\n"
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
