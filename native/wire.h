/* Protocol-buffer wire format, bounds-checked exactly as upb decodes it.
 *
 * Every reader takes the end of the current message and never reads past it. A status
 * is WIRE_OK, WIRE_MALFORMED (upb would reject the payload), WIRE_PUNT (nesting deeper
 * than this decoder follows: let upb decide) or WIRE_NOMEM. */
#ifndef TFR_WIRE_H
#define TFR_WIRE_H
#include <stddef.h>
#include <stdint.h>

enum { WIRE_OK = 0, WIRE_MALFORMED = 1, WIRE_PUNT = 2, WIRE_NOMEM = 3 };
enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4, WT_I32 = 5 };

/* Deeper nesting than this (messages and groups together) is left to upb, whose own
 * limit is higher; the known messages nest six deep at most. */
#define WIRE_MAX_DEPTH 32

#define WIRE_TRY(expr)                      \
    do {                                    \
        int wire_status_ = (expr);          \
        if (wire_status_) return wire_status_; \
    } while (0)

/* A varint of at most 10 bytes; bits past 64 are dropped, as upb does. */
static inline const uint8_t *wire_varint(const uint8_t *p, const uint8_t *end, uint64_t *out) {
    if (p < end && *p < 0x80) { /* the common one-byte case */
        *out = *p;
        return p + 1;
    }
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (p >= end) return NULL;
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return p;
        }
    }
    return NULL;
}

/* A tag: at most 5 bytes, at most 32 bits, wire type 0-5 and, except inside unknown
 * groups (whose contents upb only skips), field number not 0. */
static inline int wire_tag_in(const uint8_t **pp, const uint8_t *end, uint32_t *field,
                              uint32_t *wt, int allow_zero) {
    const uint8_t *start = *pp;
    uint64_t tag;
    if (start < end && *start < 0x80 && *start >= 8 && (*start & 7) <= 5) {
        *field = *start >> 3; /* a one-byte tag: field 1-15, never 0 */
        *wt = *start & 7;
        *pp = start + 1;
        return WIRE_OK;
    }
    const uint8_t *p = wire_varint(start, end, &tag);
    if (!p || p - start > 5 || tag > UINT32_MAX) return WIRE_MALFORMED;
    *field = (uint32_t)(tag >> 3);
    *wt = (uint32_t)(tag & 7);
    if ((*field == 0 && !allow_zero) || *wt > 5) return WIRE_MALFORMED;
    *pp = p;
    return WIRE_OK;
}

static inline int wire_tag(const uint8_t **pp, const uint8_t *end, uint32_t *field,
                           uint32_t *wt) {
    return wire_tag_in(pp, end, field, wt, 0);
}

/* A length-delimited field's size: below 2^31 - 1 and within the message. */
static inline int wire_len(const uint8_t **pp, const uint8_t *end, size_t *len) {
    uint64_t v;
    const uint8_t *p = wire_varint(*pp, end, &v);
    if (!p || v >= INT32_MAX || v > (uint64_t)(end - p)) return WIRE_MALFORMED;
    *len = (size_t)v;
    *pp = p;
    return WIRE_OK;
}

int wire_skip(const uint8_t **pp, const uint8_t *end, uint32_t field, uint32_t wt, int depth);
#endif
