/* The compiled CRC32C on its own: every path against a bit-at-a-time reference, on
 * every length 0-4096 at three alignments and on long buffers (around the boundaries
 * of the three streams). Built natively, and for arm64 to run under an emulator, by
 * tests/native/test_crc_paths.py. Prints the path in use; exits 0 when all match. */
#include <stdio.h>
#include <stdlib.h>

#include "crc32c.h"

static uint32_t bitwise(uint32_t crc, const uint8_t *p, size_t n) {
    uint32_t c = ~crc;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
}

int main(void) {
    int hardware = crc32c_init() == CRC32C_HARDWARE;
    printf("%s\n", crc32c_path_name());
    size_t big = 3 << 20;
    uint8_t *buf = malloc(big + 64);
    if (!buf) return 2;
    srand(7);
    for (size_t i = 0; i < big + 64; i++) buf[i] = (uint8_t)rand();
    int bad = 0;
    for (size_t n = 0; n <= 4096; n++)
        for (int off = 0; off < 8; off += 3) {
            uint32_t want = bitwise((uint32_t)n, buf + off, n);
            bad += crc32c_portable((uint32_t)n, buf + off, n) != want;
            bad += hardware && crc32c_hardware((uint32_t)n, buf + off, n) != want;
            bad += crc32c_extend((uint32_t)n, buf + off, n) != want;
        }
    size_t sizes[] = {767, 768, 769, 24575, 24576, 24577, 24576 + 768 + 7, 100000, 1 << 20, big};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        uint32_t want = bitwise(123, buf + 1, sizes[i]);
        bad += crc32c_extend(123, buf + 1, sizes[i]) != want;
        bad += crc32c_portable(123, buf + 1, sizes[i]) != want;
    }
    printf("%d mismatches\n", bad);
    free(buf);
    return bad != 0;
}
