/* Example -> columns, and key discovery, over many payloads in one buffer. */
#ifndef TFR_COLUMNS_H
#define TFR_COLUMNS_H
#include <stddef.h>
#include <stdint.h>

#include "example.h"

typedef struct {
    const uint8_t *key;
    size_t key_n;
    Values values;     /* flat values by kind, in row order */
    uint8_t *present;  /* rows: the key is in the payload's map */
    uint8_t *kind;     /* rows: 0 none, 1 bytes, 2 float, 3 int64 */
    int64_t *splits;   /* rows + 1: running count of values */
} Column;

/* Payload r is buf[starts[r] : starts[r] + lengths[r]], or empty when starts[r] < 0
 * (the caller has checked every range). Fills each column and row_status[r] with
 * WIRE_OK, WIRE_MALFORMED or WIRE_PUNT; a row that is not OK has no features.
 * Returns WIRE_OK or WIRE_NOMEM. */
int columns_extract(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                    size_t rows, Column *cols, size_t ncols, uint8_t *row_status);

/* One feature-list key: rows hold steps, steps hold values. */
typedef struct {
    const uint8_t *key;
    size_t key_n;
    Values values;        /* flat values by kind, in step order */
    uint8_t *present;     /* rows: the key is in the payload's feature lists */
    int64_t *splits;      /* rows + 1: running count of steps */
    uint8_t *step_kind;   /* steps: 0 none, 1 bytes, 2 float, 3 int64 */
    int64_t *step_splits; /* steps + 1: running count of values */
    size_t n_steps, cap_steps, cap_step_splits;
} ListColumn;

/* As columns_extract, for feature lists: payloads are parsed as SequenceExamples. */
int columns_extract_lists(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                          size_t rows, ListColumn *cols, size_t ncols, uint8_t *row_status);
void list_column_free(ListColumn *c);

typedef struct {
    uint8_t *key;
    size_t key_n;
    uint64_t hash;
    int table;          /* 0 features / context, 1 feature lists */
    uint64_t present;   /* records (steps, for feature lists) holding the key */
    uint64_t kinds[4];  /* by kind: none, bytes, float, int64 */
    uint64_t first[4];  /* the order in which each kind was first seen */
    uint64_t min_count, max_count;
    uint64_t stamp;     /* the last row + 1 that counted it */
} KeyStats;

typedef struct {
    KeyStats *slots;
    size_t cap, used;
    uint64_t event;
} KeyTable;

/* Count every key of every payload, parsed as a SequenceExample. row_type[r] is
 * 0 other (malformed, empty or without features), 1 example, 2 sequence example,
 * 3 left to upb. Returns WIRE_OK or WIRE_NOMEM. */
int columns_discover(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                     size_t rows, KeyTable *table, uint8_t *row_type);
void keytable_free(KeyTable *t);
#endif
