#include "frames.h"

#include <string.h>

#include "crc32c.h"

#ifndef _WIN32
#include <errno.h>
#include <unistd.h>
#endif

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

#ifdef FRAMES_HOP
size_t frames_hop(int fd, uint64_t size, uint64_t pos, size_t limit, uint64_t min_frame,
                  uint64_t *offsets, uint64_t *lengths, uint64_t *stop, int *error) {
    size_t n = 0;
    *error = 0;
    while (n < limit && pos < size && size - pos >= 16) {
        uint8_t h[12];
        size_t got = 0;
        while (got < sizeof h) {
            ssize_t r = pread(fd, h + got, sizeof h - got, (off_t)(pos + got));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) *error = errno;
            if (r <= 0) break;
            got += (size_t)r;
        }
        if (got < sizeof h) break; /* an error, or the file is shorter than it was */
        if (crc32c_mask(crc32c_extend(0, h, 8)) != load_u32(h + 8)) break;
        uint64_t length = load_u64(h);
        if (length > size - pos - 16 || 16 + length < min_frame) break;
        offsets[n] = pos;
        lengths[n] = length;
        pos += 16 + length;
        n++;
    }
    *stop = pos;
    return n;
}
#endif
