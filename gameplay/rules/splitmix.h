/* The C side of gameplay/rules/rng.py, shared by every native code that
 * draws: the playout kernels (gameplay/rules/<game>/_fastplay.c) and any C
 * step of a game's public API that rolls or shuffles. It must draw exactly
 * what rng.py draws: their tests compare whole games and steps against the
 * Python engines. */
#ifndef KFA_SPLITMIX_H
#define KFA_SPLITMIX_H

#include <stdint.h>

#define GAMMA 0x9E3779B97F4A7C15ULL
#define SHUFFLE_MAX_WORDS 10 /* rng._words_for(n) for n up to 100 cards */

/* rng._mix: the SplitMix64 output function. */
static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* rng.draw, one output. */
static inline uint64_t next64(uint64_t *c) {
    *c += GAMMA;
    return mix(*c);
}

/* rng.randbelow. */
static inline int randbelow(uint64_t *c, int bound) {
    return (int)(next64(c) % (uint64_t)bound);
}

/* rng.shuffled on n chars in place: `words` outputs (rng._WORDS[n]) form one big
 * number, first output most significant, read in the mixed radix n, n-1, ..., 2
 * to drive Fisher-Yates. */
static inline void shuffle_chars(uint64_t *c, char *r, int n, int words) {
    if (n < 2) return;
    uint64_t big[SHUFFLE_MAX_WORDS];
    for (int k = 0; k < words; k++) big[k] = next64(c);
    int top = 0; /* first non-zero limb */
    for (int i = n - 1; i > 0; i--) {
        uint64_t d = (uint64_t)(i + 1);
        unsigned __int128 rem = 0;
        while (top < words && big[top] == 0) top++;
        for (int k = top; k < words; k++) {
            unsigned __int128 cur = (rem << 64) | big[k];
            big[k] = (uint64_t)(cur / d);
            rem = cur % d;
        }
        int j = (int)rem;
        char t = r[i]; r[i] = r[j]; r[j] = t;
    }
}

#endif
