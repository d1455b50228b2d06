#include "events.h"

#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define MAX_VALUES 10000 /* summary values read from one event, as event.py */
#define DT_FLOAT 1
#define DT_DOUBLE 2

static const uint8_t SCALARS[] = "scalars";

static uint64_t fnv1a(const uint8_t *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

enum { TAG_OFFSET, TAG_LENGTH, TAG_VALUES, TAG_BYTES, TAG_FIRST, TAG_LAST, TAG_FIELDS };

static void rehash(EventOut *v, const uint8_t *buf) {
    memset(v->slots, 0, v->slots_cap * sizeof *v->slots);
    for (size_t id = 0; id < v->tag_count; id++) {
        const int64_t *t = v->tags + TAG_FIELDS * id;
        uint64_t h = fnv1a(buf + t[TAG_OFFSET], (size_t)t[TAG_LENGTH]);
        size_t i = (size_t)h & (v->slots_cap - 1);
        while (v->slots[i]) i = (i + 1) & (v->slots_cap - 1);
        v->slots[i] = (h & ~0xFFFFFFFFULL) | (uint64_t)(id + 1);
    }
}

static int same(const uint8_t *a, const uint8_t *b, size_t n) {
    while (n >= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) return 0;
        a += 8, b += 8, n -= 8;
    }
    while (n--)
        if (*a++ != *b++) return 0;
    return 1;
}

/* The id (of this call) of the tag p[0:n], added when new; -1 when the tags are full. */
static int32_t tag_id(EventOut *v, const uint8_t *buf, const uint8_t *p, size_t n) {
    uint64_t h = fnv1a(p, n);
    size_t mask = v->slots_cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint64_t s = v->slots[i];
        if (!s) {
            if (v->tag_count >= v->tag_cap) return -1;
            size_t id = v->tag_count++;
            int64_t *t = v->tags + TAG_FIELDS * id;
            t[TAG_OFFSET] = p - buf, t[TAG_LENGTH] = (int64_t)n;
            t[TAG_VALUES] = t[TAG_BYTES] = 0;
            t[TAG_FIRST] = t[TAG_LAST] = -1;
            v->slots[i] = (h & ~0xFFFFFFFFULL) | (uint64_t)(id + 1);
            return (int32_t)id;
        }
        if ((s >> 32) == (h >> 32)) {
            size_t id = (size_t)(s & 0xFFFFFFFFULL) - 1;
            const int64_t *t = v->tags + TAG_FIELDS * id;
            if ((size_t)t[TAG_LENGTH] == n && same(buf + t[TAG_OFFSET], p, n)) return (int32_t)id;
        }
    }
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

static double as_float(uint32_t bits) {
    float f;
    memcpy(&f, &bits, 4);
    return (double)f;
}

static double as_double(uint64_t bits) {
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* A summary's metadata: 1 when it names no plugin or the scalars plugin (*scalars set
 * then), 0 for anything else. */
static int read_metadata(const uint8_t *p, const uint8_t *end, int *scalars) {
    int seen = 0;
    *scalars = 0;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        if (wire_tag(&p, end, &field, &wt)) return 0;
        if (field == 1 && wt == WT_LEN) { /* plugin_data */
            if (seen++ || wire_len(&p, end, &len)) return 0;
            const uint8_t *q = p, *qend = p + len;
            int named = 0;
            while (q < qend) {
                uint32_t f2, w2;
                size_t n2;
                if (wire_tag(&q, qend, &f2, &w2) || w2 != WT_LEN || wire_len(&q, qend, &n2))
                    return 0;
                if (f2 == 1) {
                    if (named++ || n2 != sizeof SCALARS - 1 || memcmp(q, SCALARS, n2)) return 0;
                    *scalars = 1;
                } else if (f2 != 2) {
                    return 0;
                }
                q += n2;
            }
            p = qend;
        } else if ((field == 2 || field == 3) && wt == WT_LEN) { /* display name, description */
            if (wire_len(&p, end, &len)) return 0;
            p += len;
        } else {
            return 0;
        }
    }
    return 1;
}

/* A tensor of one float or double (shape [] or all ones): 1 with its number, else 0. */
static int read_tensor(const uint8_t *p, const uint8_t *end, double *out) {
    uint64_t dtype = 0;
    int values = 0, seen = 0;
    const uint8_t *val = NULL;
    size_t val_n = 0;
    uint32_t val_field = 0;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        if (wire_tag(&p, end, &field, &wt) || field > 6 || (seen & (1 << field))) return 0;
        seen |= 1 << field;
        if (field == 1 && wt == WT_VARINT) {
            if (!(p = wire_varint(p, end, &dtype))) return 0;
        } else if (field == 2 && wt == WT_LEN) { /* the shape: dims of size 1 */
            if (wire_len(&p, end, &len)) return 0;
            const uint8_t *q = p, *qend = p + len;
            while (q < qend) {
                uint32_t f2, w2;
                size_t n2;
                if (wire_tag(&q, qend, &f2, &w2) || f2 != 2 || w2 != WT_LEN ||
                    wire_len(&q, qend, &n2))
                    return 0;
                const uint8_t *d = q, *dend = q + n2;
                uint64_t size = 1;
                while (d < dend) {
                    uint32_t f3, w3;
                    size_t n3;
                    if (wire_tag(&d, dend, &f3, &w3)) return 0;
                    if (f3 == 1 && w3 == WT_VARINT) {
                        if (!(d = wire_varint(d, dend, &size))) return 0;
                    } else if (f3 == 2 && w3 == WT_LEN) {
                        if (wire_len(&d, dend, &n3)) return 0;
                        d += n3;
                    } else {
                        return 0;
                    }
                }
                if (size != 1) return 0;
                q = dend;
            }
            p = qend;
        } else if (field >= 4 && wt == WT_LEN) { /* content, or packed float or double values */
            if (wire_len(&p, end, &len)) return 0;
            val = p, val_n = len, val_field = field;
            values++;
            p += len;
        } else if (field == 5 && wt == WT_I32) {
            if (end - p < 4) return 0;
            val = p, val_n = 4, val_field = 5;
            values++;
            p += 4;
        } else if (field == 6 && wt == WT_I64) {
            if (end - p < 8) return 0;
            val = p, val_n = 8, val_field = 6;
            values++;
            p += 8;
        } else {
            return 0;
        }
    }
    if (values != 1) return 0;
    if (dtype == DT_FLOAT && val_n == 4 && (val_field == 4 || val_field == 5)) {
        *out = as_float(le32(val));
        return 1;
    }
    if (dtype == DT_DOUBLE && val_n == 8 && (val_field == 4 || val_field == 6)) {
        *out = as_double(le64(val));
        return 1;
    }
    return 0;
}

/* One summary value: 1 when it is a plain scalar (a simple_value, or a scalars tensor of
 * one number) with its tag and number, else 0. */
static int read_value(const uint8_t *p, const uint8_t *end, const uint8_t **tag, size_t *tag_n,
                      double *out) {
    int seen = 0, simple = 0, tensor = 0, scalars = 0;
    *tag = p, *tag_n = 0;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        if (wire_tag(&p, end, &field, &wt) || field > 9 || (seen & (1 << field))) return 0;
        seen |= 1 << field;
        if (field == 1 && wt == WT_LEN) {
            if (wire_len(&p, end, &len)) return 0;
            *tag = p, *tag_n = len;
            p += len;
        } else if (field == 2 && wt == WT_I32) {
            if (end - p < 4) return 0;
            *out = as_float(le32(p));
            simple = 1;
            p += 4;
        } else if (field == 8 && wt == WT_LEN) {
            if (wire_len(&p, end, &len) || !read_tensor(p, p + len, out)) return 0;
            tensor = 1;
            p += len;
        } else if (field == 9 && wt == WT_LEN) {
            if (wire_len(&p, end, &len) || !read_metadata(p, p + len, &scalars)) return 0;
            p += len;
        } else {
            return 0;
        }
    }
    return simple + tensor == 1 && (simple || scalars);
}

static size_t varint_size(uint64_t n) {
    size_t s = 1;
    while (n >= 0x80) n >>= 7, s++;
    return s;
}

#define REMEMBERED 1024 /* value positions whose last tag is remembered */

/* The id of a tag: the one at this position of the last event when it is the same
 * bytes (events of one writer repeat their tags in order), else the table's; -1 when
 * the tags are full. */
static int32_t tag_at(EventOut *v, const uint8_t *buf, int32_t *last, size_t k,
                      const uint8_t *p, size_t n) {
    if (k < REMEMBERED && last[k] >= 0) {
        const int64_t *t = v->tags + TAG_FIELDS * last[k];
        if ((size_t)t[TAG_LENGTH] == n && same(buf + t[TAG_OFFSET], p, n)) return last[k];
    }
    int32_t id = tag_id(v, buf, p, n);
    if (k < REMEMBERED && id >= 0) last[k] = id;
    return id;
}

enum { READ_PYTHON = -1, READ_FULL = -2 };

/* One event: its oneof's field (0 none), READ_PYTHON, or READ_FULL; its values written
 * to out (none unless it is read whole). */
static int read_event(const uint8_t *buf, const uint8_t *p, const uint8_t *end, int32_t row,
                      EventOut *out, int32_t *last) {
    size_t frame = (size_t)(end - p) + 16;
    if (end - p < 9 || p[0] != 0x09 || frame > INT32_MAX) return READ_PYTHON;
    int what = 0, seen = 0;
    const uint8_t *summary = NULL, *summary_end = NULL;
    int64_t step = 0;
    double wall = 0.0;
    while (p < end) {
        uint32_t field, wt;
        size_t len;
        uint64_t v;
        if (wire_tag(&p, end, &field, &wt) || field > 9 || (seen & (1 << field)))
            return READ_PYTHON;
        seen |= 1 << field;
        if (field == 1 && wt == WT_I64) {
            if (end - p < 8) return READ_PYTHON;
            wall = as_double(le64(p));
            p += 8;
        } else if (field == 2 && wt == WT_VARINT) {
            if (!(p = wire_varint(p, end, &v))) return READ_PYTHON;
            step = (int64_t)v;
        } else if (field >= 3 && wt == WT_LEN && field != 6 && field != 7) {
            if (what || wire_len(&p, end, &len)) return READ_PYTHON;
            what = (int)field;
            if (field == 5) summary = p, summary_end = p + len;
            p += len;
        } else {
            return READ_PYTHON; /* a log line or session status, or anything unusual */
        }
    }
    if (what != 5) return what;
    size_t first = out->values, count = 0, tags_before = out->tag_count, own = 0;
    uint32_t sizes[MAX_VALUES];
    int result = 5;
    for (p = summary; p < summary_end;) {
        uint32_t field, wt;
        size_t len;
        const uint8_t *tag;
        size_t tag_n;
        double value = 0.0;
        if (wire_tag(&p, summary_end, &field, &wt) || field != 1 || wt != WT_LEN ||
            wire_len(&p, summary_end, &len) || ++count > MAX_VALUES ||
            !read_value(p, p + len, &tag, &tag_n, &value)) {
            result = READ_PYTHON;
            break;
        }
        int32_t id = out->values < out->value_cap ? tag_at(out, buf, last, count - 1, tag, tag_n) : -1;
        if (id < 0) {
            result = READ_FULL;
            break;
        }
        size_t i = out->values++;
        out->row[i] = row, out->tag[i] = id, out->value[i] = value;
        out->step[i] = step, out->wall[i] = wall;
        sizes[i - first] = (uint32_t)(len + 1 + varint_size(len));
        own += sizes[i - first];
        p += len;
    }
    if (result != 5) { /* undone: no value of it, no tag it added */
        out->values = first;
        if (out->tag_count != tags_before) {
            out->tag_count = tags_before;
            rehash(out, buf);
            for (size_t k = 0; k < REMEMBERED; k++)
                if (last[k] >= (int32_t)tags_before) last[k] = -1;
        }
        return result;
    }
    if (count) { /* the rest of the frame, shared */
        size_t base = (frame - own) / count, extra = (frame - own) % count;
        for (size_t i = first; i < out->values; i++) {
            int64_t *t = out->tags + TAG_FIELDS * out->tag[i];
            t[TAG_BYTES] += (int64_t)(sizes[i - first] + base + (i - first < extra));
            t[TAG_VALUES]++;
            if (t[TAG_FIRST] < 0) t[TAG_FIRST] = (int64_t)i;
            t[TAG_LAST] = (int64_t)i;
        }
    }
    return 5;
}

int events_read(const uint8_t *buf, const int64_t *starts, const int64_t *lengths, size_t rows,
                size_t first, uint8_t *what, EventOut *out, size_t *stop) {
    int32_t last[REMEMBERED];
    for (size_t k = 0; k < REMEMBERED; k++) last[k] = -1;
    out->values = out->tag_count = 0;
    rehash(out, buf);
    for (size_t r = first; r < rows; r++) {
        *stop = r;
        if (starts[r] < 0) {
            what[r] = EVENT_PYTHON;
            return EVENTS_PYTHON;
        }
        const uint8_t *p = buf + starts[r];
        int found = read_event(buf, p, p + lengths[r], (int32_t)r, out, last);
        if (found == READ_FULL) return EVENTS_FULL;
        if (found == READ_PYTHON) {
            what[r] = EVENT_PYTHON;
            return EVENTS_PYTHON;
        }
        what[r] = (uint8_t)found;
    }
    *stop = rows;
    return EVENTS_DONE;
}
