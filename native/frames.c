#include "frames.h"

#include <string.h>

#include "crc32c.h"

static inline uint64_t load_u64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t load_u32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

size_t frames_scan(const uint8_t *buf, size_t size, size_t pos, size_t limit, int verify,
                   uint64_t base, uint64_t *offsets, uint64_t *lengths, uint8_t *status,
                   size_t *stop) {
    size_t n = 0;
    while (n < limit && pos <= size && size - pos >= 16) {
        const uint8_t *h = buf + pos;
        if (crc32c_mask(crc32c_extend(0, h, 8)) != load_u32(h + 8)) break;
        uint64_t length = load_u64(h);
        if (length > (uint64_t)(size - pos - 16)) break;
        offsets[n] = base + pos;
        lengths[n] = length;
        if (verify) {
            const uint8_t *data = h + 12;
            uint32_t crc = crc32c_mask(crc32c_extend(0, data, (size_t)length));
            status[n] = crc == load_u32(data + length) ? FRAME_OK : FRAME_BAD_DATA_CRC;
        } else {
            status[n] = FRAME_UNVERIFIED;
        }
        pos += 16 + (size_t)length;
        n++;
    }
    *stop = pos;
    return n;
}
