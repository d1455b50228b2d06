#include "example.h"

#include "utf8.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t EMPTY[1] = {0};

/* -- growable arrays ------------------------------------------------------------- */
static int grow(void **items, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return WIRE_OK;
    size_t cap2 = *cap ? *cap * 2 : 16;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(*items, cap2 * size);
    if (!p) return WIRE_NOMEM;
    *items = p;
    *cap = cap2;
    return WIRE_OK;
}

#define PUSH(arr, n, cap, value)                                                  \
    do {                                                                          \
        if ((n) >= (cap)) WIRE_TRY(grow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr)))); \
        (arr)[(n)++] = (value);                                                   \
    } while (0)

void record_init(Record *r) { memset(r, 0, sizeof(*r)); }

void record_free(Record *r) {
    free(r->features.entries);
    free(r->features.values);
    free(r->lists.entries);
    free(r->lists.values);
    record_init(r);
}

void values_free(Values *v) {
    free(v->ints);
    free(v->floats);
    free(v->spans);
    memset(v, 0, sizeof(*v));
}

/* -- values ---------------------------------------------------------------------- */
static void values_reset_row(Values *v) {
    v->n_ints = v->row_ints;
    v->n_floats = v->row_floats;
    v->n_spans = v->row_spans;
}

static int add_int(FeatureState *st, uint64_t value) {
    st->count++;
    if (st->out) PUSH(st->out->ints, st->out->n_ints, st->out->cap_ints, (int64_t)value);
    return WIRE_OK;
}

static int add_float(FeatureState *st, const uint8_t *p) {
    st->count++;
    if (st->out) {
        uint32_t bits;
        float f;
        memcpy(&bits, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        bits = __builtin_bswap32(bits);
#endif
        memcpy(&f, &bits, 4);
        PUSH(st->out->floats, st->out->n_floats, st->out->cap_floats, (double)f);
    }
    return WIRE_OK;
}

static int add_bytes(FeatureState *st, const uint8_t *p, size_t n) {
    st->count++;
    if (st->out) {
        Values *v = st->out;
        WIRE_TRY(grow((void **)&v->spans, &v->cap_spans, v->n_spans + 2, sizeof(int64_t)));
        v->spans[v->n_spans++] = (int64_t)(p - v->base);
        v->spans[v->n_spans++] = (int64_t)n;
    }
    return WIRE_OK;
}

/* A BytesList (kind 1), FloatList (2) or Int64List (3) body. */
static int list_walk(const uint8_t *p, const uint8_t *end, int kind, FeatureState *st,
                     int depth) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        WIRE_TRY(wire_tag(&p, end, &field, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        if (field != 1) {
            WIRE_TRY(wire_skip(&p, end, field, wt, depth));
        } else if (kind == 1 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            if (st) WIRE_TRY(add_bytes(st, p, len));
            p += len;
        } else if (kind == 2 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            if (len % 4) return WIRE_MALFORMED;
            if (st)
                for (size_t k = 0; k < len; k += 4) WIRE_TRY(add_float(st, p + k));
            p += len;
        } else if (kind == 2 && wt == WT_I32) {
            if (end - p < 4) return WIRE_MALFORMED;
            if (st) WIRE_TRY(add_float(st, p));
            p += 4;
        } else if (kind == 3 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            const uint8_t *stop = p + len;
            while (p < stop) {
                uint64_t v;
                p = wire_varint(p, stop, &v);
                if (!p) return WIRE_MALFORMED;
                if (st) WIRE_TRY(add_int(st, v));
            }
        } else if (kind == 3 && wt == WT_VARINT) {
            uint64_t v;
            p = wire_varint(p, end, &v);
            if (!p) return WIRE_MALFORMED;
            if (st) WIRE_TRY(add_int(st, v));
        } else {
            WIRE_TRY(wire_skip(&p, end, field, wt, depth));
        }
    }
    return WIRE_OK;
}

/* A Feature body: a oneof of the three lists. A repeated member merges into the
 * current one; another member replaces it. `st` may be NULL to only validate. */
static int feature_walk(const uint8_t *p, const uint8_t *end, FeatureState *st, int depth) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        WIRE_TRY(wire_tag(&p, end, &field, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        if (field >= 1 && field <= 3 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            if (st && st->kind != (int)field) {
                st->kind = (int)field;
                st->count = 0;
                if (st->out) values_reset_row(st->out);
            }
            WIRE_TRY(list_walk(p, p + len, (int)field, st, depth + 1));
            p += len;
        } else {
            WIRE_TRY(wire_skip(&p, end, field, wt, depth));
        }
    }
    return WIRE_OK;
}

/* Whether the bytes of a packed varint list are valid: every varint ends inside and is
 * at most 10 bytes long. */
static inline int packed_varints_ok(const uint8_t *p, const uint8_t *end) {
    if (p == end) return 1;
    if (end[-1] & 0x80) return 0; /* the last varint runs past the end */
    int run = 0;
    for (; p < end; p++) {
        if (*p & 0x80) {
            if (++run >= 10) return 0;
        } else {
            run = 0;
        }
    }
    return 1;
}

/* A quick yes for a Feature in the usual encoding: one list member whose values are
 * packed (bytes: one field each), every tag and length one byte. 1 means valid; 0 means
 * "not that encoding", and the full walk decides. */
static inline int feature_common_ok(const uint8_t *p, const uint8_t *end) {
    if (p == end) return 1;
    if (end - p < 2 || p[1] >= 0x80 || p + 2 + p[1] != end) return 0;
    const uint8_t *q = p + 2;
    switch (p[0]) {
        case 0x0A: /* BytesList: values under field 1 */
            while (q < end) {
                if (end - q < 2 || q[0] != 0x0A || q[1] >= 0x80 || q[1] > end - q - 2) return 0;
                q += 2 + q[1];
            }
            return 1;
        case 0x12: /* FloatList: one packed field */
            return q == end ||
                   (end - q >= 2 && q[0] == 0x0A && q[1] < 0x80 && q + 2 + q[1] == end &&
                    q[1] % 4 == 0);
        case 0x1A: /* Int64List: one packed field */
            if (q == end) return 1;
            if (end - q < 2 || q[0] != 0x0A || q[1] >= 0x80 || q + 2 + q[1] != end) return 0;
            return packed_varints_ok(q + 2, end);
        default:
            return 0;
    }
}

/* A FeatureList body: repeated Feature steps. `step` is called per step, or NULL to
 * only validate; with `out`, each step's values are appended there. */
static int feature_list_walk(const uint8_t *p, const uint8_t *end,
                             int (*step)(void *, const FeatureState *), void *ctx,
                             Values *out, int depth) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        WIRE_TRY(wire_tag(&p, end, &field, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        if (field == 1 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            FeatureState st = {0, 0, out};
            if (out) { /* a oneof switch inside the step drops only this step's values */
                out->row_ints = out->n_ints;
                out->row_floats = out->n_floats;
                out->row_spans = out->n_spans;
            }
            WIRE_TRY(feature_walk(p, p + len, step ? &st : NULL, depth + 1));
            if (step) WIRE_TRY(step(ctx, &st));
            p += len;
        } else {
            WIRE_TRY(wire_skip(&p, end, field, wt, depth));
        }
    }
    return WIRE_OK;
}

/* One map entry (key 1, value 2); `lists` says whether values are FeatureLists. */
static int entry_parse(const uint8_t *p, const uint8_t *end, EntryList *out, int lists,
                       int depth) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    size_t first = out->n_values;
    /* The usual entry: the key, then the value, each with a one-byte tag and length. */
    if (!lists && end - p >= 4 && p[0] == 0x0A && p[1] < 0x80 && p[1] <= end - p - 4) {
        const uint8_t *k = p + 2, *v = p + 2 + p[1];
        if (v[0] == 0x12 && v[1] < 0x80 && v + 2 + v[1] == end) {
            if (!feature_common_ok(v + 2, end)) WIRE_TRY(feature_walk(v + 2, end, NULL, depth + 1));
            Span value = {v + 2, v[1]};
            PUSH(out->values, out->n_values, out->cap_values, value);
            Entry e = {{k, p[1]}, first, 1};
            PUSH(out->entries, out->n_entries, out->cap_entries, e);
            return WIRE_OK;
        }
    }
    Span key = {EMPTY, 0};
    int unknown = 0;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        WIRE_TRY(wire_tag(&p, end, &field, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        if (field == 1 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            key.p = p;
            key.n = len;
            p += len;
        } else if (field == 2 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            if (lists)
                WIRE_TRY(feature_list_walk(p, p + len, NULL, NULL, NULL, depth + 1));
            else if (!feature_common_ok(p, p + len))
                WIRE_TRY(feature_walk(p, p + len, NULL, depth + 1));
            Span value = {p, len};
            PUSH(out->values, out->n_values, out->cap_values, value);
            p += len;
        } else {
            WIRE_TRY(wire_skip(&p, end, field, wt, depth));
            unknown = 1;
        }
    }
    if (unknown) {
        out->n_values = first; /* upb keeps such an entry out of the map */
        return WIRE_OK;
    }
    Entry e = {key, first, out->n_values - first};
    PUSH(out->entries, out->n_entries, out->cap_entries, e);
    return WIRE_OK;
}

/* A Features or FeatureLists body: repeated map entries under field 1. */
static int map_parse(const uint8_t *p, const uint8_t *end, EntryList *out, int lists,
                     int depth) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        WIRE_TRY(wire_tag(&p, end, &field, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        if (field == 1 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            WIRE_TRY(entry_parse(p, p + len, out, lists, depth + 1));
            p += len;
        } else {
            WIRE_TRY(wire_skip(&p, end, field, wt, depth));
        }
    }
    return WIRE_OK;
}

int record_parse(Record *r, const uint8_t *p, size_t n, int sequence) {
    const uint8_t *end = p + n;
    r->features.n_entries = r->features.n_values = 0;
    r->lists.n_entries = r->lists.n_values = 0;
    r->has_features = r->has_lists = 0;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        WIRE_TRY(wire_tag(&p, end, &field, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        if (field == 1 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            r->has_features = 1;
            WIRE_TRY(map_parse(p, p + len, &r->features, 0, 1));
            p += len;
        } else if (sequence && field == 2 && wt == WT_LEN) {
            WIRE_TRY(wire_len(&p, end, &len));
            r->has_lists = 1;
            WIRE_TRY(map_parse(p, p + len, &r->lists, 1, 1));
            p += len;
        } else {
            WIRE_TRY(wire_skip(&p, end, field, wt, 0));
        }
    }
    return WIRE_OK;
}

const Entry *entry_find(const EntryList *list, const uint8_t *key, size_t n) {
    for (size_t i = list->n_entries; i-- > 0;) {
        const Entry *e = &list->entries[i];
        if (utf8_named(e->key.p, e->key.n, key, n)) return e;
    }
    return NULL;
}

int feature_read(const EntryList *list, const Entry *e, FeatureState *st) {
    for (size_t i = 0; i < e->n_values; i++) {
        const Span *s = &list->values[e->first_value + i];
        WIRE_TRY(feature_walk(s->p, s->p + s->n, st, 3));
    }
    return WIRE_OK;
}

int feature_list_read(const EntryList *list, const Entry *e,
                      int (*step)(void *ctx, const FeatureState *st), void *ctx, Values *out) {
    for (size_t i = 0; i < e->n_values; i++) {
        const Span *s = &list->values[e->first_value + i];
        WIRE_TRY(feature_list_walk(s->p, s->p + s->n, step, ctx, out, 3));
    }
    return WIRE_OK;
}
