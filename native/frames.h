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

#ifndef _WIN32
#define FRAMES_HOP 1
/* Hop from frame header to frame header of the file open as `fd`, `size` bytes long,
 * from position `pos`: read each 12-byte header with pread and, while its CRC verifies,
 * the whole frame (16 bytes plus the payload) is at least `min_frame` bytes and fits in
 * the file, put its position in offsets[i] and its payload size in lengths[i]; at most
 * `limit` frames. Returns the count; *stop is where the hop stopped (the header it did
 * not take, or `size`); *error is the errno of a failed read, else 0. Only the headers
 * are read, so a file of large records is indexed from a small part of its bytes. */
size_t frames_hop(int fd, uint64_t size, uint64_t pos, size_t limit, uint64_t min_frame,
                  uint64_t *offsets, uint64_t *lengths, uint64_t *stop, int *error);
#endif
#endif
