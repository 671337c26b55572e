/* Kung Fu (2019): the state's fields as the C builds read them, shared by
 * _fastobserve.c and _fastassign.c (its fight.h and commit.h), so the order
 * is written once. It is the order engine.py's ``setup`` makes them in: every
 * later state is a copy that replaces values and keeps it, and observe.h's
 * read_fields() then reads them all in one pass (any other order still reads,
 * key by key). Include after <Python.h>. */
#ifndef KFA_KUNGFU2019_STATE_FIELDS_H
#define KFA_KUNGFU2019_STATE_FIELDS_H

enum { F_game, F_rules_version, F_cfg, F_rng, F_n, F_phase, F_round, F_turn,
       F_deck, F_packs, F_picks, F_hands, F_tracks, F_hp, F_elim, F_nfight,
       F_commit, F_played, F_dummy, F_discard, F_order, F_oi, F_fight, F_di,
       F_result, F_COUNT };
static PyObject *STATE_KEYS[F_COUNT]; /* from state_keys_init() */

/* STATE_KEYS, interned (the same objects as the module's other interned
 * names, which read_fields() compares by identity): 0, or -1 with an
 * exception. */
static int state_keys_init(void) {
    static const char *names[F_COUNT] = {
        "game", "rules_version", "cfg", "rng", "n", "phase", "round", "turn",
        "deck", "packs", "picks", "hands", "tracks", "hp", "elim", "nfight",
        "commit", "played", "dummy", "discard", "order", "oi", "fight", "di",
        "result"};
    for (int i = 0; i < F_COUNT; i++)
        if (!(STATE_KEYS[i] = PyUnicode_InternFromString(names[i]))) return -1;
    return 0;
}

#endif
