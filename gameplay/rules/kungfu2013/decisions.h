/* Kung Fu (2013): the kernel's decisions, included by _fastplay.c after the
 * task loop (``run``) and the helpers that change the state: the menus
 * (menus.py's ``_menu_*``, in menu order) and one decision of the actor
 * (``decide``: uniform, or rollout.py's playout policy), applied as
 * handlers.py's ``_h_*`` apply it. The Python functions named beside each
 * block are the reference; tests/rules/test_kungfu2013_native.py holds the
 * two equal. */

static int cmp_byte(const void *x, const void *y) {
    return (int)*(const unsigned char *)x - (int)*(const unsigned char *)y;
}

/* Sorted cards of one colour of a hand (small n: insertion sort). */
static int colour_sorted(const Row *hand, int red, char *out) {
    int n = 0;
    for (int i = 0; i < hand->n; i++) {
        char c = hand->c[i];
        if (IS_RED[(int)c] == red) {
            int k = n++;
            while (k > 0 && (unsigned char)out[k - 1] > (unsigned char)c) {
                out[k] = out[k - 1];
                k--;
            }
            out[k] = c;
        }
    }
    return n;
}

/* A policy decision among n > 0 entries that the policy leaves to chance: a
 * forced move (one entry) takes no draw, as in ISMCTS's playout loop. */
static inline int pick(uint64_t *choice, int n) {
    return n == 1 ? 0 : randbelow(choice, n);
}

/* One decision of the actor. Uniform (``policy`` 0): menu index
 * ``randbelow(choice, len(menu))``. Policy (``policy`` 1): rollout.py's
 * ``choose`` on the same stream, entry by entry (its docstring says why):
 * keep the initiative 17 times in 20, the stronger of two uniform attacks,
 * the weakest block that stops a face-up attack (else the strongest), always
 * use an effect, draw the difference when it is two or more; the rest uniform.
 * Every fixed menu has two entries, so only the hand and coin menus can force. */
static void decide(St *s, uint64_t *choice, int policy) {
    int seat = s->actor;
    Task *top = &s->todo[s->ntodo - 1];
    char menu[MAXC];
    int n, j;
    switch (s->phase) {
    case P_DRAW: { /* _menu_draw, _h_draw */
        const Row *hand = &s->hand[seat];
        int red_first = 2 * nred(hand) < hand->n;
        j = randbelow(choice, 2);
        int red = red_first ? j == 0 : j == 1;
        int left = top->n;
        if (left > 1) top->n = (int16_t)(left - 1);
        else s->ntodo--;
        draw_one(s, seat, red);
        break;
    }
    case P_INITIATIVE: /* _h_initiative */
        j = policy ? randbelow(choice, 20) >= 17 : randbelow(choice, 2);
        if (j == 0) {
            s->ntodo--;
            pushtask(s, T_ATTACK, 0, 0);
        } else {
            change_initiative(s);
        }
        break;
    case P_ATTACK: { /* _menu_attack, _h_attack */
        n = colour_sorted(&s->hand[seat], 1, menu);
        if (!n) { s->error = 1; return; }
        if (policy) {
            j = pick(choice, n);
            if (n > 1) {
                int k = randbelow(choice, n);
                if (k > j) j = k;
            }
        } else {
            j = randbelow(choice, n);
        }
        char card = menu[j];
        remove_card(&s->hand[seat], card);
        s->ac = card;
        top->kind = T_FACE;
        break;
    }
    case P_FACE: /* _h_face */
        j = randbelow(choice, 2);
        top->kind = T_BLOCK;
        if (j == 0) {
            s->face = 'u';
        } else {
            s->face = 'd';
            pushtask(s, T_DRAW, 1 - seat, 1);
        }
        break;
    case P_BLOCK: { /* _menu_block, _h_block */
        n = colour_sorted(&s->hand[seat], 0, menu);
        if (!n) { s->error = 1; return; }
        if (s->face == 'u') {
            int need = VALUE[(int)s->ac];
            for (int i = 0; i < n; i++) {
                if (VALUE[(int)menu[i]] >= need) {
                    char c = menu[i];
                    memmove(menu + 1, menu, (size_t)i);
                    menu[0] = c;
                    break;
                }
            }
        }
        if (!policy) j = randbelow(choice, n);
        else if (n == 1) j = 0;
        else if (s->face == 'u') /* menu[0]: the weakest that stops it, if any */
            j = VALUE[(int)menu[0]] >= VALUE[(int)s->ac] ? 0 : n - 1;
        else j = randbelow(choice, n);
        char card = menu[j];
        remove_card(&s->hand[seat], card);
        s->bc = card;
        s->ntodo--;
        after_block(s);
        break;
    }
    case P_EFFECT: /* _h_effect */
        j = policy ? 1 : randbelow(choice, 2);
        s->ntodo--;
        if (j == 1) {
            char mine = seat == s->a ? s->ac : s->bc;
            pushtask(s, T_RESOLVE, seat, 0);
            if (COST[(int)mine] > 0) pushtask(s, T_PAY, seat, COST[(int)mine]);
        }
        break;
    case P_PAY: /* _menu_pay (coins, card) ascending, _h_pay */
    case P_TARGET: { /* _menu_target (-coins, card) ascending, _h_target */
        int owner = s->phase == P_PAY ? seat : 1 - seat;
        const Row *front = &s->front[owner];
        n = front->n;
        if (!n) { s->error = 1; return; }
        memcpy(menu, front->c, (size_t)n);
        qsort(menu, (size_t)n, 1, cmp_byte);
        /* stable sort by coins (ascending for pay, descending for target) */
        int sign = s->phase == P_PAY ? 1 : -1;
        for (int i = 1; i < n; i++) {
            char c = menu[i];
            int k = i;
            while (k > 0 && sign * COINS[(int)menu[k - 1]] > sign * COINS[(int)c]) {
                menu[k] = menu[k - 1];
                k--;
            }
            menu[k] = c;
        }
        char card = menu[policy ? pick(choice, n) : randbelow(choice, n)];
        if (s->phase == P_PAY) {
            int due = top->n;
            s->ntodo--;
            pay(s, seat, card, due);
        } else {
            s->ntodo--;
            break_coin(s, 1 - seat, card);
        }
        break;
    }
    case P_REWARD: /* _h_reward */
        j = policy ? s->bv - s->av < 2 : randbelow(choice, 2);
        s->ntodo--;
        if (j == 0) pushtask(s, T_DRAW, seat, s->bv - s->av);
        else if (s->init != seat) change_initiative(s);
        break;
    default:
        s->error = 1;
        return;
    }
    run(s);
}
