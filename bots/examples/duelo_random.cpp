// Example Duelo bot in C++: a uniformly random legal action.
//
// Upload this file as is (it becomes main.cpp; the platform compiles it with
// zig c++ at validation), or try it locally first:
//   python manage.py botmatch bots/examples/duelo_random.cpp --vs random
#include <random>
#include <string>

#include "kungfu_bot.h"

#define GAME "duelo"

namespace {

std::mt19937_64 rng{std::random_device{}()};

const char *choose(const kf_turn *turn, void *) {
    std::uniform_int_distribution<int> pick(0, turn->n_legal - 1);
    return turn->legal_ids[pick(rng)];
}

void hello(const kf_hello *hello, void *) {
    kf_log("playing %s in seat %d of %d", GAME, hello->seat, hello->players);
}

}  // namespace

int main() { return kf_run(choose, hello, nullptr, nullptr); }
