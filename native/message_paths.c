#include "message_paths.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "wire.h"

/* protobuf's FieldDescriptor.TYPE_* numbers */
enum {
    T_DOUBLE = 1, T_FLOAT = 2, T_INT64 = 3, T_UINT64 = 4, T_INT32 = 5, T_FIXED64 = 6,
    T_FIXED32 = 7, T_BOOL = 8, T_STRING = 9, T_GROUP = 10, T_MESSAGE = 11, T_BYTES = 12,
    T_UINT32 = 13, T_ENUM = 14, T_SFIXED32 = 15, T_SFIXED64 = 16, T_SINT32 = 17, T_SINT64 = 18
};

static int wire_of(int32_t type) {
    switch (type) {
        case T_DOUBLE: case T_FIXED64: case T_SFIXED64: return WT_I64;
        case T_FLOAT: case T_FIXED32: case T_SFIXED32: return WT_I32;
        case T_STRING: case T_BYTES: case T_MESSAGE: return WT_LEN;
        case T_GROUP: return WT_SGROUP;
        default: return WT_VARINT;
    }
}

/* A number read from the wire (a varint, or fixed bits) as the type stores it. */
static uint64_t stored(int32_t type, uint64_t v) {
    switch (type) {
        case T_INT32: case T_ENUM: case T_SFIXED32: return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
        case T_UINT32: case T_FIXED32: return (uint64_t)(uint32_t)v;
        case T_SINT32: {
            uint32_t u = (uint32_t)v;
            return (uint64_t)(int64_t)(int32_t)((u >> 1) ^ (0u - (u & 1)));
        }
        case T_SINT64: return (v >> 1) ^ (0 - (v & 1));
        case T_BOOL: return v != 0;
        case T_FLOAT: {
            uint32_t bits = (uint32_t)v;
            float f;
            double d;
            memcpy(&f, &bits, 4);
            d = (double)f;
            memcpy(&v, &d, 8);
            return v;
        }
        default: return v; /* int64, uint64, fixed64, sfixed64, double */
    }
}

typedef struct {
    const uint8_t *buf;
    const PathSchema *schema;
    PathColumn *cols;
    size_t ncols;
    uint64_t reached, set;  /* per path: its leaf's message seen; a singular leaf set */
    uint64_t single[64][2]; /* a singular leaf's last value (text: offset, size) */
} Walk;

static const int32_t *field_of(const PathSchema *s, int32_t msg, uint32_t number) {
    const int32_t *f = s->fields + 4 * (size_t)s->msgs[2 * msg];
    size_t lo = 0, hi = (size_t)s->msgs[2 * msg + 1];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t n = (uint32_t)f[4 * mid];
        if (n == number) return f + 4 * mid;
        if (n < number) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static int push(PathColumn *c, uint64_t a, uint64_t b, int two) {
    size_t need = c->n_values + (two ? 2 : 1);
    if (need > c->cap_values) {
        size_t cap = c->cap_values ? c->cap_values * 2 : 256;
        while (cap < need) cap *= 2;
        uint64_t *grown = realloc(c->values, cap * sizeof(uint64_t));
        if (!grown) return WIRE_NOMEM;
        c->values = grown;
        c->cap_values = cap;
    }
    c->values[c->n_values++] = a;
    if (two) c->values[c->n_values++] = b;
    return WIRE_OK;
}

/* One value of leaf field `number` at a level whose active paths are `mask`. */
static int take(Walk *w, uint64_t mask, int depth, uint32_t number, uint64_t a, uint64_t b) {
    for (size_t k = 0; mask; k++, mask >>= 1) {
        if (!(mask & 1)) continue;
        PathColumn *c = &w->cols[k];
        if (c->n_steps != (size_t)depth || (uint32_t)c->leaf != number) continue;
        int text = c->type == T_STRING || c->type == T_BYTES;
        if (c->flags & PATH_REPEATED) {
            WIRE_TRY(push(c, a, b, text));
        } else {
            w->set |= 1ull << k;
            w->single[k][0] = a;
            w->single[k][1] = b;
        }
    }
    return WIRE_OK;
}

/* The values of a packed run of a repeated number field. */
static int packed(Walk *w, uint64_t mask, int depth, uint32_t number, int32_t type,
                  const uint8_t *p, const uint8_t *end) {
    int wt = wire_of(type);
    if (wt == WT_I32 || wt == WT_I64) {
        size_t size = wt == WT_I32 ? 4 : 8;
        if ((size_t)(end - p) % size) return WIRE_MALFORMED;
        if (!mask) return WIRE_OK;
        for (; p < end; p += size) {
            uint64_t v = 0;
            memcpy(&v, p, size); /* little-endian hosts only: see module.c */
            WIRE_TRY(take(w, mask, depth, number, stored(type, v), 0));
        }
        return WIRE_OK;
    }
    while (p < end) {
        uint64_t v;
        p = wire_varint(p, end, &v);
        if (!p) return WIRE_MALFORMED;
        if (mask) WIRE_TRY(take(w, mask, depth, number, stored(type, v), 0));
    }
    return WIRE_OK;
}

/* The paths of `mask` that go on through field `number` of a level `depth` deep. */
static uint64_t through(const Walk *w, uint64_t mask, int depth, uint32_t number) {
    uint64_t out = 0;
    for (size_t k = 0; mask; k++, mask >>= 1) {
        const PathColumn *c = &w->cols[k];
        if ((mask & 1) && c->n_steps > (size_t)depth && (uint32_t)c->steps[depth] == number)
            out |= 1ull << k;
    }
    return out;
}

static int walk(Walk *w, int32_t msg, const uint8_t *p, const uint8_t *end, int depth,
                uint64_t mask) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    for (size_t k = 0, m = mask; m; k++, m >>= 1)
        if ((m & 1) && w->cols[k].n_steps == (size_t)depth) w->reached |= 1ull << k;
    while (p < end) {
        uint32_t number, wt;
        WIRE_TRY(wire_tag(&p, end, &number, &wt));
        if (wt == WT_EGROUP) return WIRE_MALFORMED;
        const int32_t *f = field_of(w->schema, msg, number);
        int32_t type = f ? f[1] : 0;
        int expected = f ? wire_of(type) : -1;
        int repeated = f && (f[2] & PATH_REPEATED);
        int is_packed = repeated && wt == WT_LEN && expected != WT_LEN && expected != WT_SGROUP;
        if (!f || ((int)wt != expected && !is_packed)) { /* an unknown field: skipped */
            WIRE_TRY(wire_skip(&p, end, number, wt, depth));
            continue;
        }
        if (wt == WT_SGROUP) return WIRE_PUNT;
        if (wt == WT_LEN) {
            size_t len;
            WIRE_TRY(wire_len(&p, end, &len));
            const uint8_t *inner = p, *stop = p + len;
            p = stop;
            if (is_packed) {
                WIRE_TRY(packed(w, mask, depth, number, type, inner, stop));
            } else if (type == T_MESSAGE) {
                WIRE_TRY(walk(w, f[3], inner, stop, depth + 1, through(w, mask, depth, number)));
            } else {
                if ((f[2] & PATH_UTF8) && !utf8_valid(inner, len)) return WIRE_MALFORMED;
                if (mask)
                    WIRE_TRY(take(w, mask, depth, number, (uint64_t)(inner - w->buf), len));
            }
            continue;
        }
        uint64_t v = 0;
        if (wt == WT_VARINT) {
            p = wire_varint(p, end, &v);
            if (!p) return WIRE_MALFORMED;
        } else {
            size_t size = wt == WT_I32 ? 4 : 8;
            if ((size_t)(end - p) < size) return WIRE_MALFORMED;
            memcpy(&v, p, size);
            p += size;
        }
        if (mask) WIRE_TRY(take(w, mask, depth, number, stored(type, v), 0));
    }
    return WIRE_OK;
}

/* A row's singular leaves, once its walk is done: the last value, or the fallback of
 * a leaf whose message is there. */
static int finish_row(Walk *w) {
    for (size_t k = 0; k < w->ncols; k++) {
        PathColumn *c = &w->cols[k];
        if (c->flags & PATH_REPEATED) continue;
        int text = c->type == T_STRING || c->type == T_BYTES;
        if (w->set & (1ull << k)) {
            WIRE_TRY(push(c, w->single[k][0], w->single[k][1], text));
        } else if (w->reached & (1ull << k)) {
            WIRE_TRY(push(c, text ? (uint64_t)-1 : c->fallback, 0, text));
        }
    }
    return WIRE_OK;
}

int paths_extract(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                  size_t rows, const PathSchema *schema, PathColumn *cols, size_t ncols,
                  uint8_t *row_status) {
    Walk w = {.buf = buf, .schema = schema, .cols = cols, .ncols = ncols};
    uint64_t all = ncols >= 64 ? ~0ull : (1ull << ncols) - 1;
    size_t *marks = malloc((ncols ? ncols : 1) * sizeof(size_t));
    if (!marks) return WIRE_NOMEM;
    for (size_t k = 0; k < ncols; k++) cols[k].splits[0] = 0;
    for (size_t r = 0; r < rows; r++) {
        int status = WIRE_OK;
        for (size_t k = 0; k < ncols; k++) marks[k] = cols[k].n_values;
        if (starts[r] >= 0) {
            w.reached = w.set = 0;
            const uint8_t *p = buf + starts[r];
            status = walk(&w, 0, p, p + lengths[r], 0, all);
            if (status == WIRE_OK) status = finish_row(&w);
            if (status == WIRE_NOMEM) {
                free(marks);
                return WIRE_NOMEM;
            }
            if (status != WIRE_OK)
                for (size_t k = 0; k < ncols; k++) cols[k].n_values = marks[k];
        }
        row_status[r] = (uint8_t)status;
        for (size_t k = 0; k < ncols; k++) {
            int text = cols[k].type == T_STRING || cols[k].type == T_BYTES;
            cols[k].splits[r + 1] = (int64_t)(cols[k].n_values >> text);
        }
    }
    free(marks);
    return WIRE_OK;
}
