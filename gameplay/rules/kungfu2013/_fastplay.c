/* Kung Fu (2013): a native random-playout kernel (optional CPython extension).
 *
 * It plays exactly the rules of the engine (the task loop ``_run`` of
 * rounds.py, the decision handlers ``_h_*`` of handlers.py, the menus
 * ``_menu_*`` of menus.py), with the same SplitMix64 generator
 * and the same mixed-radix Fisher-Yates shuffle as gameplay/rules/rng.py, so a
 * state played on here ends exactly as engine.py's ``playout`` ends it when
 * that is fed the same choices. Every decision picks index
 * ``randbelow(choice_state, len(menu))`` of the engine's menu (in menu order),
 * the choice stream being a second SplitMix64 counter (rng.py's ``randbelow``).
 *
 * The card data are not written here: ``init`` receives them from cards.py
 * (through native.py) when the engine is imported. The state travels as a flat
 * tuple of fields (native.py's ``_native_fields`` / ``_native_store``).
 * Comments name the Python function each block mirrors; the rules and their
 * readings are documented there and in docs/rules/kungfu2013.md.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../splitmix.h" /* gameplay/rules/rng.py in C */

#define MAXC 64   /* a row of cards: a hand, a deck, a pile, a front */
#define MAXT 128  /* the task stack */

/* Effect codes; the order of EFFECT_NAMES is exported as _fastplay.EFFECTS. */
enum { E_NONE = 0, E_NULLIFY, E_INITIATIVE, E_DRAW3, E_NO_BLOCK, E_DISCARD2,
       E_BREAK_COIN, E_HEAL2, E_COUNT };
static const char *EFFECT_NAMES[] = {"nullify", "initiative", "draw3", "no_block",
                                     "discard2", "break_coin", "heal2"};

/* Phases and tasks: the order of PHASE_NAMES / TASK_NAMES is exported too. */
enum { P_INITIATIVE = 0, P_DRAW, P_ATTACK, P_FACE, P_BLOCK, P_EFFECT, P_PAY,
       P_TARGET, P_REWARD, P_OVER, P_COUNT };
static const char *PHASE_NAMES[] = {"initiative", "draw", "attack", "face", "block",
                                    "effect", "pay", "target", "reward", "over"};
enum { T_DRAW = 0, T_ROUND, T_INIT, T_ATTACK, T_FACE, T_BLOCK, T_EFFECT, T_PAY,
       T_RESOLVE, T_TARGET, T_REWARD, T_OUTCOME, T_HIT, T_CLEANUP, T_COUNT };
static const char *TASK_NAMES[] = {"draw", "round", "init", "attack", "face",
                                   "block", "effect", "pay", "resolve", "target",
                                   "reward", "outcome", "hit", "cleanup"};
/* How a game ended (rounds.py's _finish reasons). */
enum { R_NONE = 0, R_ROUND_LIMIT, R_NO_ATTACK, R_KNOCKOUT };

/* Card table, indexed by the card's character (a byte). */
static int ready = 0;
static int8_t IS_CARD[128], IS_RED[128], VALUE[128], RISE[128], COINS[128],
    EFFECT[128], COST[128], ON_HIT[128];
static int WORDS[MAXC + 1]; /* rng._WORDS: 64-bit words per shuffle of n cards */

typedef struct { uint8_t kind, seat; int16_t n; } Task;
typedef struct { char c[MAXC]; int n; } Row;

typedef struct {
    uint64_t rng;
    int life[2];
    Row hand[2], rdeck, bdeck, rdisc, bdisc, front[2];
    int init, round, noblk[2], max_rounds;
    /* the battle (rounds.py's _new_battle) */
    int a; char ac, face, bc; int blocked; char null_; int act[2];
    int av, bv, hit, dmg; int flip[4]; int nflip;
    Task todo[MAXT]; int ntodo;
    int phase, actor, reason;
    int error; /* set when an invariant fails: the caller raises */
} St;

/* ---- gameplay/rules/rng.py ------------------------------------------------ */

static void shuffled(uint64_t *c, Row *r) {
    shuffle_chars(c, r->c, r->n, WORDS[r->n]);
}

/* ---- rows of cards -------------------------------------------------------- */

static inline void push(St *s, Row *r, char ch) {
    if (r->n >= MAXC) { s->error = 1; return; }
    r->c[r->n++] = ch;
}

static inline void remove_at(Row *r, int j) {
    memmove(r->c + j, r->c + j + 1, (size_t)(r->n - j - 1));
    r->n--;
}

static inline void remove_card(Row *r, char ch) { /* str.replace(card, "") */
    for (int i = 0; i < r->n; i++)
        if (r->c[i] == ch) { remove_at(r, i); return; }
}

static inline int nred(const Row *r) {
    int k = 0;
    for (int i = 0; i < r->n; i++) k += IS_RED[(int)r->c[i]];
    return k;
}

static inline int coins(const Row *r) {
    int k = 0;
    for (int i = 0; i < r->n; i++) k += COINS[(int)r->c[i]];
    return k;
}

static inline void pushtask(St *s, int kind, int seat, int n) {
    if (s->ntodo >= MAXT) { s->error = 1; return; }
    Task *t = &s->todo[s->ntodo++];
    t->kind = (uint8_t)kind; t->seat = (uint8_t)seat; t->n = (int16_t)n;
}

static inline int can_draw(const St *s) {
    return s->rdeck.n || s->bdeck.n || s->rdisc.n || s->bdisc.n;
}

/* ---- helpers that change the state (rounds.py) --------------------------- */

static void draw_one(St *s, int seat, int red) { /* _draw_one */
    Row *deck = red ? &s->rdeck : &s->bdeck;
    if (!deck->n) {
        Row *pile = red ? &s->rdisc : &s->bdisc;
        if (!pile->n) return;
        *deck = *pile;
        shuffled(&s->rng, deck);
        pile->n = 0;
    }
    char card = deck->c[--deck->n];
    push(s, &s->hand[seat], card);
}

static inline void discard(St *s, char card) { /* _discard */
    push(s, IS_RED[(int)card] ? &s->rdisc : &s->bdisc, card);
}

static inline void change_initiative(St *s) { /* _change_initiative */
    int old = s->init;
    s->init = 1 - old;
    pushtask(s, T_DRAW, old, 3);
}

static void finish(St *s, int reason) { /* _finish */
    s->reason = reason;
    s->phase = P_OVER;
    s->actor = -1;
    s->ntodo = 0;
}

static void new_battle(St *s, int attacker) { /* _new_battle */
    s->a = attacker; s->ac = 0; s->face = 0; s->bc = 0; s->blocked = 0;
    s->null_ = 0; s->act[0] = s->act[1] = 0; s->av = s->bv = 0; s->hit = 0;
    s->dmg = 0; s->nflip = 0;
}

static void break_coin(St *s, int owner, char card) { /* _break_coin */
    remove_card(&s->front[owner], card);
    discard(s, card);
}

static void resolve_effect(St *s, int seat, int effect) { /* _resolve_effect */
    int opp = 1 - seat;
    switch (effect) {
    case E_DRAW3:
        pushtask(s, T_DRAW, seat, 3);
        break;
    case E_HEAL2: /* reading 14: always two tokens, full life or not */
        s->life[seat] += 2;
        break;
    case E_DISCARD2: {
        Row *hand = &s->hand[opp];
        for (int k = 0; k < 2; k++) {
            if (!hand->n) break;
            int j = randbelow(&s->rng, hand->n);
            char card = hand->c[j];
            remove_at(hand, j);
            discard(s, card);
        }
        break;
    }
    case E_BREAK_COIN: {
        Row *front = &s->front[opp];
        if (front->n > 1) pushtask(s, T_TARGET, seat, 0);
        else if (front->n) break_coin(s, opp, front->c[0]);
        break;
    }
    case E_NO_BLOCK:
        s->noblk[opp] = s->round + 1;
        break;
    case E_NULLIFY:
        if (s->bc) {
            char card = s->bc;
            s->null_ = card;
            s->bc = 0;
            discard(s, card);
        }
        break;
    case E_INITIATIVE:
        if (s->nflip >= 4) { s->error = 1; break; }
        s->flip[s->nflip++] = seat;
        break;
    default:
        break;
    }
}

static void after_block(St *s) { /* _after_block */
    s->blocked = 1;
    int d = 1 - s->a;
    pushtask(s, T_CLEANUP, 0, 0);
    pushtask(s, T_HIT, 0, 0);
    pushtask(s, T_OUTCOME, 0, 0);
    pushtask(s, T_EFFECT, d, 0);
    pushtask(s, T_EFFECT, s->a, 0);
}

static void pay(St *s, int seat, char card, int due) { /* _pay */
    remove_card(&s->front[seat], card);
    discard(s, card);
    if (due - COINS[(int)card] > 0) pushtask(s, T_PAY, seat, due - COINS[(int)card]);
}

static void activate(St *s, int seat) { /* _activate */
    char card = seat == s->a ? s->ac : s->bc;
    s->act[seat] = 1;
    int effect = EFFECT[(int)card];
    if (effect != E_NONE) {
        if (ON_HIT[(int)card]) s->hit = 1;
        else resolve_effect(s, seat, effect);
    }
}

static inline int value_of(const St *s, char card, int seat) { /* _value */
    if (s->act[seat] && RISE[(int)card] >= 0) return RISE[(int)card];
    return VALUE[(int)card];
}

static int outcome(St *s) { /* _outcome: 1 when a decision is pending */
    int a = s->a, d = 1 - a;
    int av = value_of(s, s->ac, a);
    int bv = s->bc ? value_of(s, s->bc, d) : 0;
    s->av = av; s->bv = bv;
    if (av > bv) {
        int dmg = av - bv;
        if (dmg > s->life[d]) dmg = s->life[d];
        s->life[d] -= dmg;
        s->dmg = dmg;
        if (s->life[d] <= 0) { finish(s, R_KNOCKOUT); return 1; }
        return 0;
    }
    if (av == bv) return 0;
    s->phase = P_REWARD; s->actor = d;
    pushtask(s, T_REWARD, 0, 0);
    return 1;
}

static void cleanup(St *s) { /* _cleanup */
    int a = s->a, d = 1 - a;
    int seats[2] = {a, d};
    char cards[2] = {s->ac, s->bc};
    for (int k = 0; k < 2; k++) {
        char card = cards[k];
        if (!card) continue;
        if (COINS[(int)card]) push(s, &s->front[seats[k]], card);
        else discard(s, card);
    }
    s->ac = s->bc = s->null_ = 0;
    pushtask(s, T_ROUND, 0, 0);
    /* Reading 12: every after-battle change names the same result, the
       battle's defender attacks next: at most one change, none if the reward
       already gave it the initiative. */
    if (s->nflip && s->init == a) change_initiative(s);
    s->nflip = 0;
}

/* _run: automatic tasks until one needs a decision (or the game ends). */
static void run(St *s) {
    while (s->ntodo && !s->error) {
        Task *t = &s->todo[s->ntodo - 1];
        switch (t->kind) {
        case T_DRAW: {
            int seat = t->seat, n = t->n;
            if (n <= 0) { s->ntodo--; continue; }
            int red = s->rdeck.n || s->rdisc.n;
            int blue = s->bdeck.n || s->bdisc.n;
            if (red && blue) { s->phase = P_DRAW; s->actor = seat; return; }
            s->ntodo--;
            if (!(red || blue)) continue;
            if (n > 1) pushtask(s, T_DRAW, seat, n - 1);
            draw_one(s, seat, red);
            break;
        }
        case T_ROUND:
            s->ntodo--;
            if (s->round >= s->max_rounds) { finish(s, R_ROUND_LIMIT); return; }
            s->round++;
            new_battle(s, s->init);
            pushtask(s, T_INIT, 0, 0);
            break;
        case T_INIT: {
            int h = s->init;
            if (!nred(&s->hand[h])) {
                if (!nred(&s->hand[1 - h]) && !can_draw(s)) {
                    finish(s, R_NO_ATTACK);
                    return;
                }
                change_initiative(s);
                continue;
            }
            if (can_draw(s)) { s->phase = P_INITIATIVE; s->actor = h; return; }
            s->ntodo--;
            pushtask(s, T_ATTACK, 0, 0);
            break;
        }
        case T_ATTACK:
            s->a = s->init;
            s->phase = P_ATTACK; s->actor = s->init;
            return;
        case T_FACE:
            s->phase = P_FACE; s->actor = s->a;
            return;
        case T_BLOCK: {
            int d = 1 - s->a;
            int blues = s->hand[d].n - nred(&s->hand[d]);
            if (blues && s->noblk[d] != s->round) {
                s->phase = P_BLOCK; s->actor = d;
                return;
            }
            s->ntodo--;
            after_block(s);
            break;
        }
        case T_EFFECT: {
            int seat = t->seat;
            char card = seat == s->a ? s->ac : s->bc;
            int cost = card ? COST[(int)card] : -1;
            if (cost < 0 || coins(&s->front[seat]) < cost) { s->ntodo--; continue; }
            s->phase = P_EFFECT; s->actor = seat;
            return;
        }
        case T_PAY: {
            int seat = t->seat, due = t->n;
            Row *front = &s->front[seat];
            if (due <= 0) { s->ntodo--; continue; }
            if (front->n == 1) {
                s->ntodo--;
                pay(s, seat, front->c[0], due);
                continue;
            }
            s->phase = P_PAY; s->actor = seat;
            return;
        }
        case T_RESOLVE: {
            int seat = t->seat;
            s->ntodo--;
            activate(s, seat);
            break;
        }
        case T_TARGET:
            s->phase = P_TARGET; s->actor = t->seat;
            return;
        case T_REWARD:
            s->phase = P_REWARD; s->actor = 1 - s->a;
            return;
        case T_OUTCOME:
            s->ntodo--;
            if (outcome(s)) return;
            break;
        case T_HIT:
            s->ntodo--;
            if (s->hit && s->dmg > 0) resolve_effect(s, s->a, EFFECT[(int)s->ac]);
            break;
        case T_CLEANUP:
            s->ntodo--;
            cleanup(s);
            break;
        default:
            s->error = 1;
            return;
        }
    }
}

#include "decisions.h" /* the menus and decide(), after run() and the helpers */

/* ---- Python interface ------------------------------------------------------ */

static int load_row(St *s, PyObject *str, Row *r) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(str, &n);
    if (!p) return -1;
    if (n > MAXC) { PyErr_SetString(PyExc_ValueError, "row of cards too long"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 128 || !IS_CARD[c]) {
            PyErr_SetString(PyExc_ValueError, "not a card character");
            return -1;
        }
        r->c[i] = (char)c;
    }
    r->n = (int)n;
    (void)s;
    return 0;
}

static int load_card(PyObject *str, char *out) {
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(str, &n);
    if (!p) return -1;
    if (n == 0) { *out = 0; return 0; }
    if (n != 1 || (unsigned char)p[0] >= 128 || !IS_CARD[(unsigned char)p[0]]) {
        PyErr_SetString(PyExc_ValueError, "not a card character");
        return -1;
    }
    *out = p[0];
    return 0;
}

static PyObject *row_str(const Row *r) {
    return PyUnicode_FromStringAndSize(r->c, r->n);
}

static PyObject *card_str(char c) {
    return PyUnicode_FromStringAndSize(&c, c ? 1 : 0);
}

PyDoc_STRVAR(init_doc,
"init(cards, words)\n\n"
"The card table: ``cards`` is a sequence of (character, is_red, value, rise or -1,\n"
"coins, effect index into EFFECTS + 1 or 0, cost or -1, on_hit) rows; ``words``\n"
"is rng._WORDS (64-bit words per shuffle of n cards) for n up to 64.");

static PyObject *py_init(PyObject *self, PyObject *args) {
    PyObject *cards, *words;
    if (!PyArg_ParseTuple(args, "OO", &cards, &words)) return NULL;
    PyObject *seq = PySequence_Fast(cards, "cards must be a sequence");
    if (!seq) return NULL;
    memset(IS_CARD, 0, sizeof IS_CARD);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(seq, i);
        int ch, red, value, rise, cn, effect, cost, on_hit;
        if (!PyArg_ParseTuple(row, "Cpiiiiip", &ch, &red, &value, &rise, &cn, &effect,
                              &cost, &on_hit)) {
            Py_DECREF(seq);
            return NULL;
        }
        if (ch <= 0 || ch >= 128 || effect < 0 || effect >= E_COUNT) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "bad card row");
            return NULL;
        }
        IS_CARD[ch] = 1; IS_RED[ch] = (int8_t)red; VALUE[ch] = (int8_t)value;
        RISE[ch] = (int8_t)rise; COINS[ch] = (int8_t)cn; EFFECT[ch] = (int8_t)effect;
        COST[ch] = (int8_t)cost; ON_HIT[ch] = (int8_t)on_hit;
    }
    Py_DECREF(seq);
    PyObject *wseq = PySequence_Fast(words, "words must be a sequence");
    if (!wseq) return NULL;
    if (PySequence_Fast_GET_SIZE(wseq) < MAXC + 1) {
        Py_DECREF(wseq);
        PyErr_SetString(PyExc_ValueError, "words must cover 0..64 cards");
        return NULL;
    }
    for (int i = 0; i <= MAXC; i++) {
        long w = PyLong_AsLong(PySequence_Fast_GET_ITEM(wseq, i));
        if (w < 0 || w > 8) {
            Py_DECREF(wseq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "shuffle needs more than 8 words");
            return NULL;
        }
        WORDS[i] = (int)w;
    }
    Py_DECREF(wseq);
    ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(playout_doc,
"playout(fields, choice, max_steps) -> (fields, choice, steps)\n\n"
"Play the state given as native.py's flat field tuple on to the end (or\n"
"``max_steps`` decisions, -1 for no limit), each decision taking index\n"
"``randbelow(choice, len(menu))`` of the engine's menu. Returns the new field\n"
"tuple, the choice stream's new counter and the number of decisions.");

PyDoc_STRVAR(policy_playout_doc,
"policy_playout(fields, choice, max_steps) -> (fields, choice, steps)\n\n"
"``playout`` with rollout.py's playout policy instead of uniform choices: what\n"
"ISMCTS's playouts and the post-game analysis run after their heuristic plies.\n"
"Each decision is rollout.py's ``choose`` on the choice stream, so the state\n"
"ends exactly as rollout.py's Python twin ends it.");

/* playout and policy_playout: parse, play, build the answer. */
static PyObject *play(PyObject *args, int policy) {
    PyObject *f;
    unsigned long long choice;
    long long max_steps;
    if (!PyArg_ParseTuple(args, "O!KL", &PyTuple_Type, &f, &choice, &max_steps))
        return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_fastplay.init was not called");
        return NULL;
    }
    if (PyTuple_GET_SIZE(f) != 32) {
        PyErr_SetString(PyExc_ValueError, "expected 32 state fields");
        return NULL;
    }
    St s;
    memset(&s, 0, sizeof s);
#define INT(i) ((int)PyLong_AsLong(PyTuple_GET_ITEM(f, i)))
    s.rng = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(f, 0));
    s.life[0] = INT(1); s.life[1] = INT(2);
    if (load_row(&s, PyTuple_GET_ITEM(f, 3), &s.hand[0]) ||
        load_row(&s, PyTuple_GET_ITEM(f, 4), &s.hand[1]) ||
        load_row(&s, PyTuple_GET_ITEM(f, 5), &s.rdeck) ||
        load_row(&s, PyTuple_GET_ITEM(f, 6), &s.bdeck) ||
        load_row(&s, PyTuple_GET_ITEM(f, 7), &s.rdisc) ||
        load_row(&s, PyTuple_GET_ITEM(f, 8), &s.bdisc) ||
        load_row(&s, PyTuple_GET_ITEM(f, 9), &s.front[0]) ||
        load_row(&s, PyTuple_GET_ITEM(f, 10), &s.front[1]))
        return NULL;
    s.init = INT(11); s.round = INT(12); s.noblk[0] = INT(13); s.noblk[1] = INT(14);
    s.max_rounds = INT(15); s.a = INT(16);
    if (load_card(PyTuple_GET_ITEM(f, 17), &s.ac) ||
        load_card(PyTuple_GET_ITEM(f, 19), &s.bc) ||
        load_card(PyTuple_GET_ITEM(f, 21), &s.null_))
        return NULL;
    {
        Py_ssize_t n;
        const char *p = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(f, 18), &n);
        if (!p) return NULL;
        if (n > 1 || (n == 1 && p[0] != 'u' && p[0] != 'd')) {
            PyErr_SetString(PyExc_ValueError, "face must be '', 'u' or 'd'");
            return NULL;
        }
        s.face = n ? p[0] : 0;
    }
    s.blocked = INT(20); s.act[0] = INT(22); s.act[1] = INT(23);
    s.av = INT(24); s.bv = INT(25); s.hit = INT(26); s.dmg = INT(27);
    {
        PyObject *fl = PyTuple_GET_ITEM(f, 28);
        Py_ssize_t n = PySequence_Length(fl);
        if (n < 0) return NULL;
        if (n > 4) { PyErr_SetString(PyExc_ValueError, "flip too long"); return NULL; }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *x = PySequence_GetItem(fl, i);
            if (!x) return NULL;
            s.flip[i] = (int)PyLong_AsLong(x);
            Py_DECREF(x);
        }
        s.nflip = (int)n;
    }
    {
        PyObject *td = PyTuple_GET_ITEM(f, 29); /* bytes: kind, seat, n per task */
        char *p;
        Py_ssize_t n;
        if (PyBytes_AsStringAndSize(td, &p, &n) < 0) return NULL;
        if (n % 3 || n / 3 > MAXT) {
            PyErr_SetString(PyExc_ValueError, "bad task stack");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n / 3; i++) {
            s.todo[i].kind = (uint8_t)p[3 * i];
            s.todo[i].seat = (uint8_t)p[3 * i + 1];
            s.todo[i].n = (int16_t)(int8_t)p[3 * i + 2];
            if (s.todo[i].kind >= T_COUNT) {
                PyErr_SetString(PyExc_ValueError, "bad task");
                return NULL;
            }
        }
        s.ntodo = (int)(n / 3);
    }
    s.phase = INT(30); s.actor = INT(31);
#undef INT
    if (PyErr_Occurred()) return NULL;
    if (s.phase < 0 || s.phase >= P_COUNT) {
        PyErr_SetString(PyExc_ValueError, "bad phase");
        return NULL;
    }
    uint64_t ch = (uint64_t)choice;
    long long steps = 0;
    while (s.actor >= 0 && steps != max_steps && !s.error) {
        if (!s.ntodo) { s.error = 1; break; }
        decide(&s, &ch, policy);
        steps++;
    }
    if (s.error) {
        PyErr_SetString(PyExc_RuntimeError, "kungfu2013 native playout: invalid state");
        return NULL;
    }
    char tbuf[3 * MAXT];
    for (int i = 0; i < s.ntodo; i++) {
        tbuf[3 * i] = (char)s.todo[i].kind;
        tbuf[3 * i + 1] = (char)s.todo[i].seat;
        tbuf[3 * i + 2] = (char)(int8_t)s.todo[i].n;
    }
    PyObject *flip = PyTuple_New(s.nflip);
    if (!flip) return NULL;
    for (int i = 0; i < s.nflip; i++) PyTuple_SET_ITEM(flip, i, PyLong_FromLong(s.flip[i]));
    char face = s.face;
    PyObject *out = Py_BuildValue(
        "(KiiNNNNNNNNiiiiiiNNNiNiiiiiiNy#iii)", (unsigned long long)s.rng, s.life[0],
        s.life[1], row_str(&s.hand[0]), row_str(&s.hand[1]), row_str(&s.rdeck),
        row_str(&s.bdeck), row_str(&s.rdisc), row_str(&s.bdisc), row_str(&s.front[0]),
        row_str(&s.front[1]), s.init, s.round, s.noblk[0], s.noblk[1], s.max_rounds,
        s.a, card_str(s.ac), PyUnicode_FromStringAndSize(&face, face ? 1 : 0),
        card_str(s.bc), s.blocked, card_str(s.null_), s.act[0], s.act[1], s.av, s.bv,
        s.hit, s.dmg, flip, tbuf, (Py_ssize_t)(3 * s.ntodo), s.phase, s.actor,
        s.reason);
    if (!out) return NULL;
    return Py_BuildValue("(NKL)", out, (unsigned long long)ch, steps);
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    return play(args, 0);
}

static PyObject *py_policy_playout(PyObject *self, PyObject *args) {
    return play(args, 1);
}

static PyMethodDef methods[] = {
    {"init", py_init, METH_VARARGS, init_doc},
    {"playout", py_playout, METH_VARARGS, playout_doc},
    {"policy_playout", py_policy_playout, METH_VARARGS, policy_playout_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastplay",
    "Kung Fu (2013) native playouts: uniform random (engine.py's random_playout)\n"
"and by the playout policy (rollout.py's playout).", -1,
    methods,
};

static PyObject *names(const char **list, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyUnicode_FromString(list[i]));
    return t;
}

PyMODINIT_FUNC PyInit__fastplay(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObject(m, "EFFECTS", names(EFFECT_NAMES, E_COUNT - 1)) ||
        PyModule_AddObject(m, "PHASES", names(PHASE_NAMES, P_COUNT)) ||
        PyModule_AddObject(m, "TASKS", names(TASK_NAMES, T_COUNT)) ||
        PyModule_AddIntConstant(m, "FIELDS", 32)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
