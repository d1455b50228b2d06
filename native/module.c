/* tfr_viewer.core._fast: the compiled hot loops (frame scan, CRC32C, Example columns).
 * Every entry point takes buffers, releases the GIL while it works, and returns
 * plain bytes that the Python side views as numpy arrays. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "crc32c.h"
#include "events.h"
#include "frames.h"
#include "message_paths.h"
#include "tf_example.h"

static int hardware_crc = 0;

static PyObject *no_memory(void) { return PyErr_NoMemory(); }

/* crc32c(data, crc=0, impl="auto") -> int */
static PyObject *py_crc32c(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"data", "crc", "impl", NULL};
    Py_buffer data;
    unsigned int crc = 0;
    const char *impl = "auto";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|Is", names, &data, &crc, &impl)) return NULL;
    uint32_t out;
    int which = strcmp(impl, "portable") == 0 ? 0 : strcmp(impl, "hardware") == 0 ? 1 : 2;
    if (which == 1 && !hardware_crc) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "this CPU has no CRC32C instruction");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    const uint8_t *p = data.buf;
    if (which == 0)
        out = crc32c_portable(crc, p, (size_t)data.len);
    else if (which == 1)
        out = crc32c_hardware(crc, p, (size_t)data.len);
    else
        out = crc32c_extend(crc, p, (size_t)data.len);
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&data);
    return PyLong_FromUnsignedLong(out);
}

static int check_out(Py_buffer *b, Py_ssize_t items, Py_ssize_t size, const char *name) {
    if (b->len < items * size) {
        PyErr_Format(PyExc_ValueError, "%s holds fewer than %zd items", name, items);
        return -1;
    }
    return 0;
}

/* scan_frames(buf, pos, limit, verify, base, offsets, lengths, status) -> (n, stop) */
static PyObject *py_same_bytes(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer a, b;
    if (!PyArg_ParseTuple(args, "y*y*", &a, &b)) return NULL;
    int same = a.len == b.len;
    if (same && a.len > 0) {
        Py_BEGIN_ALLOW_THREADS;
        same = memcmp(a.buf, b.buf, (size_t)a.len) == 0;
        Py_END_ALLOW_THREADS;
    }
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    return PyBool_FromLong(same);
}

static PyObject *py_scan_frames(PyObject *self, PyObject *args) {
    Py_buffer buf, offsets, lengths, status;
    Py_ssize_t pos, limit;
    int verify;
    unsigned long long base;
    if (!PyArg_ParseTuple(args, "y*nnpKw*w*w*", &buf, &pos, &limit, &verify, &base, &offsets,
                          &lengths, &status))
        return NULL;
    PyObject *result = NULL;
    if (pos < 0 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "pos and limit must not be negative");
    } else if (check_out(&offsets, limit, 8, "offsets") == 0 &&
               check_out(&lengths, limit, 8, "lengths") == 0 &&
               check_out(&status, limit, 1, "status") == 0) {
        size_t n, stop;
        Py_BEGIN_ALLOW_THREADS;
        n = frames_scan(buf.buf, (size_t)buf.len, (size_t)pos, (size_t)limit, verify, base,
                        offsets.buf, lengths.buf, status.buf, &stop);
        Py_END_ALLOW_THREADS;
        result = Py_BuildValue("nn", (Py_ssize_t)n, (Py_ssize_t)stop);
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&lengths);
    PyBuffer_Release(&status);
    return result;
}

#ifdef FRAMES_HOP
/* hop_frames(fd, size, pos, limit, min_frame, offsets, lengths) -> (n, stop, errno) */
static PyObject *py_hop_frames(PyObject *self, PyObject *args) {
    int fd;
    unsigned long long size, pos, min_frame;
    Py_ssize_t limit;
    Py_buffer offsets, lengths;
    if (!PyArg_ParseTuple(args, "iKKnKw*w*", &fd, &size, &pos, &limit, &min_frame, &offsets,
                          &lengths))
        return NULL;
    PyObject *result = NULL;
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limit must not be negative");
    } else if (check_out(&offsets, limit, 8, "offsets") == 0 &&
               check_out(&lengths, limit, 8, "lengths") == 0) {
        size_t n;
        uint64_t stop;
        int error;
        Py_BEGIN_ALLOW_THREADS;
        n = frames_hop(fd, size, pos, (size_t)limit, min_frame, offsets.buf, lengths.buf, &stop,
                       &error);
        Py_END_ALLOW_THREADS;
        result = Py_BuildValue("nKi", (Py_ssize_t)n, (unsigned long long)stop, error);
    }
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&lengths);
    return result;
}
#endif

/* The payload ranges: int64 starts and lengths, each within the buffer. */
static int check_ranges(Py_buffer *buf, Py_buffer *starts, Py_buffer *lengths, size_t *rows) {
    if (starts->len != lengths->len || starts->len % 8) {
        PyErr_SetString(PyExc_ValueError, "starts and lengths must be int64 arrays of one size");
        return -1;
    }
    *rows = (size_t)starts->len / 8;
    const int64_t *s = starts->buf, *n = lengths->buf;
    for (size_t r = 0; r < *rows; r++) {
        if (s[r] < 0) continue;
        if (n[r] < 0 || s[r] > buf->len || n[r] > buf->len - s[r]) {
            PyErr_Format(PyExc_ValueError, "payload %zu lies outside the buffer", r);
            return -1;
        }
    }
    return 0;
}

static PyObject *as_bytes(const void *p, size_t n) {
    return PyBytes_FromStringAndSize(n ? (const char *)p : "", (Py_ssize_t)n);
}

/* extract(buf, starts, lengths, keys) -> (row_status, [(present, kind, splits, ints,
 * floats, spans), ...]) with each item as bytes. */
static PyObject *py_extract(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths;
    PyObject *keys;
    if (!PyArg_ParseTuple(args, "y*y*y*O!", &buf, &starts, &lengths, &PyTuple_Type, &keys))
        return NULL;
    PyObject *result = NULL;
    size_t rows = 0, ncols = (size_t)PyTuple_GET_SIZE(keys);
    Column *cols = calloc(ncols ? ncols : 1, sizeof(Column));
    uint8_t *row_status = NULL;
    if (!cols) {
        no_memory();
        goto out;
    }
    if (check_ranges(&buf, &starts, &lengths, &rows)) goto out;
    row_status = malloc(rows ? rows : 1);
    if (!row_status) {
        no_memory();
        goto out;
    }
    for (size_t c = 0; c < ncols; c++) {
        PyObject *key = PyTuple_GET_ITEM(keys, c);
        if (!PyBytes_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "keys must be bytes");
            goto out;
        }
        cols[c].key = (const uint8_t *)PyBytes_AS_STRING(key);
        cols[c].key_n = (size_t)PyBytes_GET_SIZE(key);
        cols[c].present = malloc(rows ? rows : 1);
        cols[c].kind = malloc(rows ? rows : 1);
        cols[c].splits = malloc((rows + 1) * sizeof(int64_t));
        if (!cols[c].present || !cols[c].kind || !cols[c].splits) {
            no_memory();
            goto out;
        }
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = columns_extract(buf.buf, starts.buf, lengths.buf, rows, cols, ncols, row_status);
    Py_END_ALLOW_THREADS;
    if (status == WIRE_NOMEM) {
        no_memory();
        goto out;
    }
    PyObject *list = PyList_New((Py_ssize_t)ncols);
    if (!list) goto out;
    for (size_t c = 0; c < ncols; c++) {
        Column *col = &cols[c];
        PyObject *item = Py_BuildValue(
            "(NNNNNN)", as_bytes(col->present, rows), as_bytes(col->kind, rows),
            as_bytes(col->splits, (rows + 1) * 8), as_bytes(col->values.ints, col->values.n_ints * 8),
            as_bytes(col->values.floats, col->values.n_floats * 8),
            as_bytes(col->values.spans, col->values.n_spans * 8));
        if (!item) {
            Py_DECREF(list);
            goto out;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)c, item);
    }
    result = Py_BuildValue("(NN)", as_bytes(row_status, rows), list);
out:
    if (cols) {
        for (size_t c = 0; c < ncols; c++) {
            free(cols[c].present);
            free(cols[c].kind);
            free(cols[c].splits);
            values_free(&cols[c].values);
        }
        free(cols);
    }
    free(row_status);
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    return result;
}

/* message_paths(buf, starts, lengths, fields, msgs, paths) -> (row_status, [(splits,
 * values), ...]): message_paths.h's paths_extract; fields and msgs as int32 bytes, a
 * path as (steps as int32 bytes, leaf, type, flags, fallback), each result as bytes. */
static PyObject *py_message_paths(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths, fields, msgs;
    PyObject *paths;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*O!", &buf, &starts, &lengths, &fields, &msgs,
                          &PyTuple_Type, &paths))
        return NULL;
    PyObject *result = NULL;
    size_t rows = 0, ncols = (size_t)PyTuple_GET_SIZE(paths);
    size_t n_msgs = (size_t)msgs.len / 8, n_fields = (size_t)fields.len / 16;
    PathColumn *cols = calloc(ncols ? ncols : 1, sizeof(PathColumn));
    uint8_t *row_status = NULL;
    if (!cols) {
        no_memory();
        goto out;
    }
    if (check_ranges(&buf, &starts, &lengths, &rows)) goto out;
    if (ncols > 64 || !n_msgs || msgs.len % 8 || fields.len % 16) {
        PyErr_SetString(PyExc_ValueError, "message_paths: a schema or paths of the wrong shape");
        goto out;
    }
    const int32_t *m = msgs.buf, *f = fields.buf;
    for (size_t i = 0; i < n_msgs; i++) {
        if (m[2 * i] < 0 || m[2 * i + 1] < 0 || (size_t)m[2 * i] + (size_t)m[2 * i + 1] > n_fields) {
            PyErr_SetString(PyExc_ValueError, "message_paths: a message outside the fields");
            goto out;
        }
    }
    for (size_t i = 0; i < n_fields; i++) {
        if (f[4 * i + 1] == 11 && (f[4 * i + 3] < 0 || (size_t)f[4 * i + 3] >= n_msgs)) {
            PyErr_SetString(PyExc_ValueError, "message_paths: a field of no message");
            goto out;
        }
    }
    row_status = malloc(rows ? rows : 1);
    if (!row_status) {
        no_memory();
        goto out;
    }
    for (size_t c = 0; c < ncols; c++) {
        Py_buffer steps;
        int leaf, type, flags;
        unsigned long long fallback;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(paths, c), "y*iiiK", &steps, &leaf, &type, &flags,
                              &fallback))
            goto out;
        /* the path's steps live as long as the tuple that holds them */
        cols[c].steps = steps.buf;
        cols[c].n_steps = (size_t)steps.len / 4;
        PyBuffer_Release(&steps);
        cols[c].leaf = leaf;
        cols[c].type = type;
        cols[c].flags = flags;
        cols[c].fallback = fallback;
        cols[c].splits = malloc((rows + 1) * sizeof(int64_t));
        if (!cols[c].splits) {
            no_memory();
            goto out;
        }
    }
    PathSchema schema = {f, m, n_msgs};
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = paths_extract(buf.buf, starts.buf, lengths.buf, rows, &schema, cols, ncols, row_status);
    Py_END_ALLOW_THREADS;
    if (status == WIRE_NOMEM) {
        no_memory();
        goto out;
    }
    PyObject *list = PyList_New((Py_ssize_t)ncols);
    if (!list) goto out;
    for (size_t c = 0; c < ncols; c++) {
        PyObject *item = Py_BuildValue("(NN)", as_bytes(cols[c].splits, (rows + 1) * 8),
                                       as_bytes(cols[c].values, cols[c].n_values * 8));
        if (!item) {
            Py_DECREF(list);
            goto out;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)c, item);
    }
    result = Py_BuildValue("(NN)", as_bytes(row_status, rows), list);
out:
    if (cols) {
        for (size_t c = 0; c < ncols; c++) {
            free(cols[c].splits);
            free(cols[c].values);
        }
        free(cols);
    }
    free(row_status);
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    PyBuffer_Release(&fields);
    PyBuffer_Release(&msgs);
    return result;
}

/* extract_lists(buf, starts, lengths, keys) -> (row_status, [(present, splits,
 * step_kind, step_splits, ints, floats, spans), ...]) with each item as bytes. */
static PyObject *py_extract_lists(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths;
    PyObject *keys;
    if (!PyArg_ParseTuple(args, "y*y*y*O!", &buf, &starts, &lengths, &PyTuple_Type, &keys))
        return NULL;
    PyObject *result = NULL;
    size_t rows = 0, ncols = (size_t)PyTuple_GET_SIZE(keys);
    ListColumn *cols = calloc(ncols ? ncols : 1, sizeof(ListColumn));
    uint8_t *row_status = NULL;
    if (!cols) {
        no_memory();
        goto out;
    }
    if (check_ranges(&buf, &starts, &lengths, &rows)) goto out;
    row_status = malloc(rows ? rows : 1);
    if (!row_status) {
        no_memory();
        goto out;
    }
    for (size_t c = 0; c < ncols; c++) {
        PyObject *key = PyTuple_GET_ITEM(keys, c);
        if (!PyBytes_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "keys must be bytes");
            goto out;
        }
        cols[c].key = (const uint8_t *)PyBytes_AS_STRING(key);
        cols[c].key_n = (size_t)PyBytes_GET_SIZE(key);
        cols[c].present = malloc(rows ? rows : 1);
        cols[c].splits = malloc((rows + 1) * sizeof(int64_t));
        if (!cols[c].present || !cols[c].splits) {
            no_memory();
            goto out;
        }
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = columns_extract_lists(buf.buf, starts.buf, lengths.buf, rows, cols, ncols,
                                   row_status);
    Py_END_ALLOW_THREADS;
    if (status == WIRE_NOMEM) {
        no_memory();
        goto out;
    }
    PyObject *list = PyList_New((Py_ssize_t)ncols);
    if (!list) goto out;
    for (size_t c = 0; c < ncols; c++) {
        ListColumn *col = &cols[c];
        PyObject *item = Py_BuildValue(
            "(NNNNNNN)", as_bytes(col->present, rows), as_bytes(col->splits, (rows + 1) * 8),
            as_bytes(col->step_kind, col->n_steps),
            as_bytes(col->step_splits, (col->n_steps + 1) * 8),
            as_bytes(col->values.ints, col->values.n_ints * 8),
            as_bytes(col->values.floats, col->values.n_floats * 8),
            as_bytes(col->values.spans, col->values.n_spans * 8));
        if (!item) {
            Py_DECREF(list);
            goto out;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)c, item);
    }
    result = Py_BuildValue("(NN)", as_bytes(row_status, rows), list);
out:
    if (cols) {
        for (size_t c = 0; c < ncols; c++) list_column_free(&cols[c]);
        free(cols);
    }
    free(row_status);
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    return result;
}

/* discover(buf, starts, lengths) -> (row_type, [(table, key, present, kinds(4), first(4),
 * min_count, max_count), ...]) */
static PyObject *py_discover(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths;
    if (!PyArg_ParseTuple(args, "y*y*y*", &buf, &starts, &lengths)) return NULL;
    PyObject *result = NULL;
    size_t rows = 0;
    KeyTable table = {0};
    uint8_t *row_type = NULL;
    if (check_ranges(&buf, &starts, &lengths, &rows)) goto out;
    row_type = malloc(rows ? rows : 1);
    if (!row_type) {
        no_memory();
        goto out;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = columns_discover(buf.buf, starts.buf, lengths.buf, rows, &table, row_type);
    Py_END_ALLOW_THREADS;
    if (status == WIRE_NOMEM) {
        no_memory();
        goto out;
    }
    PyObject *list = PyList_New(0);
    if (!list) goto out;
    for (size_t i = 0; i < table.cap; i++) {
        KeyStats *s = &table.slots[i];
        if (!s->key) continue;
        PyObject *item = Py_BuildValue(
            "(iy#K(KKKK)(KKKK)KK)", s->table, (const char *)s->key, (Py_ssize_t)s->key_n,
            s->present, s->kinds[0], s->kinds[1], s->kinds[2], s->kinds[3], s->first[0],
            s->first[1], s->first[2], s->first[3], s->min_count, s->max_count);
        if (!item || PyList_Append(list, item)) {
            Py_XDECREF(item);
            Py_DECREF(list);
            goto out;
        }
        Py_DECREF(item);
    }
    result = Py_BuildValue("(NN)", as_bytes(row_type, rows), list);
out:
    keytable_free(&table);
    free(row_type);
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    return result;
}

/* payload_crcs(buf, starts, lengths, ok): for each row whose int64 start is not -1, the
 * payload buf[start : start + length] followed by its stored masked CRC32C; ok[row]
 * (uint8) is 1 when the CRC matches. Rows with start -1 get 0. */
static PyObject *py_payload_crcs(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths, ok;
    if (!PyArg_ParseTuple(args, "y*y*y*w*", &buf, &starts, &lengths, &ok)) return NULL;
    PyObject *result = NULL;
    size_t rows = (size_t)starts.len / 8;
    if (starts.len != lengths.len || starts.len % 8 || (size_t)ok.len < rows) {
        PyErr_SetString(PyExc_ValueError, "starts and lengths: int64 arrays of one size; ok: "
                                          "a uint8 array as long");
        goto out;
    }
    const int64_t *s = starts.buf, *n = lengths.buf;
    for (size_t r = 0; r < rows; r++) {
        if (s[r] < 0) continue;
        if (n[r] < 0 || s[r] > buf.len || n[r] > buf.len - s[r] || buf.len - s[r] - n[r] < 4) {
            PyErr_Format(PyExc_ValueError, "payload %zu and its CRC lie outside the buffer", r);
            goto out;
        }
    }
    uint8_t *out = ok.buf;
    const uint8_t *b = buf.buf;
    Py_BEGIN_ALLOW_THREADS;
    for (size_t r = 0; r < rows; r++) {
        if (s[r] < 0) {
            out[r] = 0;
            continue;
        }
        const uint8_t *p = b + s[r];
        const uint8_t *f = p + n[r];
        uint32_t stored = (uint32_t)f[0] | (uint32_t)f[1] << 8 | (uint32_t)f[2] << 16 |
                          (uint32_t)f[3] << 24;
        out[r] = crc32c_mask(crc32c_extend(0, p, (size_t)n[r])) == stored;
    }
    Py_END_ALLOW_THREADS;
    result = Py_None;
    Py_INCREF(result);
out:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    PyBuffer_Release(&ok);
    return result;
}

/* event_values(buf, starts, lengths, first, what, row, tag, value, step, wall, tags,
 * slots) -> (status, stop, values, tags): events.h's events_read from row first on,
 * into the caller's buffers: what (uint8, a row each), row and tag (int32), value, step
 * and wall (float64, int64, float64; as many as row holds), tags (int64, six a tag)
 * and slots (uint64, a power of two, at least twice the tags). */
static PyObject *py_event_values(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths, what, row, tag, value, step, wall, tags, slots;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "y*y*y*nw*w*w*w*w*w*w*w*", &buf, &starts, &lengths, &first,
                          &what, &row, &tag, &value, &step, &wall, &tags, &slots))
        return NULL;
    PyObject *result = NULL;
    size_t rows = (size_t)starts.len / 8, cap = (size_t)row.len / 4;
    size_t tag_cap = (size_t)tags.len / 48, slots_cap = (size_t)slots.len / 8;
    if (starts.len != lengths.len || starts.len % 8 || (size_t)what.len < rows || first < 0 ||
        (size_t)first > rows || (size_t)tag.len / 4 < cap || (size_t)value.len / 8 < cap ||
        (size_t)step.len / 8 < cap || (size_t)wall.len / 8 < cap || slots_cap < 2 * tag_cap ||
        (slots_cap & (slots_cap - 1))) {
        PyErr_SetString(PyExc_ValueError, "event_values: buffers of the wrong sizes");
        goto out;
    }
    const int64_t *s = starts.buf, *n = lengths.buf;
    for (size_t r = 0; r < rows; r++) {
        if (s[r] >= 0 && (n[r] < 0 || s[r] > buf.len || n[r] > buf.len - s[r])) {
            PyErr_Format(PyExc_ValueError, "payload %zu lies outside the buffer", r);
            goto out;
        }
    }
    EventOut o = {row.buf, tag.buf, value.buf, wall.buf, step.buf, cap, 0,
                  tags.buf, tag_cap, 0, slots.buf, slots_cap};
    size_t stop = (size_t)first;
    int status;
    Py_BEGIN_ALLOW_THREADS;
    status = events_read(buf.buf, s, n, rows, (size_t)first, what.buf, &o, &stop);
    Py_END_ALLOW_THREADS;
    result = Py_BuildValue("(innn)", status, (Py_ssize_t)stop, (Py_ssize_t)o.values,
                           (Py_ssize_t)o.tag_count);
out:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    PyBuffer_Release(&what);
    PyBuffer_Release(&row);
    PyBuffer_Release(&tag);
    PyBuffer_Release(&value);
    PyBuffer_Release(&step);
    PyBuffer_Release(&wall);
    PyBuffer_Release(&tags);
    PyBuffer_Release(&slots);
    return result;
}

/* take_bytes(buf, spans, text=False) -> list of bytes, one per (offset, size) int64
 * pair; with text, each as its UTF-8 text (bytes that are no UTF-8 stay bytes). */
static PyObject *py_take_bytes(PyObject *self, PyObject *args) {
    Py_buffer buf, spans;
    int text = 0;
    if (!PyArg_ParseTuple(args, "y*y*|p", &buf, &spans, &text)) return NULL;
    PyObject *list = NULL;
    if (spans.len % 16) {
        PyErr_SetString(PyExc_ValueError, "spans must be int64 (offset, size) pairs");
        goto out;
    }
    Py_ssize_t n = spans.len / 16;
    const int64_t *s = spans.buf;
    list = PyList_New(n);
    if (!list) goto out;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t off = s[2 * i], size = s[2 * i + 1];
        if (off < 0 || size < 0 || off > buf.len || size > buf.len - off) {
            PyErr_Format(PyExc_ValueError, "span %zd lies outside the buffer", i);
            Py_CLEAR(list);
            goto out;
        }
        const char *at = (const char *)buf.buf + off;
        PyObject *item = NULL;
        if (text) {
            item = PyUnicode_DecodeUTF8(at, size, NULL);
            if (!item && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) PyErr_Clear();
        }
        if (!item && !PyErr_Occurred()) item = PyBytes_FromStringAndSize(at, size);
        if (!item) {
            Py_CLEAR(list);
            goto out;
        }
        PyList_SET_ITEM(list, i, item);
    }
out:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&spans);
    return list;
}


/* tf_check(buf, starts, lengths) -> (codes, offsets): per payload, TensorFlow's parser's
 * verdict (tf_example.h: the code, plus 0x80 when protobuf reads it otherwise, plus 0x40
 * when it reads no feature entry) and the
 * byte offset inside the payload where it fails (-1 when it does not); as bytes. Rows
 * with a negative start are skipped (code 0). */
static PyObject *py_tf_check(PyObject *self, PyObject *args) {
    Py_buffer buf, starts, lengths;
    if (!PyArg_ParseTuple(args, "y*y*y*", &buf, &starts, &lengths)) return NULL;
    PyObject *result = NULL;
    size_t rows = 0;
    uint8_t *codes = NULL;
    int64_t *offsets = NULL;
    if (check_ranges(&buf, &starts, &lengths, &rows)) goto out;
    codes = malloc(rows ? rows : 1);
    offsets = malloc((rows ? rows : 1) * sizeof(int64_t));
    if (!codes || !offsets) {
        no_memory();
        goto out;
    }
    int nomem = 0;
    Py_BEGIN_ALLOW_THREADS;
    const int64_t *s = starts.buf, *n = lengths.buf;
    for (size_t r = 0; r < rows && !nomem; r++) {
        int differs = 0;
        size_t entries = 0;
        offsets[r] = -1;
        codes[r] = 0;
        if (s[r] < 0) continue;
        int code = tf_example_check((const uint8_t *)buf.buf + s[r], (size_t)n[r], &offsets[r],
                                    &differs, &entries);
        if (code == TF_NOMEM) nomem = 1;
        codes[r] = (uint8_t)(code | (differs ? TF_DIFFERS : 0) |
                             (code == TF_OK && !entries ? TF_NO_FEATURES : 0));
    }
    Py_END_ALLOW_THREADS;
    if (nomem) {
        no_memory();
        goto out;
    }
    result = Py_BuildValue("NN", as_bytes(codes, rows), as_bytes(offsets, rows * sizeof(int64_t)));
out:
    free(codes);
    free(offsets);
    PyBuffer_Release(&buf);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&lengths);
    return result;
}

/* tf_fields(data) -> (code, offset, differs, spans): the Example's own fields read as
 * TensorFlow's parser reads them; spans are int64 (start, stop) pairs of its features
 * fields, as bytes. */
static PyObject *py_tf_fields(PyObject *self, PyObject *args) {
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) return NULL;
    int64_t offset, *spans = NULL;
    int differs, code;
    size_t n_spans = 0;
    Py_BEGIN_ALLOW_THREADS;
    code = tf_example_fields(data.buf, (size_t)data.len, &offset, &differs, &spans, &n_spans);
    Py_END_ALLOW_THREADS;
    PyObject *result = NULL;
    if (code == TF_NOMEM)
        no_memory();
    else
        result = Py_BuildValue("iLiN", code, (long long)offset, differs,
                               as_bytes(spans, n_spans * 2 * sizeof(int64_t)));
    free(spans);
    PyBuffer_Release(&data);
    return result;
}

/* smooth(values, weight, out): TensorBoard's smoothing of a scalar curve, a debiased
 * exponential moving average: over the finite values in order, last = last * weight +
 * (1 - weight) * value, and the point drawn is last / (1 - weight^n) after n of them
 * (weight^n a running product); a value that is not finite is drawn as it is and
 * leaves the average alone. values and out: float64 arrays of one size. */
static PyObject *py_smooth(PyObject *self, PyObject *args) {
    Py_buffer values, out;
    double weight;
    if (!PyArg_ParseTuple(args, "y*dw*", &values, &weight, &out)) return NULL;
    PyObject *result = NULL;
    if (values.len != out.len || values.len % 8) {
        PyErr_SetString(PyExc_ValueError, "values and out: float64 arrays of one size");
        goto out;
    }
    const double *x = values.buf;
    double *y = out.buf;
    size_t n = (size_t)values.len / 8;
    Py_BEGIN_ALLOW_THREADS;
    double last = 0.0, power = 1.0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i])) {
            y[i] = x[i];
            continue;
        }
        last = last * weight + (1.0 - weight) * x[i];
        power *= weight;
        y[i] = last / (1.0 - power);
    }
    Py_END_ALLOW_THREADS;
    result = Py_None;
    Py_INCREF(result);
out:
    PyBuffer_Release(&values);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"crc32c", (PyCFunction)(void (*)(void))py_crc32c, METH_VARARGS | METH_KEYWORDS,
     "crc32c(data, crc=0, impl='auto'): CRC32C of data, extending crc; impl is auto, "
     "portable or hardware."},
#ifdef FRAMES_HOP
    {"hop_frames", py_hop_frames, METH_VARARGS,
     "hop_frames(fd, size, pos, limit, min_frame, offsets, lengths) -> (n, stop, errno): "
     "frame headers read one by one from a file, the payloads skipped"},
#endif
    {"same_bytes", py_same_bytes, METH_VARARGS,
     "same_bytes(a, b) -> whether two bytes-like objects hold the same bytes"},
    {"scan_frames", py_scan_frames, METH_VARARGS,
     "scan_frames(buf, pos, limit, verify, base, offsets, lengths, status) -> (n, stop)"},
    {"extract", py_extract, METH_VARARGS,
     "extract(buf, starts, lengths, keys) -> (row_status, columns)"},
    {"message_paths", py_message_paths, METH_VARARGS,
     "message_paths(buf, starts, lengths, fields, msgs, paths) -> (row_status, columns)"},
    {"extract_lists", py_extract_lists, METH_VARARGS,
     "extract_lists(buf, starts, lengths, keys) -> (row_status, columns)"},
    {"discover", py_discover, METH_VARARGS, "discover(buf, starts, lengths) -> (row_type, keys)"},
    {"tf_check", py_tf_check, METH_VARARGS,
     "tf_check(buf, starts, lengths) -> (codes, offsets): TensorFlow's parser's verdicts"},
    {"tf_fields", py_tf_fields, METH_VARARGS,
     "tf_fields(data) -> (code, offset, differs, spans): an Example's own fields"},
    {"take_bytes", py_take_bytes, METH_VARARGS,
     "take_bytes(buf, spans, text=False) -> list of bytes (or text)"},
    {"event_values", py_event_values, METH_VARARGS,
     "event_values(buf, starts, lengths, first, ...): TensorBoard events' plain scalars"},
    {"payload_crcs", py_payload_crcs, METH_VARARGS,
     "payload_crcs(buf, starts, lengths, ok): whether each payload's stored CRC matches"},
    {"smooth", py_smooth, METH_VARARGS,
     "smooth(values, weight, out): TensorBoard's debiased moving average of a curve"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fast",
                                    "Compiled hot loops of tfr-viewer.", -1, methods};

/* the values the Python side names too: checked against its own when it is imported */
static const struct {
    const char *name;
    int value;
} shared_constants[] = {
    {"MAX_DEPTH", WIRE_MAX_DEPTH},
    {"FRAME_OK", FRAME_OK},
    {"FRAME_BAD_DATA_CRC", FRAME_BAD_DATA_CRC},
    {"FRAME_UNVERIFIED", FRAME_UNVERIFIED},
    {"TF_OK", TF_OK},
    {"TF_STRUCTURE", TF_STRUCTURE},
    {"TF_KIND", TF_KIND},
    {"TF_LIST", TF_LIST},
    {"TF_DIFFERS", TF_DIFFERS},
    {"TF_NO_FEATURES", TF_NO_FEATURES},
    {"ROW_OK", WIRE_OK},
    {"ROW_MALFORMED", WIRE_MALFORMED},
    {"ROW_UPB", WIRE_PUNT},
};

PyMODINIT_FUNC PyInit__fast(void) {
    hardware_crc = crc32c_init() == CRC32C_HARDWARE;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    int failed = PyModule_AddIntConstant(m, "HARDWARE_CRC", hardware_crc) ||
                 PyModule_AddStringConstant(m, "CRC_PATH", crc32c_path_name());
    for (size_t i = 0; !failed && i < sizeof shared_constants / sizeof shared_constants[0]; i++)
        failed = PyModule_AddIntConstant(m, shared_constants[i].name, shared_constants[i].value);
    if (failed) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
