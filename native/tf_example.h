/* tf.train.Example as TensorFlow's own parser (tf.io.parse_single_example) reads it.
 *
 * The verdict for one payload when every key is asked for with its own kind: TF_OK, or
 * where the parser fails (a byte offset inside the payload) and why: TF_STRUCTURE (the
 * Example, its features or a feature entry), TF_KIND (a value that is no list TensorFlow
 * knows) or TF_LIST (a list's values). Of several failing features, the one earliest in
 * the payload is named. `differs` is set when protobuf reads the payload otherwise
 * (bytes after a feature's first list or first packed run, or a field 1 TensorFlow
 * skips). The pure-Python twin is tfr_viewer/core/decode/tf_example.py. */
#ifndef TFR_TF_EXAMPLE_H
#define TFR_TF_EXAMPLE_H
#include <stddef.h>
#include <stdint.h>

enum { TF_OK = 0, TF_STRUCTURE = 1, TF_KIND = 2, TF_LIST = 3, TF_NOMEM = 4 };
/* added to a verdict's code: protobuf reads it otherwise; it holds no feature entry */
enum { TF_DIFFERS = 0x80, TF_NO_FEATURES = 0x40 };

/* `entries`: how many feature entries the Example has (0 when it fails early). */
int tf_example_check(const uint8_t *p, size_t n, int64_t *offset, int *differs,
                     size_t *entries);

/* The Example's own fields: each features field's start and stop (cut at the end) as
 * pairs in `*spans` (malloc'd; the caller frees it), up to and including one whose
 * entries fail, the others skipped; TF_OK, or TF_STRUCTURE where the walk stops
 * (TF_NOMEM). `differs` is 1 when protobuf
 * reads the fields otherwise, plus 2 when the failure is a features field's length.
 * For a reader that walks the features itself. */
int tf_example_fields(const uint8_t *p, size_t n, int64_t *offset, int *differs,
                      int64_t **spans, size_t *n_spans);
#endif
