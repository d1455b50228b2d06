/* The TFRecord frame scan over one buffer. */
#ifndef TFR_FRAMES_H
#define TFR_FRAMES_H
#include <stddef.h>
#include <stdint.h>

enum { FRAME_OK = 0, FRAME_BAD_DATA_CRC = 2, FRAME_UNVERIFIED = 4 };

/* Walk consecutive frames of buf[0:size] from position `pos` while each header's CRC
 * verifies and each whole frame fits, for at most `limit` frames. Frame i's position
 * plus `base` goes to offsets[i], its payload size to lengths[i], and its status
 * (FRAME_OK or FRAME_BAD_DATA_CRC with `verify`, FRAME_UNVERIFIED without) to
 * status[i]. Returns the count; *stop is where the walk stopped. Never reads outside
 * the buffer and never trusts a length before its CRC verifies. */
size_t frames_scan(const uint8_t *buf, size_t size, size_t pos, size_t limit, int verify,
                   uint64_t base, uint64_t *offsets, uint64_t *lengths, uint8_t *status,
                   size_t *stop);
#endif
