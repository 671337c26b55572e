/* Example Duelo bot in C for WebAssembly (WASI): a random legal action.
 *
 * Build it to main.wasm with the zig that the platform ships, and upload the
 * .wasm (any wasm32-wasi compiler will do: Rust, Zig, TinyGo, clang):
 *   python -m ziglang cc -target wasm32-wasi -O2 -s -I bots/sdk \
 *       bots/examples/duelo_random_wasm.c -o main.wasm
 *   python manage.py botmatch main.wasm --game duelo --vs random
 * The module has no clock of its own worth trusting for limits: it is given
 * fuel (about one unit per instruction) per decision instead.
 */
#include "kungfu_bot.h"

#define GAME "duelo"

static unsigned long long state = 0x9E3779B97F4A7C15ULL;

static const char *choose(const kf_turn *turn, void *user) {
    (void)user;
    /* xorshift64: deterministic, so a replay makes the same choices. */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return turn->legal_ids[state % (unsigned long long)turn->n_legal];
}

int main(void) { return kf_run(choose, NULL, NULL, NULL); }
