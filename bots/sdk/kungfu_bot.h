/* Kung Fu Arena bot SDK for C and C++ (and C compiled to WebAssembly):
 * protocol v1 in one header, standard library only, with a small JSON reader.
 *
 * The platform puts this file next to your main.c / main.cpp unless you ship
 * your own copy. A whole bot is:
 *
 *     #include "kungfu_bot.h"
 *     #define GAME "duelo"
 *     static const char *choose(const kf_turn *turn, void *user) {
 *         return turn->legal_ids[0];
 *     }
 *     int main(void) { return kf_run(choose, NULL, NULL, NULL); }
 *
 * kf_run answers the hello, calls choose() for every request to act and sends
 * back the id it returns, and returns 0 at game_over. Log with kf_log()
 * (stderr, kept for you on the bot page): stdout carries the protocol. The
 * same shape as the Python SDK: hello, turn, game over, log, run, KF_PASS.
 * A message's tree (kf_json) lives until the next message is read: copy what
 * you want to keep. The full protocol is in docs/protocol/bots.md.
 */
#ifndef KUNGFU_BOT_H
#define KUNGFU_BOT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Real time: the intent that does nothing this tick (always in the menu). */
#define KF_PASS "pass"

typedef enum { KF_NULL, KF_FALSE, KF_TRUE, KF_NUMBER, KF_STRING, KF_ARRAY, KF_OBJECT } kf_type;

typedef struct kf_json {
    kf_type type;
    double number;
    const char *string;       /* KF_STRING: the decoded text (UTF-8) */
    const char *key;          /* set when this value is an object member */
    struct kf_json *child;    /* first element / member */
    struct kf_json *next;     /* next sibling */
    int length;               /* elements / members */
} kf_json;

typedef struct {
    const kf_json *raw;
    const char *game;
    int seat, players;
    const char *rules_version;
    const kf_json *config, *time;
} kf_hello;

typedef struct {
    const kf_json *raw;
    int step;
    const kf_json *observation, *events, *legal, *actors, *refused;
    const char **legal_ids;   /* the ids you may answer with, in menu order */
    int n_legal;
    long deadline_ms;
    long tick;                /* real time: the clock's tick; -1 in turn-based games */
} kf_turn;

typedef struct {
    const kf_json *raw, *result, *observation;
    const char *reason;
} kf_game_over;

typedef const char *(*kf_choose_fn)(const kf_turn *turn, void *user);
typedef void (*kf_hello_fn)(const kf_hello *hello, void *user);
typedef void (*kf_game_over_fn)(const kf_game_over *over, void *user);

/* Object member by key, or NULL. */
static inline const kf_json *kf_get(const kf_json *object, const char *key) {
    if (!object || object->type != KF_OBJECT) return NULL;
    for (const kf_json *m = object->child; m; m = m->next)
        if (strcmp(m->key, key) == 0) return m;
    return NULL;
}
/* Array element by index, or NULL. */
static inline const kf_json *kf_at(const kf_json *array, int index) {
    if (!array || array->type != KF_ARRAY) return NULL;
    const kf_json *e = array->child;
    while (e && index-- > 0) e = e->next;
    return e;
}
static inline const char *kf_str(const kf_json *v, const char *fallback) {
    return v && v->type == KF_STRING ? v->string : fallback;
}
static inline double kf_num(const kf_json *v, double fallback) {
    return v && v->type == KF_NUMBER ? v->number : fallback;
}
static inline int kf_len(const kf_json *v) {
    return v && (v->type == KF_ARRAY || v->type == KF_OBJECT) ? v->length : 0;
}

/* Print to stderr, which the platform keeps (bounded) for the bot's owner. */
static inline void kf_log(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
}

/* ---- a small JSON reader: one arena per message ------------------------- */

typedef struct {
    char *arena;
    size_t used, size;
    const char *p;
    int failed;
} kf__parser;

static inline void *kf__alloc(kf__parser *ps, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (ps->used + n > ps->size) { ps->failed = 1; return NULL; }
    void *out = ps->arena + ps->used;
    ps->used += n;
    return out;
}
static inline void kf__ws(kf__parser *ps) {
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' || *ps->p == '\n') ps->p++;
}
static inline void kf__utf8(char **out, unsigned long cp) {
    char *o = *out;
    if (cp < 0x80) *o++ = (char)cp;
    else if (cp < 0x800) { *o++ = (char)(0xC0 | (cp >> 6)); *o++ = (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | (cp >> 12)); *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (cp >> 18)); *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F)); *o++ = (char)(0x80 | (cp & 0x3F));
    }
    *out = o;
}
static inline unsigned long kf__hex4(kf__parser *ps) {
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned long)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned long)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned long)(c - 'A' + 10);
        else { ps->failed = 1; return 0; }
    }
    return v;
}
static inline const char *kf__string(kf__parser *ps) {
    const char *start = ++ps->p; /* after the quote */
    size_t n = 0;
    while (start[n] && start[n] != '"') n += start[n] == '\\' && start[n + 1] ? 2 : 1;
    char *out = (char *)kf__alloc(ps, n + 1), *o = out;
    if (!out) return "";
    while (*ps->p && *ps->p != '"') {
        char c = *ps->p++;
        if (c != '\\') { *o++ = c; continue; }
        c = *ps->p++;
        switch (c) {
            case 'n': *o++ = '\n'; break;
            case 't': *o++ = '\t'; break;
            case 'r': *o++ = '\r'; break;
            case 'b': *o++ = '\b'; break;
            case 'f': *o++ = '\f'; break;
            case 'u': {
                unsigned long cp = kf__hex4(ps);
                if (cp >= 0xD800 && cp < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                    ps->p += 2;
                    unsigned long low = kf__hex4(ps);
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                kf__utf8(&o, cp);
                break;
            }
            case '\0': ps->failed = 1; ps->p--; break;
            default: *o++ = c;
        }
    }
    if (*ps->p == '"') ps->p++; else ps->failed = 1;
    *o = '\0';
    return out;
}
static inline kf_json *kf__value(kf__parser *ps, int depth) {
    kf__ws(ps);
    kf_json *v = (kf_json *)kf__alloc(ps, sizeof(kf_json));
    if (!v || depth > 200) { ps->failed = 1; return NULL; }
    memset(v, 0, sizeof *v);
    char c = *ps->p;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? KF_OBJECT : KF_ARRAY;
        char close = c == '{' ? '}' : ']';
        ps->p++;
        kf_json **tail = &v->child;
        kf__ws(ps);
        if (*ps->p == close) { ps->p++; return v; }
        while (!ps->failed) {
            const char *key = NULL;
            if (v->type == KF_OBJECT) {
                kf__ws(ps);
                if (*ps->p != '"') { ps->failed = 1; break; }
                key = kf__string(ps);
                kf__ws(ps);
                if (*ps->p++ != ':') { ps->failed = 1; break; }
            }
            kf_json *item = kf__value(ps, depth + 1);
            if (!item) break;
            item->key = key;
            *tail = item;
            tail = &item->next;
            v->length++;
            kf__ws(ps);
            if (*ps->p == ',') { ps->p++; continue; }
            if (*ps->p == close) { ps->p++; break; }
            ps->failed = 1;
        }
    } else if (c == '"') {
        v->type = KF_STRING;
        v->string = kf__string(ps);
    } else if (strncmp(ps->p, "true", 4) == 0) { v->type = KF_TRUE; ps->p += 4; }
    else if (strncmp(ps->p, "false", 5) == 0) { v->type = KF_FALSE; ps->p += 5; }
    else if (strncmp(ps->p, "null", 4) == 0) { v->type = KF_NULL; ps->p += 4; }
    else {
        char *end;
        v->type = KF_NUMBER;
        v->number = strtod(ps->p, &end);
        if (end == ps->p) ps->failed = 1;
        ps->p = end;
    }
    return v;
}

/* Parse one JSON text into `arena` (NULL when malformed or too big). */
static inline const kf_json *kf_parse(const char *text, char *arena, size_t size) {
    kf__parser ps = {arena, 0, size, text, 0};
    kf_json *root = kf__value(&ps, 0);
    return ps.failed ? NULL : root;
}

/* ---- the protocol --------------------------------------------------------- */

static inline char *kf__read_line(char **buf, size_t *cap) {
    size_t n = 0;
    int c;
    while ((c = getchar()) != EOF) {
        if (n + 1 >= *cap) {
            *cap = *cap ? *cap * 2 : 65536;
            *buf = (char *)realloc(*buf, *cap);
            if (!*buf) return NULL;
        }
        if (c == '\n') break;
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0) return NULL;
    (*buf)[n] = '\0';
    return *buf;
}

static inline void kf__send_action(const char *id) {
    fputs("{\"action\":\"", stdout);
    for (const char *s = id; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    fputs("\"}\n", stdout);
    fflush(stdout);
}

/* Play one match; returns 0 at game_over, 1 if stdin ends or breaks first. */
static inline int kf_run(kf_choose_fn choose, kf_hello_fn on_hello,
                         kf_game_over_fn on_game_over, void *user) {
    char *line = NULL;
    size_t cap = 0;
    size_t arena_size = 1 << 20;
    char *arena = (char *)malloc(arena_size);
    const char **ids = NULL;
    int ids_cap = 0;
    while (kf__read_line(&line, &cap)) {
        size_t need = strlen(line) * 4 + 4096;
        if (need > arena_size) {
            arena_size = need;
            arena = (char *)realloc(arena, arena_size);
        }
        const kf_json *msg = arena ? kf_parse(line, arena, arena_size) : NULL;
        if (!msg) { kf_log("kungfu_bot.h: cannot parse a message"); break; }
        const char *type = kf_str(kf_get(msg, "type"), "");
        if (strcmp(type, "act") == 0) {
            kf_turn turn;
            turn.raw = msg;
            turn.step = (int)kf_num(kf_get(msg, "step"), 0);
            turn.observation = kf_get(msg, "observation");
            turn.events = kf_get(msg, "events");
            turn.legal = kf_get(msg, "legal");
            turn.actors = kf_get(msg, "actors");
            turn.refused = kf_get(msg, "refused");
            turn.deadline_ms = (long)kf_num(kf_get(msg, "deadline_ms"), 0);
            turn.tick = (long)kf_num(kf_get(msg, "tick"), -1);
            turn.n_legal = kf_len(turn.legal);
            if (turn.n_legal > ids_cap) {
                ids_cap = turn.n_legal;
                ids = (const char **)realloc((void *)ids, sizeof(char *) * (size_t)ids_cap);
            }
            int i = 0;
            for (const kf_json *a = turn.legal ? turn.legal->child : NULL; a; a = a->next)
                ids[i++] = kf_str(kf_get(a, "id"), "");
            turn.legal_ids = ids;
            kf__send_action(choose(&turn, user));
        } else if (strcmp(type, "hello") == 0) {
            if (on_hello) {
                kf_hello hello;
                hello.raw = msg;
                hello.game = kf_str(kf_get(msg, "game"), "");
                hello.seat = (int)kf_num(kf_get(msg, "seat"), 0);
                hello.players = (int)kf_num(kf_get(msg, "players"), 0);
                hello.rules_version = kf_str(kf_get(msg, "rules_version"), "");
                hello.config = kf_get(msg, "config");
                hello.time = kf_get(msg, "time");
                on_hello(&hello, user);
            }
            fputs("{\"ready\":true}\n", stdout);
            fflush(stdout);
        } else if (strcmp(type, "game_over") == 0) {
            if (on_game_over) {
                kf_game_over over;
                over.raw = msg;
                over.result = kf_get(msg, "result");
                over.observation = kf_get(msg, "observation");
                over.reason = kf_str(kf_get(msg, "reason"), "");
                on_game_over(&over, user);
            }
            free(line); free(arena); free((void *)ids);
            return 0;
        }
    }
    free(line); free(arena); free((void *)ids);
    return 1;
}

#ifdef __cplusplus
}
#endif
#endif /* KUNGFU_BOT_H */
