#include "wire.h"

static int skip_group(const uint8_t **pp, const uint8_t *end, uint32_t number, int depth) {
    if (depth > WIRE_MAX_DEPTH) return WIRE_PUNT;
    for (;;) {
        uint32_t field, wt;
        if (*pp >= end) return WIRE_MALFORMED; /* an unterminated group */
        WIRE_TRY(wire_tag_in(pp, end, &field, &wt, 1));
        if (wt == WT_EGROUP) return field == number ? WIRE_OK : WIRE_MALFORMED;
        WIRE_TRY(wire_skip(pp, end, field, wt, depth));
    }
}

/* Skip one field's value whose tag has been read; an end-group tag here is malformed. */
int wire_skip(const uint8_t **pp, const uint8_t *end, uint32_t field, uint32_t wt, int depth) {
    const uint8_t *p = *pp;
    uint64_t v;
    size_t len;
    switch (wt) {
        case WT_VARINT:
            p = wire_varint(p, end, &v);
            if (!p) return WIRE_MALFORMED;
            break;
        case WT_I64:
            if (end - p < 8) return WIRE_MALFORMED;
            p += 8;
            break;
        case WT_I32:
            if (end - p < 4) return WIRE_MALFORMED;
            p += 4;
            break;
        case WT_LEN:
            WIRE_TRY(wire_len(&p, end, &len));
            p += len;
            break;
        case WT_SGROUP:
            WIRE_TRY(skip_group(&p, end, field, depth + 1));
            break;
        default:
            return WIRE_MALFORMED;
    }
    *pp = p;
    return WIRE_OK;
}
