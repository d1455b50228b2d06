#include "utf8.h"

#include <string.h>

size_t utf8_char(const uint8_t *s, size_t n) {
    if (!n) return 0;
    uint8_t c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;      /* no overlong forms */
        else if (c == 0xED) hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        else if (c == 0xF4) hi = 0x8F; /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    return len;
}

int utf8_valid(const uint8_t *s, size_t n) {
    size_t i = 0;
    /* ASCII, the common case, eight bytes at a time */
    for (; n - i >= 8; i += 8) {
        uint64_t word;
        memcpy(&word, s + i, 8);
        if (word & 0x8080808080808080ULL) break;
    }
    while (i < n) {
        size_t len = utf8_char(s + i, n - i);
        if (!len) return 0;
        i += len;
    }
    return 1;
}

static const char HEX[] = "0123456789abcdef";

size_t utf8_escaped(const uint8_t *k, size_t kn, uint8_t *out) {
    size_t i = 0, j = 0;
    while (i < kn) {
        size_t len = utf8_char(k + i, kn - i);
        if (len) {
            memcpy(out + j, k + i, len);
            i += len;
            j += len;
        } else {
            out[j++] = '\\';
            out[j++] = 'x';
            out[j++] = (uint8_t)HEX[k[i] >> 4];
            out[j++] = (uint8_t)HEX[k[i] & 15];
            i++;
        }
    }
    return j;
}

int utf8_named(const uint8_t *k, size_t kn, const uint8_t *name, size_t n) {
    /* a key's name is never shorter than the key, and longer only when the key is not
     * UTF-8 (each byte outside a character written as four): most keys are told apart
     * by their lengths alone, as before keys were named */
    if (kn >= n) return kn == n && (n == 0 || memcmp(k, name, n) == 0);
    if (!memchr(name, '\\', n)) return 0;
    size_t i = 0, j = 0;
    while (i < kn) {
        size_t len = utf8_char(k + i, kn - i);
        if (len) {
            if (n - j < len || memcmp(k + i, name + j, len) != 0) return 0;
            i += len;
            j += len;
        } else {
            if (n - j < 4 || name[j] != '\\' || name[j + 1] != 'x' ||
                name[j + 2] != (uint8_t)HEX[k[i] >> 4] || name[j + 3] != (uint8_t)HEX[k[i] & 15])
                return 0;
            i++;
            j += 4;
        }
    }
    return j == n;
}
