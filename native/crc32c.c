/* CRC32C (Castagnoli) with run-time dispatch.
 *
 * The portable path is slicing-by-8 over tables built from the reflected polynomial
 * 0x82F63B78. Where the CPU has a CRC32C instruction (SSE 4.2 on x86-64 with GCC, Clang
 * or MSVC; the ARMv8 CRC extension on arm64), it is used instead, chosen once at run
 * time. Long buffers are cut into three interleaved streams, so that the instruction's
 * latency is hidden, and the three partial CRCs are joined with "shift" tables: the CRC
 * register after n more zero bytes is the register times x^(8n) modulo the polynomial,
 * a linear map applied a byte at a time. Every path gives identical results. */
#include "crc32c.h"

#include <string.h>

#define POLY 0x82F63B78u

static uint32_t table[8][256];
static int path = -1; /* CRC32C_PORTABLE or CRC32C_HARDWARE once chosen */

/* The lengths of the three interleaved streams, and the shift tables of each. */
#define LONG 8192
#define SHORT 256
static uint32_t shift_long[4][256];
static uint32_t shift_short[4][256];

/* a * b modulo the polynomial, both in the reflected order (bit 31 is x^0). */
static uint32_t multiply(uint32_t a, uint32_t b) {
    uint32_t product = 0;
    for (uint32_t bit = 0x80000000u; bit; bit >>= 1) {
        if (a & bit) product ^= b;
        b = (b & 1) ? (b >> 1) ^ POLY : b >> 1; /* b times x */
    }
    return product;
}

/* x^(8 * bytes) modulo the polynomial, by squaring. */
static uint32_t x_to_8n(size_t bytes) {
    uint32_t result = 0x80000000u; /* 1 */
    uint32_t square = 0x00800000u; /* x^8 */
    while (bytes) {
        if (bytes & 1) result = multiply(result, square);
        square = multiply(square, square);
        bytes >>= 1;
    }
    return result;
}

static void build_shift(uint32_t shift[4][256], size_t bytes) {
    uint32_t factor = x_to_8n(bytes);
    for (int k = 0; k < 4; k++)
        for (uint32_t b = 0; b < 256; b++) shift[k][b] = multiply(b << (8 * k), factor);
}

/* The register `c` moved past a run of zero bytes whose length the table was built for. */
static inline uint32_t shifted(uint32_t shift[4][256], uint32_t c) {
    return shift[0][c & 0xFF] ^ shift[1][(c >> 8) & 0xFF] ^ shift[2][(c >> 16) & 0xFF] ^
           shift[3][c >> 24];
}

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
    build_shift(shift_long, LONG);
    build_shift(shift_short, SHORT);
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

/* The instruction, per compiler and architecture: STEP8 folds 8 bytes (little-endian)
 * into the register, STEP1 one byte; HARDWARE marks the functions that may use them. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define HAVE_HARDWARE 1
#define HARDWARE __attribute__((target("sse4.2")))
#define STEP8(c, v) ((uint32_t)_mm_crc32_u64((c), (v)))
#define STEP4(c, v) _mm_crc32_u32((c), (v))
#define STEP1(c, b) _mm_crc32_u8((c), (b))
static int cpu_has_crc(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
}
#elif defined(_MSC_VER) && defined(_M_X64)
#include <intrin.h>
#include <nmmintrin.h>
#define HAVE_HARDWARE 1
#define HARDWARE
#define STEP8(c, v) ((uint32_t)_mm_crc32_u64((c), (v)))
#define STEP4(c, v) _mm_crc32_u32((c), (v))
#define STEP1(c, b) _mm_crc32_u8((c), (b))
static int cpu_has_crc(void) {
    int info[4];
    __cpuid(info, 1);
    return (info[2] >> 20) & 1; /* ECX bit 20: SSE 4.2 */
}
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#include <arm_acle.h>
#define HAVE_HARDWARE 1
#define HARDWARE __attribute__((target("+crc")))
#define STEP8(c, v) __crc32cd((c), (v))
#define STEP4(c, v) __crc32cw((c), (v))
#define STEP1(c, b) __crc32cb((c), (b))
#if defined(__APPLE__)
static int cpu_has_crc(void) { return 1; } /* every Apple arm64 CPU has it */
#elif defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
static int cpu_has_crc(void) { return (getauxval(AT_HWCAP) & HWCAP_CRC32) ? 1 : 0; }
#else
static int cpu_has_crc(void) { return 0; }
#endif
#elif defined(_MSC_VER) && defined(_M_ARM64)
#include <arm64intr.h>
#include <windows.h>
#define HAVE_HARDWARE 1
#define HARDWARE
#define STEP8(c, v) __crc32cd((c), (v))
#define STEP4(c, v) __crc32cw((c), (v))
#define STEP1(c, b) __crc32cb((c), (b))
static int cpu_has_crc(void) {
    return IsProcessorFeaturePresent(PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE) ? 1 : 0;
}
#endif

#ifdef HAVE_HARDWARE
static inline uint64_t load8(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t load4(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Three streams of `len` bytes from `p`: the register `c` carried through all three. */
HARDWARE static inline uint32_t three_streams(uint32_t c, const uint8_t *p, size_t len,
                                              uint32_t shift[4][256]) {
    uint32_t c1 = 0, c2 = 0;
    const uint8_t *end = p + len;
    while (p < end) {
        c = STEP8(c, load8(p));
        c1 = STEP8(c1, load8(p + len));
        c2 = STEP8(c2, load8(p + 2 * len));
        p += 8;
    }
    c = shifted(shift, c) ^ c1;
    return shifted(shift, c) ^ c2;
}

HARDWARE uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    /* Words are loaded unaligned (both architectures load them at full speed): a short
     * payload at any offset then costs one instruction per 8 bytes, not one per byte
     * up to an 8-byte boundary. */
    uint32_t c = ~crc;
    while (n >= 3 * LONG) {
        c = three_streams(c, p, LONG, shift_long);
        p += 3 * LONG;
        n -= 3 * LONG;
    }
    while (n >= 3 * SHORT) {
        c = three_streams(c, p, SHORT, shift_short);
        p += 3 * SHORT;
        n -= 3 * SHORT;
    }
    while (n >= 8) {
        c = STEP8(c, load8(p));
        p += 8;
        n -= 8;
    }
    if (n >= 4) {
        c = STEP4(c, load4(p));
        p += 4;
        n -= 4;
    }
    while (n--) c = STEP1(c, *p++);
    return ~c;
}
#else
uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    return crc32c_portable(crc, p, n);
}
static int cpu_has_crc(void) { return 0; }
#endif

int crc32c_init(void) {
    if (path < 0) {
        build_tables();
        path = cpu_has_crc() ? CRC32C_HARDWARE : CRC32C_PORTABLE;
    }
    return path;
}

const char *crc32c_path_name(void) {
    if (crc32c_init() == CRC32C_PORTABLE) return "portable (slicing-by-8)";
#if defined(__x86_64__) || defined(_M_X64)
    return "SSE 4.2, three streams";
#else
    return "ARMv8 CRC, three streams";
#endif
}

uint32_t crc32c_extend(uint32_t crc, const uint8_t *data, size_t n) {
    return path == CRC32C_HARDWARE ? crc32c_hardware(crc, data, n)
                                   : crc32c_portable(crc, data, n);
}
