/* CRC32C with run-time dispatch. The portable path is slicing-by-8 over tables built
 * from the reflected polynomial 0x82F63B78; the x86-64 path uses the SSE 4.2 crc32
 * instruction, chosen only when the CPU reports it. Both give identical results. */
#include "crc32c.h"

#include <string.h>

#define POLY 0x82F63B78u

static uint32_t table[8][256];
static int use_hardware = -1;

static void build_tables(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ POLY : c >> 1;
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = table[0][i];
        for (int t = 1; t < 8; t++) {
            c = table[0][c & 0xFF] ^ (c >> 8);
            table[t][i] = c;
        }
    }
}

uint32_t crc32c_portable(uint32_t crc, const uint8_t *p, size_t n) {
    uint32_t c = ~crc;
    while (n && ((uintptr_t)p & 7)) {
        c = table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
        n--;
    }
    while (n >= 8) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        lo = __builtin_bswap32(lo);
        hi = __builtin_bswap32(hi);
#endif
        lo ^= c;
        c = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^ table[5][(lo >> 16) & 0xFF] ^
            table[4][lo >> 24] ^ table[3][hi & 0xFF] ^ table[2][(hi >> 8) & 0xFF] ^
            table[1][(hi >> 16) & 0xFF] ^ table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--) c = table[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p,
                                                           size_t n) {
    uint64_t c = ~crc;
    while (n && ((uintptr_t)p & 7)) {
        c = _mm_crc32_u8((uint32_t)c, *p++);
        n--;
    }
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        n -= 8;
    }
    while (n--) c = _mm_crc32_u8((uint32_t)c, *p++);
    return ~(uint32_t)c;
}

static int cpu_has_crc(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
}
#else
uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    return crc32c_portable(crc, p, n);
}
static int cpu_has_crc(void) { return 0; }
#endif

int crc32c_init(void) {
    if (use_hardware < 0) {
        build_tables();
        use_hardware = cpu_has_crc();
    }
    return use_hardware;
}

uint32_t crc32c_extend(uint32_t crc, const uint8_t *data, size_t n) {
    return use_hardware ? crc32c_hardware(crc, data, n) : crc32c_portable(crc, data, n);
}
