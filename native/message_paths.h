/* A user's message type -> columns: the values of field paths through singular
 * messages, over many payloads in one buffer, with protobuf's own parse rules. */
#ifndef TFR_MESSAGE_PATHS_H
#define TFR_MESSAGE_PATHS_H
#include <stddef.h>
#include <stdint.h>

/* The type's schema. Message m's fields are fields[first .. first + count) with
 * (first, count) = msgs[2m], msgs[2m + 1], sorted by number; a field is four int32s:
 * number, type (protobuf's FieldDescriptor.TYPE_* number), flags (PATH_REPEATED,
 * PATH_UTF8: a string whose text is checked), and the message index of a message
 * field (-1 otherwise). Message 0 is the payload's type. */
enum { PATH_REPEATED = 1, PATH_UTF8 = 2 };

typedef struct {
    const int32_t *fields;
    const int32_t *msgs;
    size_t n_msgs;
} PathSchema;

/* One field path: the numbers of the singular message fields it goes through, then
 * the number, type and flags of its leaf (a field that holds no message), and the
 * value a singular leaf has when its message is there but the leaf is not (bits as
 * stored, below; for text, the offset -1). */
typedef struct {
    const int32_t *steps;
    size_t n_steps;
    int32_t leaf, type, flags;
    uint64_t fallback;
    /* out */
    int64_t *splits;   /* rows + 1 */
    uint64_t *values;  /* a value: its 64 bits (an integer as int64 or uint64 as the type
                          is signed, a float or double as a double); text: offset, size */
    size_t n_values, cap_values; /* in uint64 words */
} PathColumn;

/* Payload r is buf[starts[r] : starts[r] + lengths[r]], or none when starts[r] < 0 (no
 * values, row OK). row_status[r] is WIRE_OK, WIRE_MALFORMED (protobuf would not parse
 * it: no values) or WIRE_PUNT (left to protobuf: no values). At most 64 paths. Returns
 * WIRE_OK or WIRE_NOMEM. */
int paths_extract(const uint8_t *buf, const int64_t *starts, const int64_t *lengths,
                  size_t rows, const PathSchema *schema, PathColumn *cols, size_t ncols,
                  uint8_t *row_status);
#endif
