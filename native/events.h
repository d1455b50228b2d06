/* TensorBoard events over many payloads in one buffer: the common events read whole
 * (a summary of plain scalars, a file version, a graph, run metadata), every other one
 * left to the Python side, which reads it as event.py does. */
#ifndef TFR_EVENTS_H
#define TFR_EVENTS_H
#include <stddef.h>
#include <stdint.h>

/* what[r]: the Event field of the oneof that is set (3 file_version .. 9 meta_graph_def),
 * 0 for none, EVENT_PYTHON for an event this reader leaves to Python (a summary with a
 * value that is no plain scalar, a log line, anything unusual or malformed, no event). */
enum { EVENT_PYTHON = 255 };

/* Where a call writes, in buffers the caller owns: per value (at most value_cap) its
 * payload's row, its tag (an id of the call), its number, and its event's step and
 * wall time; per tag (at most tag_cap) six int64: the offset and length of its bytes in
 * buf, its values, the bytes they take, its first and its last value. */
typedef struct {
    int32_t *row, *tag;
    double *value, *wall;
    int64_t *step;
    size_t value_cap, values;
    int64_t *tags; /* tag_cap rows of six */
    size_t tag_cap, tag_count;
    uint64_t *slots; /* the call's tag table: id + 1 low, hash high; 0 empty */
    size_t slots_cap;
} EventOut;

enum { EVENTS_DONE = 0, EVENTS_PYTHON = 1, EVENTS_FULL = 2, EVENTS_NOMEM = -1 };

/* Read payloads r = buf[starts[r] : starts[r] + lengths[r]] from row first on (a
 * negative start: no event), setting what[r], until the last row (EVENTS_DONE), a row
 * left to Python (EVENTS_PYTHON; what[*stop] is EVENT_PYTHON), or a row whose values or
 * tags the buffers cannot hold (EVENTS_FULL; nothing of it written). *stop is that row
 * (rows when done). The bytes a value takes: its own in the summary (its field's key
 * and length too) and an equal share of the rest of its event's frame (the payload and
 * 16 bytes), the first values taking one more byte each while the rest does not split
 * evenly. */
int events_read(const uint8_t *buf, const int64_t *starts, const int64_t *lengths, size_t rows,
                size_t first, uint8_t *what, EventOut *out, size_t *stop);
#endif
