#include "columns.h"

#include "utf8.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t NOTHING[1] = {0};

static const uint8_t *payload_of(const uint8_t *buf, const int64_t *starts,
                                 const int64_t *lengths, size_t r, size_t *n) {
    if (starts[r] < 0) {
        *n = 0;
        return NOTHING;
    }
    *n = (size_t)lengths[r];
    return buf + starts[r];
}

int columns_extract(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                    size_t rows, Column *cols, size_t ncols, uint8_t *row_status) {
    Record rec;
    record_init(&rec);
    int status = WIRE_OK;
    for (size_t c = 0; c < ncols; c++) {
        cols[c].values.base = buf;
        cols[c].splits[0] = 0;
    }
    for (size_t r = 0; r < rows; r++) {
        size_t n;
        const uint8_t *p = payload_of(buf, starts, lengths, r, &n);
        int st = record_parse(&rec, p, n, 0);
        if (st == WIRE_NOMEM) {
            status = st;
            break;
        }
        row_status[r] = (uint8_t)st;
        for (size_t c = 0; c < ncols; c++) {
            Column *col = &cols[c];
            Values *v = &col->values;
            v->row_ints = v->n_ints;
            v->row_floats = v->n_floats;
            v->row_spans = v->n_spans;
            const Entry *e = st == WIRE_OK ? entry_find(&rec.features, col->key, col->key_n)
                                           : NULL;
            FeatureState fs = {0, 0, v};
            if (e) {
                int got = feature_read(&rec.features, e, &fs);
                if (got) {
                    status = got;
                    goto done;
                }
            }
            col->present[r] = e != NULL;
            col->kind[r] = (uint8_t)fs.kind;
            col->splits[r + 1] = col->splits[r] + (int64_t)fs.count;
        }
    }
done:
    record_free(&rec);
    return status;
}

/* -- feature lists --------------------------------------------------------------- */
static int grow_list(void **items, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return WIRE_OK;
    size_t cap2 = *cap ? *cap * 2 : 64;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(*items, cap2 * size);
    if (!p) return WIRE_NOMEM;
    *items = p;
    *cap = cap2;
    return WIRE_OK;
}

static int list_step(void *ctx, const FeatureState *st) {
    ListColumn *col = ctx;
    WIRE_TRY(grow_list((void **)&col->step_kind, &col->cap_steps, col->n_steps + 1, 1));
    WIRE_TRY(grow_list((void **)&col->step_splits, &col->cap_step_splits, col->n_steps + 2,
                       sizeof(int64_t)));
    col->step_kind[col->n_steps] = (uint8_t)st->kind;
    col->step_splits[col->n_steps + 1] = col->step_splits[col->n_steps] + (int64_t)st->count;
    col->n_steps++;
    return WIRE_OK;
}

int columns_extract_lists(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                          size_t rows, ListColumn *cols, size_t ncols, uint8_t *row_status) {
    Record rec;
    record_init(&rec);
    int status = WIRE_OK;
    for (size_t c = 0; c < ncols; c++) {
        ListColumn *col = &cols[c];
        col->values.base = buf;
        col->splits[0] = 0;
        status = grow_list((void **)&col->step_splits, &col->cap_step_splits, 1,
                           sizeof(int64_t));
        if (status) goto done;
        col->step_splits[0] = 0;
    }
    for (size_t r = 0; r < rows; r++) {
        size_t n;
        const uint8_t *p = payload_of(buf, starts, lengths, r, &n);
        int st = record_parse(&rec, p, n, 1);
        if (st == WIRE_NOMEM) {
            status = st;
            break;
        }
        row_status[r] = (uint8_t)st;
        for (size_t c = 0; c < ncols; c++) {
            ListColumn *col = &cols[c];
            const Entry *e = st == WIRE_OK ? entry_find(&rec.lists, col->key, col->key_n) : NULL;
            if (e) {
                int got = feature_list_read(&rec.lists, e, list_step, col, &col->values);
                if (got) {
                    status = got;
                    goto done;
                }
            }
            col->present[r] = e != NULL;
            col->splits[r + 1] = (int64_t)col->n_steps;
        }
    }
done:
    record_free(&rec);
    return status;
}

void list_column_free(ListColumn *c) {
    free(c->present);
    free(c->splits);
    free(c->step_kind);
    free(c->step_splits);
    values_free(&c->values);
}

/* -- discovery ------------------------------------------------------------------- */
static uint64_t hash_key(const uint8_t *p, size_t n, int table) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)table;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static int table_grow(KeyTable *t) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    KeyStats *slots = calloc(cap, sizeof(KeyStats));
    if (!slots) return WIRE_NOMEM;
    for (size_t i = 0; i < t->cap; i++) {
        KeyStats *s = &t->slots[i];
        if (!s->key) continue;
        size_t j = s->hash & (cap - 1);
        while (slots[j].key) j = (j + 1) & (cap - 1);
        slots[j] = *s;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return WIRE_OK;
}

static int table_get(KeyTable *t, const uint8_t *key, size_t n, int table, KeyStats **out) {
    if ((t->used + 1) * 2 > t->cap) WIRE_TRY(table_grow(t));
    uint64_t h = hash_key(key, n, table);
    size_t j = h & (t->cap - 1);
    for (;;) {
        KeyStats *s = &t->slots[j];
        if (!s->key) break;
        if (s->hash == h && s->table == table && s->key_n == n && memcmp(s->key, key, n) == 0) {
            *out = s;
            return WIRE_OK;
        }
        j = (j + 1) & (t->cap - 1);
    }
    KeyStats *s = &t->slots[j];
    s->key = malloc(n ? n : 1);
    if (!s->key) return WIRE_NOMEM;
    memcpy(s->key, key, n);
    s->key_n = n;
    s->hash = h;
    s->table = table;
    t->used++;
    *out = s;
    return WIRE_OK;
}

typedef struct {
    KeyTable *table;
    KeyStats *stats;
} StepContext;

static int stats_add(KeyTable *t, KeyStats *s, const FeatureState *fs) {
    if (!s->kinds[fs->kind]) s->first[fs->kind] = ++t->event;
    s->kinds[fs->kind]++;
    if (!s->present || fs->count < s->min_count) s->min_count = fs->count;
    if (!s->present || fs->count > s->max_count) s->max_count = fs->count;
    s->present++;
    return WIRE_OK;
}

static int add_step(void *ctx, const FeatureState *fs) {
    StepContext *sc = ctx;
    return stats_add(sc->table, sc->stats, fs);
}

/* The table's entry for the key's name (utf8.h: its text, with \x escapes when it is
 * not UTF-8), so that keys of one name are one key. */
static int named_get(KeyTable *t, const Span *key, int table, KeyStats **out) {
    if (utf8_valid(key->p, key->n)) return table_get(t, key->p, key->n, table, out);
    uint8_t small[256];
    uint8_t *name = key->n <= sizeof(small) / 4 ? small : malloc(4 * key->n);
    if (!name) return WIRE_NOMEM;
    int status = table_get(t, name, utf8_escaped(key->p, key->n, name), table, out);
    if (name != small) free(name);
    return status;
}

static int count_entries(KeyTable *t, const EntryList *list, int table, uint64_t stamp) {
    for (size_t i = list->n_entries; i-- > 0;) { /* the last entry of a name wins */
        const Entry *e = &list->entries[i];
        KeyStats *s;
        WIRE_TRY(named_get(t, &e->key, table, &s));
        if (s->stamp == stamp) continue;
        s->stamp = stamp;
        if (table == 0) {
            FeatureState fs = {0, 0, NULL};
            WIRE_TRY(feature_read(list, e, &fs));
            WIRE_TRY(stats_add(t, s, &fs));
        } else {
            StepContext sc = {t, s};
            WIRE_TRY(feature_list_read(list, e, add_step, &sc, NULL));
        }
    }
    return WIRE_OK;
}

int columns_discover(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                     size_t rows, KeyTable *table, uint8_t *row_type) {
    Record rec;
    record_init(&rec);
    int status = WIRE_OK;
    for (size_t r = 0; r < rows && status == WIRE_OK; r++) {
        size_t n;
        const uint8_t *p = payload_of(buf, starts, lengths, r, &n);
        int st = record_parse(&rec, p, n, 1);
        uint64_t stamp = r + 1;
        if (st == WIRE_NOMEM) {
            status = st;
        } else if (st == WIRE_PUNT) {
            row_type[r] = 3;
        } else if (st == WIRE_MALFORMED) {
            row_type[r] = 0;
        } else if (rec.lists.n_entries) {
            row_type[r] = 2;
            status = count_entries(table, &rec.features, 0, stamp);
            if (status == WIRE_OK) status = count_entries(table, &rec.lists, 1, stamp);
        } else if (!n || !rec.has_features) {
            row_type[r] = 0;
        } else {
            row_type[r] = 1;
            status = count_entries(table, &rec.features, 0, stamp);
        }
    }
    record_free(&rec);
    return status;
}

void keytable_free(KeyTable *t) {
    for (size_t i = 0; i < t->cap; i++) free(t->slots[i].key);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}
