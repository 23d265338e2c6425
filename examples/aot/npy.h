/*===- npy.h - .npy files as tsmlir_tensor values -----------------*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * A header-only reader and writer of NumPy's .npy files (format versions 1,
 * 2 and 3) for the examples that call compiled models. C99; also compiles as
 * C++. Include the model's header (NAME.h from `tsmlir-compile
 * --emit-header`, or tsmlir/Runtime/Abi.h) first: this file uses its
 * tsmlir_tensor and dtypes.
 *
 *   tsmlir_tensor t;
 *   char error[512];
 *   if (npy_read("in0.npy", &t, error, sizeof(error)) != 0)
 *     fprintf(stderr, "%s\n", error);
 *   ...
 *   npy_write("out0.npy", &t, error, sizeof(error));
 *   npy_free(&t);
 *
 * Dtypes: <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 |b1 (little-endian; the host must
 * be little-endian too). Arrays in Fortran order are transposed into C order
 * when read. Files are written in format version 1, C order. Malformed
 * files are reported with the file's name and what is wrong; nothing is
 * read beyond the header's stated length or the data's.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSMLIR_EXAMPLES_NPY_H
#define TSMLIR_EXAMPLES_NPY_H

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  NPY_MAX_RANK = 64,        /* NumPy's own limit */
  NPY_MAX_HEADER = 1 << 20, /* longer headers are refused */
  NPY_MAGIC_SIZE = 6        /* "\x93NUMPY" */
};

/*===--- Dtypes -----------------------------------------------------------===*/

typedef struct npy_dtype_entry {
  const char *descr; /* without the byte order */
  int32_t dtype;
  size_t size;
} npy_dtype_entry;

static inline const npy_dtype_entry *npy_dtypes(size_t *count) {
  static const npy_dtype_entry entries[] = {
      {"b1", TSMLIR_BOOL, 1},    {"u1", TSMLIR_UINT8, 1},
      {"i1", TSMLIR_INT8, 1},    {"i2", TSMLIR_INT16, 2},
      {"i4", TSMLIR_INT32, 4},   {"i8", TSMLIR_INT64, 8},
      {"f2", TSMLIR_FLOAT16, 2}, {"f4", TSMLIR_FLOAT32, 4},
      {"f8", TSMLIR_FLOAT64, 8}};
  *count = sizeof(entries) / sizeof(entries[0]);
  return entries;
}

/* The entry of a tsmlir dtype, or NULL. */
static inline const npy_dtype_entry *npy_find_dtype(int32_t dtype) {
  size_t count;
  const npy_dtype_entry *entries = npy_dtypes(&count);
  for (size_t i = 0; i < count; ++i)
    if (entries[i].dtype == dtype)
      return &entries[i];
  return NULL;
}

/* The entry of a descr such as "<f4" or "|b1", or NULL. Multi-byte types
   must be little-endian ('<'); one-byte types may say '|', '<' or '='. */
static inline const npy_dtype_entry *npy_parse_descr(const char *descr) {
  size_t count;
  const npy_dtype_entry *entries = npy_dtypes(&count);
  if (strlen(descr) != 3)
    return NULL;
  for (size_t i = 0; i < count; ++i) {
    if (strcmp(descr + 1, entries[i].descr) != 0)
      continue;
    if (descr[0] == '<' ||
        (entries[i].size == 1 && (descr[0] == '|' || descr[0] == '=')))
      return &entries[i];
  }
  return NULL;
}

/*===--- Errors and sizes -------------------------------------------------===*/

static inline int npy_fail(char *error, size_t size, const char *path,
                           const char *format, ...) {
  if (!error || size == 0)
    return -1;
  int n = snprintf(error, size, "%s: ", path);
  if (n >= 0 && (size_t)n < size) {
    va_list args;
    va_start(args, format);
    vsnprintf(error + n, size - (size_t)n, format, args);
    va_end(args);
  }
  return -1;
}

/* The number of elements and bytes of a tensor; -1 when they do not fit. */
static inline int npy_sizes(int32_t rank, const int64_t *sizes,
                            size_t element_size, int64_t *numel,
                            size_t *bytes) {
  int64_t n = 1;
  for (int32_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || (sizes[d] != 0 && n > INT64_MAX / sizes[d]))
      return -1;
    n *= sizes[d];
  }
  if ((uint64_t)n > (uint64_t)(SIZE_MAX / element_size) ||
      (uint64_t)n > (uint64_t)(INT64_MAX / (int64_t)element_size))
    return -1;
  *numel = n;
  *bytes = (size_t)n * element_size;
  return 0;
}

static inline int npy_little_endian_host(void) {
  const uint16_t probe = 1;
  unsigned char first;
  memcpy(&first, &probe, 1);
  return first == 1;
}

/*===--- The header: a Python dict literal --------------------------------===*/

typedef struct npy_header {
  char descr[8];
  int fortran_order;
  int32_t rank;
  int64_t sizes[NPY_MAX_RANK];
} npy_header;

/* A cursor over the header's bytes [p, end). */
typedef struct npy_cursor {
  const char *p, *end;
} npy_cursor;

static inline void npy_skip_spaces(npy_cursor *c) {
  while (c->p < c->end &&
         (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    ++c->p;
}

/* Consumes `ch` (after spaces); 0 if it is there, else -1. */
static inline int npy_expect(npy_cursor *c, char ch) {
  npy_skip_spaces(c);
  if (c->p >= c->end || *c->p != ch)
    return -1;
  ++c->p;
  return 0;
}

/* A quoted string without escapes into `out` (of `size` bytes). */
static inline int npy_parse_string(npy_cursor *c, char *out, size_t size) {
  npy_skip_spaces(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return -1;
  char quote = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != quote) {
    if (*c->p == '\\' || n + 1 >= size)
      return -1;
    out[n++] = *c->p++;
  }
  if (c->p >= c->end)
    return -1;
  ++c->p;
  out[n] = '\0';
  return 0;
}

/* A non-negative integer that fits in int64. */
static inline int npy_parse_integer(npy_cursor *c, int64_t *value) {
  npy_skip_spaces(c);
  if (c->p >= c->end || *c->p < '0' || *c->p > '9')
    return -1;
  int64_t v = 0;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    int digit = *c->p++ - '0';
    if (v > (INT64_MAX - digit) / 10)
      return -1;
    v = v * 10 + digit;
  }
  *value = v;
  return 0;
}

/* "True" or "False". */
static inline int npy_parse_bool(npy_cursor *c, int *value) {
  npy_skip_spaces(c);
  size_t left = (size_t)(c->end - c->p);
  if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
    c->p += 4;
    *value = 1;
    return 0;
  }
  if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
    c->p += 5;
    *value = 0;
    return 0;
  }
  return -1;
}

/* "()", "(5,)", "(2, 3)". */
static inline int npy_parse_shape(npy_cursor *c, npy_header *h,
                                  const char *path, char *error, size_t size) {
  if (npy_expect(c, '(') != 0)
    return npy_fail(error, size, path, "the shape is not a tuple");
  h->rank = 0;
  for (;;) {
    npy_skip_spaces(c);
    if (c->p < c->end && *c->p == ')')
      break;
    if (h->rank == NPY_MAX_RANK)
      return npy_fail(error, size, path, "more than %d dimensions",
                      (int)NPY_MAX_RANK);
    if (npy_parse_integer(c, &h->sizes[h->rank]) != 0)
      return npy_fail(
          error, size, path,
          "the shape has a size that is not an integer in [0, 2^63)");
    ++h->rank;
    npy_skip_spaces(c);
    if (c->p < c->end && *c->p == ',')
      ++c->p;
    else if (c->p >= c->end || *c->p != ')')
      return npy_fail(error, size, path, "the shape tuple is malformed");
  }
  ++c->p;
  return 0;
}

/* The header dict: 'descr', 'fortran_order' and 'shape', in any order. */
static inline int npy_parse_header(const char *text, size_t length,
                                   npy_header *h, const char *path, char *error,
                                   size_t size) {
  npy_cursor c = {text, text + length};
  int seen_descr = 0, seen_order = 0, seen_shape = 0;
  if (npy_expect(&c, '{') != 0)
    return npy_fail(error, size, path, "the header is not a dict");
  for (;;) {
    char key[32];
    npy_skip_spaces(&c);
    if (c.p < c.end && *c.p == '}')
      break;
    if (npy_parse_string(&c, key, sizeof(key)) != 0 || npy_expect(&c, ':') != 0)
      return npy_fail(error, size, path, "the header dict is malformed");
    if (strcmp(key, "descr") == 0) {
      npy_skip_spaces(&c);
      if (c.p < c.end && *c.p == '[')
        return npy_fail(error, size, path,
                        "structured dtypes are not supported");
      if (npy_parse_string(&c, h->descr, sizeof(h->descr)) != 0)
        return npy_fail(error, size, path, "'descr' is not a dtype string");
      seen_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (npy_parse_bool(&c, &h->fortran_order) != 0)
        return npy_fail(error, size, path,
                        "'fortran_order' is not True or False");
      seen_order = 1;
    } else if (strcmp(key, "shape") == 0) {
      if (npy_parse_shape(&c, h, path, error, size) != 0)
        return -1;
      seen_shape = 1;
    } else {
      return npy_fail(error, size, path, "unexpected key '%s' in the header",
                      key);
    }
    npy_skip_spaces(&c);
    if (c.p < c.end && *c.p == ',')
      ++c.p;
    else if (c.p >= c.end || *c.p != '}')
      return npy_fail(error, size, path, "the header dict is malformed");
  }
  if (!seen_descr || !seen_order || !seen_shape)
    return npy_fail(error, size, path,
                    "the header lacks 'descr', 'fortran_order' or 'shape'");
  return 0;
}

/*===--- Reading ----------------------------------------------------------===*/

/* Reads the preamble and the header text (malloc'ed into *text). */
static inline int npy_read_header_text(FILE *file, const char *path,
                                       char **text, size_t *length, char *error,
                                       size_t size) {
  unsigned char preamble[12];
  if (fread(preamble, 1, 8, file) != 8 ||
      memcmp(preamble, "\x93NUMPY", NPY_MAGIC_SIZE) != 0)
    return npy_fail(error, size, path, "not a .npy file (no \\x93NUMPY magic)");
  int major = preamble[6];
  if (major < 1 || major > 3)
    return npy_fail(error, size, path, "format version %d.%d is not supported",
                    major, preamble[7]);
  size_t n;
  if (major == 1) {
    if (fread(preamble + 8, 1, 2, file) != 2)
      return npy_fail(error, size, path, "truncated in the preamble");
    n = (size_t)preamble[8] | (size_t)preamble[9] << 8;
  } else {
    if (fread(preamble + 8, 1, 4, file) != 4)
      return npy_fail(error, size, path, "truncated in the preamble");
    n = (size_t)preamble[8] | (size_t)preamble[9] << 8 |
        (size_t)preamble[10] << 16 | (size_t)preamble[11] << 24;
  }
  if (n > NPY_MAX_HEADER)
    return npy_fail(error, size, path, "a header of %zu bytes is too long", n);
  *text = (char *)malloc(n + 1);
  if (!*text)
    return npy_fail(error, size, path, "out of memory");
  if (fread(*text, 1, n, file) != n) {
    free(*text);
    *text = NULL;
    return npy_fail(error, size, path, "truncated in the header");
  }
  (*text)[n] = '\0';
  *length = n;
  return 0;
}

/* The bytes left in the file from the current position, or -1 when the
   file cannot seek (then a short read finds truncated data). */
static inline long long npy_bytes_left(FILE *file) {
  long here = ftell(file);
  if (here < 0 || fseek(file, 0, SEEK_END) != 0)
    return -1;
  long end = ftell(file);
  if (end < 0 || fseek(file, here, SEEK_SET) != 0)
    return -1;
  return (long long)end - here;
}

/* Transposes Fortran-order `from` into C-order `to`. */
static inline void npy_fortran_to_c(char *to, const char *from, int32_t rank,
                                    const int64_t *sizes, size_t element_size,
                                    int64_t numel) {
  int64_t index[NPY_MAX_RANK] = {0};
  int64_t stride[NPY_MAX_RANK]; /* Fortran strides, in elements */
  int64_t offset = 0;
  if (numel == 0) /* the strides could overflow past a size of 0 */
    return;
  for (int32_t d = 0; d < rank; ++d)
    stride[d] = d == 0 ? 1 : stride[d - 1] * sizes[d - 1];
  for (int64_t n = 0; n < numel; ++n) {
    memcpy(to + (size_t)n * element_size, from + (size_t)offset * element_size,
           element_size);
    for (int32_t d = rank - 1; d >= 0; --d) { /* the next C-order index */
      if (++index[d] < sizes[d]) {
        offset += stride[d];
        break;
      }
      offset -= (sizes[d] - 1) * stride[d];
      index[d] = 0;
    }
  }
}

/* Reads the data that `h` describes into *tensor. */
static inline int npy_read_data(FILE *file, const char *path,
                                const npy_header *h, tsmlir_tensor *tensor,
                                char *error, size_t size) {
  const npy_dtype_entry *entry = npy_parse_descr(h->descr);
  if (!entry)
    return npy_fail(error, size, path,
                    "dtype '%s' is not supported (only <f2 <f4 <f8 |i1 <i2 "
                    "<i4 <i8 |u1 |b1)",
                    h->descr);
  int64_t numel;
  size_t bytes;
  if (npy_sizes(h->rank, h->sizes, entry->size, &numel, &bytes) != 0)
    return npy_fail(error, size, path, "the shape has too many elements");
  long long left = npy_bytes_left(file);
  if (left >= 0 && (unsigned long long)left < bytes)
    return npy_fail(error, size, path,
                    "truncated: %zu bytes of data expected, %lld found", bytes,
                    left);
  int64_t *sizes = (int64_t *)malloc(sizeof(int64_t) * (h->rank ? h->rank : 1));
  char *data = (char *)malloc(bytes ? bytes : 1);
  char *fortran = h->fortran_order && h->rank > 1
                      ? (char *)malloc(bytes ? bytes : 1)
                      : NULL;
  if (!sizes || !data || (h->fortran_order && h->rank > 1 && !fortran)) {
    free(sizes);
    free(data);
    free(fortran);
    return npy_fail(error, size, path, "out of memory for %zu bytes", bytes);
  }
  size_t got = fread(fortran ? fortran : data, 1, bytes, file);
  if (got != bytes) {
    free(sizes);
    free(data);
    free(fortran);
    return npy_fail(error, size, path,
                    "truncated: %zu bytes of data expected, %zu found", bytes,
                    got);
  }
  if (fortran) {
    npy_fortran_to_c(data, fortran, h->rank, h->sizes, entry->size, numel);
    free(fortran);
  }
  if (entry->dtype == TSMLIR_BOOL) /* any non-zero byte is true */
    for (size_t i = 0; i < bytes; ++i)
      data[i] = data[i] != 0;
  for (int32_t d = 0; d < h->rank; ++d)
    sizes[d] = h->sizes[d];
  tensor->data = data;
  tensor->dtype = entry->dtype;
  tensor->rank = h->rank;
  tensor->sizes = sizes;
  tensor->strides = NULL;
  return 0;
}

/* Reads `path` into *tensor: data and sizes are malloc'ed (npy_free),
   strides are NULL. Returns 0, or -1 with a message in `error`; *tensor is
   then empty. */
static inline int npy_read(const char *path, tsmlir_tensor *tensor, char *error,
                           size_t size) {
  memset(tensor, 0, sizeof(*tensor));
  if (!npy_little_endian_host())
    return npy_fail(error, size, path,
                    "this reader needs a little-endian host");
  FILE *file = fopen(path, "rb");
  if (!file)
    return npy_fail(error, size, path, "cannot open: %s", strerror(errno));
  char *text = NULL;
  size_t length = 0;
  npy_header h;
  memset(&h, 0, sizeof(h));
  int result = npy_read_header_text(file, path, &text, &length, error, size);
  if (result == 0)
    result = npy_parse_header(text, length, &h, path, error, size);
  if (result == 0)
    result = npy_read_data(file, path, &h, tensor, error, size);
  free(text);
  fclose(file);
  return result;
}

/* Frees what npy_read allocated. */
static inline void npy_free(tsmlir_tensor *tensor) {
  free(tensor->data);
  free((void *)(uintptr_t)tensor->sizes);
  memset(tensor, 0, sizeof(*tensor));
}

/*===--- Writing ----------------------------------------------------------===*/

/* Whether a tensor's strides are NULL or row-major contiguous. */
static inline int npy_is_contiguous(const tsmlir_tensor *t) {
  int64_t expected = 1;
  if (!t->strides)
    return 1;
  for (int32_t d = t->rank - 1; d >= 0; --d) {
    if (t->sizes[d] == 0)
      return 1;
    if (t->sizes[d] != 1 && t->strides[d] != expected)
      return 0;
    expected *= t->sizes[d];
  }
  return 1;
}

/* The header dict, padded with spaces and a newline so that the data starts
   at a multiple of 64 bytes; malloc'ed. */
static inline char *npy_format_header(const tsmlir_tensor *t,
                                      const npy_dtype_entry *entry,
                                      size_t preamble, size_t *length) {
  size_t capacity = 128 + (size_t)t->rank * 24;
  char *text = (char *)malloc(capacity);
  if (!text)
    return NULL;
  size_t n = (size_t)snprintf(text, capacity,
                              "{'descr': '%c%s', 'fortran_order': False, "
                              "'shape': (",
                              entry->size == 1 ? '|' : '<', entry->descr);
  for (int32_t d = 0; d < t->rank; ++d)
    n += (size_t)snprintf(text + n, capacity - n, "%s%lld", d ? ", " : "",
                          (long long)t->sizes[d]);
  n += (size_t)snprintf(text + n, capacity - n, "%s), }",
                        t->rank == 1 ? "," : "");
  size_t total = (preamble + n + 1 + 63) / 64 * 64;
  char *padded = (char *)realloc(text, total - preamble + 1);
  if (!padded) {
    free(text);
    return NULL;
  }
  memset(padded + n, ' ', total - preamble - n - 1);
  padded[total - preamble - 1] = '\n';
  padded[total - preamble] = '\0';
  *length = total - preamble;
  return padded;
}

/* Writes a contiguous tensor to `path` (format version 1: a tensor's header
   is far below its 64 KiB limit). Returns 0, or -1 with a message in
   `error`. */
static inline int npy_write(const char *path, const tsmlir_tensor *tensor,
                            char *error, size_t size) {
  const npy_dtype_entry *entry = npy_find_dtype(tensor->dtype);
  if (!entry)
    return npy_fail(error, size, path, "dtype %d cannot be written",
                    (int)tensor->dtype);
  if (tensor->rank < 0 || tensor->rank > NPY_MAX_RANK ||
      (tensor->rank > 0 && !tensor->sizes))
    return npy_fail(error, size, path,
                    "the tensor's rank or sizes are invalid");
  int64_t numel;
  size_t bytes;
  if (npy_sizes(tensor->rank, tensor->sizes, entry->size, &numel, &bytes) != 0)
    return npy_fail(error, size, path, "the tensor's sizes are invalid");
  if (!npy_is_contiguous(tensor))
    return npy_fail(error, size, path, "strided tensors cannot be written");
  if (bytes > 0 && !tensor->data)
    return npy_fail(error, size, path, "the tensor's data is NULL");
  if (!npy_little_endian_host())
    return npy_fail(error, size, path,
                    "this writer needs a little-endian host");

  size_t length;
  char *text = npy_format_header(tensor, entry, 10, &length);
  if (!text)
    return npy_fail(error, size, path, "out of memory");
  unsigned char preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  preamble[8] = (unsigned char)(length & 0xff);
  preamble[9] = (unsigned char)(length >> 8);

  FILE *file = fopen(path, "wb");
  if (!file) {
    free(text);
    return npy_fail(error, size, path, "cannot create: %s", strerror(errno));
  }
  int ok = fwrite(preamble, 1, sizeof(preamble), file) == sizeof(preamble) &&
           fwrite(text, 1, length, file) == length &&
           (bytes == 0 || fwrite(tensor->data, 1, bytes, file) == bytes);
  free(text);
  if (fclose(file) != 0)
    ok = 0;
  if (!ok)
    return npy_fail(error, size, path, "write failed: %s", strerror(errno));
  return 0;
}

/*===--- Values -----------------------------------------------------------===*/

/* An IEEE half-precision value as a double. */
static inline double npy_half_to_double(uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  double mantissa = h & 0x3ff;
  double value;
  if (exponent == 0)
    value = mantissa / 1024.0 / 16384.0; /* subnormal: m * 2^-24 */
  else if (exponent == 31)
    value = mantissa != 0 ? NAN : INFINITY;
  else
    value = (1.0 + mantissa / 1024.0) * ldexp(1.0, exponent - 15);
  return h & 0x8000 ? -value : value;
}

/* Element `index` (in C order) of a contiguous tensor, as a double. */
static inline double npy_element(const tsmlir_tensor *t, int64_t index) {
  const char *p = (const char *)t->data;
  const npy_dtype_entry *entry = npy_find_dtype(t->dtype);
  if (!entry)
    return NAN;
  p += (size_t)index * entry->size;
  switch (t->dtype) {
  case TSMLIR_BOOL:
  case TSMLIR_UINT8:
    return *(const uint8_t *)p;
  case TSMLIR_INT8:
    return *(const int8_t *)p;
  default:
    break;
  }
  union {
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint16_t f16;
    float f32;
    double f64;
  } v;
  memcpy(&v, p, entry->size);
  switch (t->dtype) {
  case TSMLIR_INT16:
    return v.i16;
  case TSMLIR_INT32:
    return v.i32;
  case TSMLIR_INT64:
    return (double)v.i64;
  case TSMLIR_FLOAT16:
    return npy_half_to_double(v.f16);
  case TSMLIR_FLOAT32:
    return v.f32;
  default:
    return v.f64;
  }
}

#endif /* TSMLIR_EXAMPLES_NPY_H */
