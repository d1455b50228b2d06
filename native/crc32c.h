/* CRC32C (Castagnoli): hardware instruction where the CPU has it, tables otherwise. */
#ifndef TFR_CRC32C_H
#define TFR_CRC32C_H
#include <stddef.h>
#include <stdint.h>

#define CRC32C_PORTABLE 0
#define CRC32C_HARDWARE 1

/* Choose the implementation once; returns CRC32C_HARDWARE when the CPU's instruction
 * is in use, else CRC32C_PORTABLE. */
int crc32c_init(void);
/* The path in use, in words (for --version). */
const char *crc32c_path_name(void);
/* Extend `crc` (0 to start) over `n` bytes with the chosen implementation. */
uint32_t crc32c_extend(uint32_t crc, const uint8_t *data, size_t n);
/* The portable table-driven implementation, always available. */
uint32_t crc32c_portable(uint32_t crc, const uint8_t *data, size_t n);
/* The hardware implementation; only valid when crc32c_init() returned CRC32C_HARDWARE. */
uint32_t crc32c_hardware(uint32_t crc, const uint8_t *data, size_t n);
/* TFRecord's mask: rotate right by 15 bits and add a constant. */
static inline uint32_t crc32c_mask(uint32_t crc) {
    return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}
#endif
