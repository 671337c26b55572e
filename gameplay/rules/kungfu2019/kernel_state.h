/* Kung Fu (2019) kernel, part of _fastplay.c (included there, not built on its
 * own): the bounds, the card and combination tables ``init`` fills, the state
 * (St) and its rows. See _fastplay.c for what the kernel is.
 */
#ifndef KUNGFU2019_KERNEL_STATE_H
#define KUNGFU2019_KERNEL_STATE_H

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

#endif
