/* UTF-8 as strictly as Python's decoder and upb check it (no overlong forms, no
 * surrogates, nothing past U+10FFFF), and feature keys named by their text. */
#ifndef TFR_UTF8_H
#define TFR_UTF8_H
#include <stddef.h>
#include <stdint.h>

/* The length of the UTF-8 character that starts `s` (of `n` bytes), or 0. */
size_t utf8_char(const uint8_t *s, size_t n);

/* Whether `s` is UTF-8 text. */
int utf8_valid(const uint8_t *s, size_t n);

/* Whether the key `k` is the one named `name`: the name of a key is its text, and for a
 * key that is not UTF-8, its text with each byte outside a character written `\xNN`
 * (as Python's "backslashreplace" writes it). `name` is UTF-8. */
int utf8_named(const uint8_t *k, size_t kn, const uint8_t *name, size_t n);

/* Write the name of the key `k` (its text, \xNN for each byte outside a character) to
 * `out`, which has room for 4 * kn bytes; returns its length. */
size_t utf8_escaped(const uint8_t *k, size_t kn, uint8_t *out);

#endif
