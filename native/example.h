/* tf.train.Example and SequenceExample, parsed as upb parses our schema.
 *
 * A record is parsed once into the map entries that survive (the last entry of a key
 * wins; an entry carrying unknown fields is dropped, as upb drops it). Every Feature
 * under every key is validated, so a payload is malformed exactly when upb would
 * reject it, except that a key need not be UTF-8: TensorFlow's parser reads such a key,
 * which upb refuses, and it is named by its text with \x escapes (utf8.h). Values are
 * then read from the surviving entries on demand. */
#ifndef TFR_EXAMPLE_H
#define TFR_EXAMPLE_H
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} Span;

typedef struct {
    Span key;
    size_t first_value; /* index of its first value span */
    size_t n_values;    /* a value may be split over several spans, which merge */
} Entry;

typedef struct {
    Entry *entries;
    size_t n_entries, cap_entries;
    Span *values;
    size_t n_values, cap_values;
} EntryList;

typedef struct {
    EntryList features; /* Example.features or SequenceExample.context */
    EntryList lists;    /* SequenceExample.feature_lists (sequence mode only) */
    int has_features;   /* field 1 was present */
    int has_lists;      /* field 2 was present (sequence mode only) */
} Record;

/* Growable output of one column's values (see FeatureState). */
typedef struct {
    int64_t *ints;
    size_t n_ints, cap_ints;
    double *floats;
    size_t n_floats, cap_floats;
    int64_t *spans; /* (offset from `base`, size) pairs */
    size_t n_spans, cap_spans;
    const uint8_t *base;
    size_t row_ints, row_floats, row_spans; /* where the current row's values start */
} Values;

/* The state of one Feature being read: kind 0 none, 1 bytes, 2 float, 3 int64. */
typedef struct {
    int kind;
    uint64_t count;
    Values *out; /* NULL to only count */
} FeatureState;

void record_init(Record *r);
void record_free(Record *r);
/* Parse one payload; `sequence` also parses field 2 as FeatureLists. */
int record_parse(Record *r, const uint8_t *p, size_t n, int sequence);
/* Read a Feature's values from its spans into `st` (the spans are already validated). */
int feature_read(const EntryList *list, const Entry *e, FeatureState *st);
/* Read a FeatureList's steps, calling `step` for each Feature (after its values, when
 * `out` is given, were appended to `out`). */
int feature_list_read(const EntryList *list, const Entry *e,
                      int (*step)(void *ctx, const FeatureState *st), void *ctx, Values *out);
/* The surviving entry (the last) of the key named `key` (see utf8_named), or NULL. */
const Entry *entry_find(const EntryList *list, const uint8_t *key, size_t n);
void values_free(Values *v);
#endif
