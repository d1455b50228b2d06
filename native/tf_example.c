#include "tf_example.h"

#include "utf8.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *key;
    size_t key_n;
    size_t start, end; /* the value, as offsets into the payload */
} TfEntry;

typedef struct {
    const uint8_t *base;
    size_t fail_at;
    TfEntry *entries;
    size_t n, cap;
    int at_length; /* the failure is the length of a features field */
} TfState;

/* A varint of at most ten bytes ending before `end`; -1 if there is none. */
static int tf_varint(const uint8_t *b, size_t *pos, size_t end, uint64_t *out) {
    uint64_t v = 0;
    size_t p = *pos;
    for (int i = 0; i < 10 && p < end; i++) {
        uint8_t c = b[p++];
        v |= (uint64_t)(c & 0x7F) << (7 * i);
        if (c < 0x80) {
            *out = v;
            *pos = p;
            return 0;
        }
    }
    return -1;
}

#define WIRE_CHECK(expr)             \
    do {                             \
        int tf_status_ = (expr);     \
        if (tf_status_) return tf_status_; \
    } while (0)

#define FAIL(at, code)       \
    do {                     \
        st->fail_at = (at);  \
        return (code);       \
    } while (0)

static int tf_skip(TfState *st, size_t *pos, size_t end, int *differs) {
    const uint8_t *b = st->base;
    size_t start = *pos, p = *pos;
    uint64_t tag, v;
    if (tf_varint(b, &p, end, &tag)) FAIL(start, TF_STRUCTURE);
    if (((tag & 0xFFFFFFFFu) >> 3) == 1) *differs = 1;
    switch (tag & 7) {
        case 0:
            if (tf_varint(b, &p, end, &v)) FAIL(start, TF_STRUCTURE);
            break;
        case 1:
        case 5: {
            size_t size = (tag & 7) == 1 ? 8 : 4;
            if (end - p < size) FAIL(start, TF_STRUCTURE);
            p += size;
            break;
        }
        case 2:
            if (tf_varint(b, &p, end, &v)) FAIL(start, TF_STRUCTURE);
            v &= 0xFFFFFFFFu;
            if (v < ((uint64_t)1 << 31)) p = v > end - p ? end : p + (size_t)v;
            break;
        default:
            FAIL(start, TF_STRUCTURE);
    }
    *pos = p;
    return TF_OK;
}

static int tf_push(TfState *st, TfEntry e) {
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 16;
        TfEntry *items = realloc(st->entries, cap * sizeof(TfEntry));
        if (!items) return TF_NOMEM;
        st->entries = items;
        st->cap = cap;
    }
    st->entries[st->n++] = e;
    return TF_OK;
}

static int tf_features(TfState *st, size_t pos, size_t end) {
    const uint8_t *b = st->base;
    uint64_t v;
    while (pos < end) {
        if (b[pos] != 0x0A) FAIL(pos, TF_STRUCTURE);
        size_t entry = pos;
        pos++;
        if (tf_varint(b, &pos, end, &v)) FAIL(entry, TF_STRUCTURE);
        v &= 0xFFFFFFFFu;
        size_t stop = v > end - pos ? end : pos + (size_t)v;
        TfEntry e = {(const uint8_t *)"", 0, 0, 0};
        for (int k = 0; k < 2; k++) {
            uint64_t tag, size;
            if (pos >= stop) FAIL(entry, TF_STRUCTURE);
            if (tf_varint(b, &pos, stop, &tag)) FAIL(entry, TF_STRUCTURE);
            tag &= 0xFFFFFFFFu;
            if (tag != 0x0A && tag != 0x12) FAIL(entry, TF_STRUCTURE);
            if (tf_varint(b, &pos, stop, &size)) FAIL(entry, TF_STRUCTURE);
            size &= 0xFFFFFFFFu;
            if (size > stop - pos) FAIL(entry, TF_STRUCTURE);
            if (tag == 0x0A) {
                e.key = b + pos;
                e.key_n = (size_t)size;
            } else {
                e.start = pos;
                e.end = pos + (size_t)size;
            }
            pos += (size_t)size;
        }
        if (pos != stop) FAIL(entry, TF_STRUCTURE);
        if (tf_push(st, e)) return TF_NOMEM;
    }
    return TF_OK;
}

/* A list's values' bounds: its length, cut at the Feature's end as TensorFlow's parser
 * limits it; `more` when the length runs past that end. */
static int tf_list_bounds(TfState *st, size_t *pos, size_t end, size_t *stop, int *more) {
    uint64_t length;
    if (tf_varint(st->base, pos, end, &length)) FAIL(*pos, TF_LIST);
    length &= 0xFFFFFFFFu;
    *more = length != end - *pos;
    *stop = length < end - *pos ? *pos + (size_t)length : end;
    return TF_OK;
}

static int tf_float_list(TfState *st, size_t pos, size_t end, int *more) {
    const uint8_t *b = st->base;
    size_t stop;
    uint64_t size;
    WIRE_CHECK(tf_list_bounds(st, &pos, end, &stop, more));
    if (pos == stop) return TF_OK;
    if (b[pos] == 0x0A) {
        pos++;
        if (tf_varint(b, &pos, stop, &size)) FAIL(pos, TF_LIST);
        size &= 0xFFFFFFFFu;
        size_t run = size < stop - pos ? pos + (size_t)size : stop;
        if (4 * (size / 4) > run - pos) FAIL(pos, TF_LIST);
        if (size % 4 != 0 || size != stop - pos) *more = 1;
        return TF_OK;
    }
    while (pos < stop) {
        if (b[pos] != 0x0D) FAIL(pos, TF_LIST);
        if (stop - pos < 5) FAIL(pos, TF_LIST);
        pos += 5;
    }
    return TF_OK;
}

static int tf_int64_list(TfState *st, size_t pos, size_t end, int *more) {
    const uint8_t *b = st->base;
    size_t stop;
    uint64_t size, v;
    WIRE_CHECK(tf_list_bounds(st, &pos, end, &stop, more));
    if (pos == stop) return TF_OK;
    if (b[pos] == 0x0A) {
        pos++;
        if (tf_varint(b, &pos, stop, &size)) FAIL(pos, TF_LIST);
        size &= 0xFFFFFFFFu;
        if (size != stop - pos) *more = 1;
        size_t run = size < stop - pos ? pos + (size_t)size : stop;
        while (pos < run)
            if (tf_varint(b, &pos, run, &v)) FAIL(pos, TF_LIST);
        return TF_OK;
    }
    while (pos < stop) {
        if (b[pos] != 0x08) FAIL(pos, TF_LIST);
        pos++;
        if (tf_varint(b, &pos, stop, &v)) FAIL(pos, TF_LIST);
    }
    return TF_OK;
}

static int tf_bytes_list(TfState *st, size_t pos, size_t end, int *more) {
    const uint8_t *b = st->base;
    size_t stop;
    uint64_t size;
    WIRE_CHECK(tf_list_bounds(st, &pos, end, &stop, more));
    while (pos < stop) {
        size_t at = pos;
        if (b[pos] != 0x0A) FAIL(pos, TF_LIST);
        pos++;
        if (tf_varint(b, &pos, stop, &size)) FAIL(pos, TF_LIST);
        size &= 0xFFFFFFFFu;
        if (size > stop - pos) FAIL(at, TF_LIST);
        pos += (size_t)size;
    }
    return TF_OK;
}

static int tf_feature(TfState *st, size_t start, size_t end, int *more) {
    *more = 0;
    if (start == end) return TF_OK;
    switch (st->base[start]) {
        case 0x0A:
            return tf_bytes_list(st, start + 1, end, more);
        case 0x12:
            return tf_float_list(st, start + 1, end, more);
        case 0x1A:
            return tf_int64_list(st, start + 1, end, more);
        default:
            FAIL(start, TF_KIND);
    }
}

static uint64_t tf_hash(const uint8_t *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* The entries that survive (the last of each key), checked; the earliest failure wins.
 * A surviving key that is not UTF-8 is read by TensorFlow and refused by protobuf. */
static int tf_values(TfState *st, int64_t *offset, int *differs) {
    size_t cap = 16;
    while (cap < 2 * st->n) cap *= 2;
    size_t *slots = malloc(cap * sizeof(size_t));
    if (!slots) return TF_NOMEM;
    memset(slots, 0xFF, cap * sizeof(size_t));
    int code = TF_OK;
    size_t best = (size_t)-1;
    for (size_t i = st->n; i-- > 0;) {
        TfEntry *e = &st->entries[i];
        size_t h = (size_t)tf_hash(e->key, e->key_n) & (cap - 1);
        int seen = 0;
        while (slots[h] != (size_t)-1) {
            TfEntry *o = &st->entries[slots[h]];
            if (o->key_n == e->key_n && memcmp(o->key, e->key, e->key_n) == 0) {
                seen = 1;
                break;
            }
            h = (h + 1) & (cap - 1);
        }
        if (seen) continue;
        slots[h] = i;
        if (!utf8_valid(e->key, e->key_n)) *differs = 1;
        int more = 0;
        int got = tf_feature(st, e->start, e->end, &more);
        if (got == TF_NOMEM) {
            free(slots);
            return TF_NOMEM;
        }
        if (got != TF_OK) {
            if (st->fail_at < best) {
                best = st->fail_at;
                code = got;
            }
        } else if (more) {
            *differs = 1;
        }
    }
    free(slots);
    if (code != TF_OK) *offset = (int64_t)best;
    return code;
}

/* The Example's own fields: the features fields' spans (into `spans`, start and stop
 * pairs, when given) and the others skipped; TF_OK or where skipping fails. */
typedef struct {
    int64_t *items; /* start, stop pairs */
    size_t n, cap;  /* pairs */
} TfSpans;

static int tf_span(TfSpans *sp, size_t start, size_t stop) {
    if (sp->n == sp->cap) {
        size_t cap = sp->cap ? sp->cap * 2 : 8;
        int64_t *items = realloc(sp->items, cap * 2 * sizeof(int64_t));
        if (!items) return TF_NOMEM;
        sp->items = items;
        sp->cap = cap;
    }
    sp->items[2 * sp->n] = (int64_t)start;
    sp->items[2 * sp->n + 1] = (int64_t)stop;
    sp->n++;
    return TF_OK;
}

static int tf_top(TfState *st, size_t n, int *differs, TfSpans *spans, int check_features) {
    const uint8_t *p = st->base;
    size_t pos = 0;
    uint64_t length;
    while (pos < n) {
        if (p[pos] == 0x0A) {
            size_t at = pos;
            pos++;
            if (tf_varint(p, &pos, n, &length)) {
                st->fail_at = at + 1;
                st->at_length = 1;
                return TF_STRUCTURE;
            }
            length &= 0xFFFFFFFFu;
            size_t stop = pos + (length < n - pos ? (size_t)length : n - pos);
            if (length > n - pos) *differs = 1; /* read up to the end; protobuf refuses */
            if (spans && tf_span(spans, pos, stop)) return TF_NOMEM;
            if (check_features) WIRE_CHECK(tf_features(st, pos, stop));
            pos = stop;
        } else {
            WIRE_CHECK(tf_skip(st, &pos, n, differs));
        }
    }
    return TF_OK;
}

int tf_example_check(const uint8_t *p, size_t n, int64_t *offset, int *differs,
                     size_t *entries) {
    TfState state = {p, 0, NULL, 0, 0, 0};
    *offset = -1;
    *differs = 0;
    int code = tf_top(&state, n, differs, NULL, 1);
    *entries = state.n;
    if (code == TF_OK) {
        code = tf_values(&state, offset, differs);
    } else if (code != TF_NOMEM) {
        *offset = (int64_t)state.fail_at;
    }
    free(state.entries);
    return code;
}

int tf_example_fields(const uint8_t *p, size_t n, int64_t *offset, int *differs,
                      int64_t **spans, size_t *n_spans) {
    TfState state = {p, 0, NULL, 0, 0, 0};
    TfSpans sp = {NULL, 0, 0};
    *offset = -1;
    *differs = 0;
    int code = tf_top(&state, n, differs, &sp, 1); /* stops where a sequential walk stops */
    if (code != TF_OK && code != TF_NOMEM) *offset = (int64_t)state.fail_at;
    if (state.at_length) *differs |= 2;
    free(state.entries);
    *spans = sp.items;
    *n_spans = sp.n;
    return code;
}
