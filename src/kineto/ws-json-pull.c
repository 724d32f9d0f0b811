/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-json-pull"
#include "config.h"

#include <string.h>

#include "ws-json-pull.h"
#include "ws-reader-error.h"

#define BUFFER_BYTES 65536

/* The longest string a token may hold: kernel names run to a few KiB. */
#define MAX_STRING_BYTES ((gsize) 16 << 20)

/* The longest number a token may hold. */
#define MAX_NUMBER_BYTES 64

/* Classes of bytes, so that the scans test one table entry per byte. */
enum
{
  CLASS_SPACE = 1 << 0,  /* ' ', '\n', '\r', '\t' */
  CLASS_PLAIN = 1 << 1,  /* a byte of a string copied as it is */
  CLASS_NUMBER = 1 << 2, /* a byte a number's text may hold */
};

static guint8 byte_class[256];

/* Eight bytes at a time: each byte's top bit set where it is @c, or is
 * below @c (@c at most 0x80), exactly (no carry crosses a byte). */
#define ONES G_GUINT64_CONSTANT (0x0101010101010101)
#define LOW7 G_GUINT64_CONSTANT (0x7f7f7f7f7f7f7f7f)
#define HIGH G_GUINT64_CONSTANT (0x8080808080808080)

static inline guint64
load_word (const guint8 *p)
{
  guint64 x;

  memcpy (&x, p, sizeof x);
  return GUINT64_FROM_LE (x);
}

static inline guint64
bytes_equal (guint64 x, guint8 c)
{
  guint64 y = x ^ (ONES * c);

  return ~(((y & LOW7) + LOW7) | y) & HIGH;
}

static inline guint64
bytes_below (guint64 x, guint8 c)
{
  return ~(((x & LOW7) + ONES * (0x80 - c)) | x) & HIGH;
}

/* The first byte of @p whose top bit @mask sets (@mask not 0). */
static inline gsize
first_byte (guint64 mask)
{
  return (gsize) __builtin_ctzll (mask) >> 3;
}

/* The first byte from @p on that is not white space, or @stop. */
static inline const guint8 *
scan_space (const guint8 *p, const guint8 *stop)
{
  /* None, or one space (", "), most often. */
  if (p < stop && !(byte_class[*p] & CLASS_SPACE))
    return p;
  if (p + 1 < stop && !(byte_class[p[1]] & CLASS_SPACE))
    return p + 1;
  /* Indentation: runs of spaces after a newline. */
  while (p + 8 <= stop)
    {
      guint64 x = load_word (p);
      guint64 other = ~(bytes_equal (x, ' ') | bytes_equal (x, '\n')) & HIGH;

      if (other != 0)
        {
          p += first_byte (other);
          break;
        }
      p += 8;
    }
  while (p < stop && (byte_class[*p] & CLASS_SPACE))
    p++;
  return p;
}

/* The closing quote of a string whose body begins at @p, where it is in
 * the buffer with no escape or control byte before it; else %NULL. */
static inline const guint8 *
scan_plain_string (const guint8 *p, const guint8 *stop)
{
  while (p + 8 <= stop)
    {
      guint64 x = load_word (p);
      guint64 special = bytes_equal (x, '"') | bytes_equal (x, '\\') | bytes_below (x, 0x20);

      if (special != 0)
        {
          p += first_byte (special);
          return *p == '"' ? p : NULL;
        }
      p += 8;
    }
  while (p < stop && (byte_class[*p] & CLASS_PLAIN))
    p++;
  return p < stop && *p == '"' ? p : NULL;
}

static void
init_byte_class (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
  for (guint c = 0x20; c < 256; c++)
    if (c != '"' && c != '\\')
      byte_class[c] |= CLASS_PLAIN;
  for (const char *s = " \n\r\t"; *s != '\0'; s++)
    byte_class[(guint8) *s] |= CLASS_SPACE;
  for (const char *s = "0123456789+-.eE"; *s != '\0'; s++)
    byte_class[(guint8) *s] |= CLASS_NUMBER;
  g_once_init_leave (&done, 1);
}

/* What may come next, by where the tokenizer stands. */
typedef enum
{
  WANT_VALUE,          /* the document's value, an array element or a member's value */
  WANT_VALUE_OR_CLOSE, /* just after '[' */
  WANT_KEY,            /* after ',' in an object */
  WANT_KEY_OR_CLOSE,   /* just after '{' */
  WANT_COMMA_OR_CLOSE, /* after a value inside a container */
  WANT_END,            /* after the document's value */
} Want;

struct _WsJsonPull
{
  GInputStream *stream;
  char *label; /* "trace.json: Kineto trace", the start of every error */
  guint max_depth;

  guint8 buffer[BUFFER_BYTES];
  gsize pos;
  gsize len;
  guint64 consumed; /* bytes before @buffer */
  gboolean eof;

  guint8 *stack; /* '{' or '[' per open container */
  guint depth;
  guint stack_size;
  Want want;

  /* The last key, string or number: in @buffer itself where it lies whole
   * in it and needs no unescaping (its closing quote overwritten by a
   * NUL), in @number for a number, else unescaped into @unescaped. */
  const char *text;
  gsize text_len;
  GString *unescaped;
  char number[MAX_NUMBER_BYTES + 1];
};

/**
 * ws_json_pull_new:
 * @stream: (transfer none): read from its current position
 * @label: the start of every error message ("FILE: Kineto trace")
 * @max_depth: the deepest nesting of arrays and objects allowed
 *
 * Returns: (transfer full): a tokenizer of @stream
 */
WsJsonPull *
ws_json_pull_new (GInputStream *stream, const char *label, guint max_depth)
{
  WsJsonPull *self = g_new0 (WsJsonPull, 1);

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  self->stream = g_object_ref (stream);
  self->label = g_strdup (label);
  self->max_depth = max_depth;
  init_byte_class ();
  self->stack_size = MAX (MIN (max_depth, 64), 1);
  self->stack = g_malloc (self->stack_size);
  self->unescaped = g_string_sized_new (256);
  self->text = self->unescaped->str;
  self->want = WANT_VALUE;
  return self;
}

/**
 * ws_json_pull_fork:
 * @self: a tokenizer inside an array
 * @stream: (transfer none): the same document, read from byte @offset on
 * @at_element: @offset is where an element of that array begins (after
 *   its ','), not where @self stands
 *
 * A tokenizer that stands in the containers @self stands in, reading
 * @stream; its offsets and errors count from the document's start.  What
 * several threads reading one array in pieces start from
 * (ws-kineto-parallel.c).
 *
 * Returns: (transfer full): the new tokenizer
 */
WsJsonPull *
ws_json_pull_fork (const WsJsonPull *self, GInputStream *stream, guint64 offset,
                   gboolean at_element)
{
  WsJsonPull *fork = ws_json_pull_new (stream, self->label, self->max_depth);

  if (self->depth > fork->stack_size)
    {
      fork->stack_size = self->stack_size;
      fork->stack = g_realloc (fork->stack, fork->stack_size);
    }
  memcpy (fork->stack, self->stack, self->depth);
  fork->depth = self->depth;
  fork->want = at_element ? WANT_VALUE : self->want;
  fork->consumed = offset;
  return fork;
}

void
ws_json_pull_free (WsJsonPull *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->stream);
  g_free (self->label);
  g_free (self->stack);
  g_string_free (self->unescaped, TRUE);
  g_free (self);
}

/**
 * ws_json_pull_fail:
 *
 * Sets @error to one line: the label, the problem, the byte where the
 * tokenizer stands.
 *
 * Returns: %FALSE
 */
gboolean
ws_json_pull_fail (WsJsonPull *self, GError **error, const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  if (error != NULL && *error == NULL)
    g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                 "%s: %s (at byte %" G_GUINT64_FORMAT ")", self->label, what,
                 ws_json_pull_offset (self));
  return FALSE;
}

static gboolean
truncated (WsJsonPull *self, GError **error)
{
  if (error != NULL && *error == NULL)
    g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TRUNCATED,
                 "%s: the JSON ends early, after %" G_GUINT64_FORMAT
                 " bytes (a truncated or unfinished file)",
                 self->label, ws_json_pull_offset (self));
  return FALSE;
}

/* Refills the buffer; FALSE at the end of the stream or on an error. */
static gboolean
refill (WsJsonPull *self, GError **error)
{
  g_autoptr (GError) local = NULL;
  gssize got;

  if (self->eof)
    return FALSE;
  self->consumed += self->len;
  self->pos = self->len = 0;
  got = g_input_stream_read (self->stream, self->buffer, sizeof self->buffer, NULL, &local);
  if (got < 0 && g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    {
      /* GZlibDecompressor's word for a gzip stream cut short. */
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TRUNCATED,
                   "%s: the compressed data ends early, after %" G_GUINT64_FORMAT
                   " bytes of JSON (a truncated file)",
                   self->label, self->consumed);
      self->eof = TRUE;
      return FALSE;
    }
  if (got < 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT, "%s: %s", self->label,
                   local->message);
      self->eof = TRUE;
      return FALSE;
    }
  if (got == 0)
    {
      self->eof = TRUE;
      return FALSE;
    }
  self->len = (gsize) got;
  return TRUE;
}

/* The next byte without taking it, or -1 at the end (or on a read error). */
static inline int
peek (WsJsonPull *self, GError **error)
{
  if (self->pos >= self->len && !refill (self, error))
    return -1;
  return self->buffer[self->pos];
}

static inline int
take (WsJsonPull *self, GError **error)
{
  int c = peek (self, error);

  if (c >= 0)
    self->pos++;
  return c;
}

/* The next byte that is not white space, without taking it; -1 at the end. */
static inline int
skip_space (WsJsonPull *self, GError **error)
{
  for (;;)
    {
      const guint8 *stop = self->buffer + self->len;
      const guint8 *p = scan_space (self->buffer + self->pos, stop);

      self->pos = p - self->buffer;
      if (p < stop)
        return *p;
      if (!refill (self, error))
        return -1;
    }
}

static int
hex_digit (int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (WsJsonPull *self, gunichar *out, GError **error)
{
  *out = 0;
  for (int i = 0; i < 4; i++)
    {
      int c = take (self, error);
      int d;

      if (c < 0)
        return truncated (self, error);
      d = hex_digit (c);
      if (d < 0)
        return ws_json_pull_fail (self, error, "a \\u escape without four hex digits");
      *out = (*out << 4) | (gunichar) d;
    }
  return TRUE;
}

/* \uXXXX, with a surrogate pair joined; a lone surrogate becomes U+FFFD. */
static gboolean
read_unicode_escape (WsJsonPull *self, GError **error)
{
  gunichar u, low;

  if (!read_hex4 (self, &u, error))
    return FALSE;
  if (u >= 0xd800 && u < 0xdc00 && peek (self, error) == '\\')
    {
      self->pos++;
      if (take (self, error) != 'u')
        return ws_json_pull_fail (self, error, "a high surrogate without its low half");
      if (!read_hex4 (self, &low, error))
        return FALSE;
      u =
        (low >= 0xdc00 && low < 0xe000) ? 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00) : 0xfffd;
    }
  else if (u >= 0xd800 && u < 0xe000)
    u = 0xfffd;
  g_string_append_unichar (self->unescaped, u);
  return TRUE;
}

/* A string's body, unescaped into @unescaped, read in runs of plain
 * bytes: what read_string() does where its fast path cannot. */
static gboolean
read_string_unescaped (WsJsonPull *self, GError **error)
{
  g_string_truncate (self->unescaped, 0);
  for (;;)
    {
      const guint8 *start = self->buffer + self->pos;
      const guint8 *stop = self->buffer + self->len;
      const guint8 *p = start;
      int c;

      /* Runs of plain bytes are copied at once. */
      while (p < stop && *p != '"' && *p != '\\' && *p >= 0x20)
        p++;
      g_string_append_len (self->unescaped, (const char *) start, p - start);
      self->pos += p - start;
      if (self->unescaped->len > MAX_STRING_BYTES)
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
                       "%s: a string longer than %" G_GSIZE_FORMAT
                       " MiB (at byte %" G_GUINT64_FORMAT ")",
                       self->label, MAX_STRING_BYTES >> 20, ws_json_pull_offset (self));
          return FALSE;
        }
      c = take (self, error);
      if (c < 0)
        return truncated (self, error);
      if (c == '"')
        return TRUE;
      if (c != '\\' && c >= 0x20)
        {
          /* The run of plain bytes went on past the buffer's end. */
          g_string_append_c (self->unescaped, (char) c);
          continue;
        }
      if (c < 0x20)
        return ws_json_pull_fail (self, error, "a control character inside a string");
      c = take (self, error);
      switch (c)
        {
          case -1:
            return truncated (self, error);
          case '"':
          case '\\':
          case '/':
            g_string_append_c (self->unescaped, (char) c);
            break;
          case 'b':
            g_string_append_c (self->unescaped, '\b');
            break;
          case 'f':
            g_string_append_c (self->unescaped, '\f');
            break;
          case 'n':
            g_string_append_c (self->unescaped, '\n');
            break;
          case 'r':
            g_string_append_c (self->unescaped, '\r');
            break;
          case 't':
            g_string_append_c (self->unescaped, '\t');
            break;
          case 'u':
            if (!read_unicode_escape (self, error))
              return FALSE;
            break;
          default:
            return ws_json_pull_fail (self, error, "an unknown escape \\%c in a string", c);
        }
    }
}

/* A string's body after its opening quote: in place where it ends in
 * the buffer without an escape, else unescaped into @unescaped. */
static inline gboolean
read_string (WsJsonPull *self, GError **error)
{
  guint8 *start = self->buffer + self->pos;
  guint8 *p = (guint8 *) scan_plain_string (start, self->buffer + self->len);

  if (p != NULL)
    {
      *p = '\0';
      self->text = (const char *) start;
      self->text_len = p - start;
      self->pos = p + 1 - self->buffer;
      return TRUE;
    }
  if (!read_string_unescaped (self, error))
    return FALSE;
  /* Up to a NUL that "\u0000" wrote: the text as a C string. */
  self->text = self->unescaped->str;
  self->text_len = strlen (self->unescaped->str);
  return TRUE;
}

/* @text into @unescaped, where it lies in the buffer, before a refill
 * overwrites it. */
static void
keep_text (WsJsonPull *self)
{
  if (self->text == self->unescaped->str || self->text == self->number)
    return;
  g_string_truncate (self->unescaped, 0);
  g_string_append_len (self->unescaped, self->text, self->text_len);
  self->text = self->unescaped->str;
}

/* A number as written, copied into @number; its form is checked by
 * whoever converts it. */
static gboolean
read_number (WsJsonPull *self, GError **error)
{
  gsize n = 0;

  for (;;)
    {
      const guint8 *start = self->buffer + self->pos;
      const guint8 *stop = self->buffer + self->len;
      const guint8 *p = start;

      while (p < stop && (byte_class[*p] & CLASS_NUMBER) && n + (p - start) < MAX_NUMBER_BYTES)
        p++;
      memcpy (self->number + n, start, p - start);
      n += p - start;
      self->pos = p - self->buffer;
      if (p < stop && (byte_class[*p] & CLASS_NUMBER))
        return ws_json_pull_fail (self, error, "a number of more than 64 characters");
      if (p < stop)
        break;
      if (!refill (self, error))
        {
          if (error != NULL && *error != NULL)
            return FALSE;
          break;
        }
    }
  self->number[n] = '\0';
  self->text = self->number;
  self->text_len = n;
  return TRUE;
}

/* As skip_space(), after a key in the buffer: kept before a refill. */
static int
skip_space_keeping_text (WsJsonPull *self, GError **error)
{
  const guint8 *stop = self->buffer + self->len;
  const guint8 *p = scan_space (self->buffer + self->pos, stop);

  self->pos = p - self->buffer;
  if (p < stop)
    return *p;
  keep_text (self);
  return skip_space (self, error);
}

static gboolean
read_literal (WsJsonPull *self, const char *word, GError **error)
{
  for (const char *w = word; *w != '\0'; w++)
    {
      int c = take (self, error);

      if (c < 0)
        return truncated (self, error);
      if (c != *w)
        return ws_json_pull_fail (self, error, "expected %s", word);
    }
  return TRUE;
}

static WsJsonToken
open_container (WsJsonPull *self, char bracket, GError **error)
{
  if (self->depth >= self->max_depth)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
                   "%s: JSON nested deeper than %u levels (at byte %" G_GUINT64_FORMAT ")",
                   self->label, self->max_depth, ws_json_pull_offset (self));
      return WS_JSON_ERROR;
    }
  if (self->depth == self->stack_size)
    {
      self->stack_size = MIN (self->stack_size * 2, self->max_depth);
      self->stack = g_realloc (self->stack, self->stack_size);
    }
  self->stack[self->depth++] = (guint8) bracket;
  self->want = bracket == '{' ? WANT_KEY_OR_CLOSE : WANT_VALUE_OR_CLOSE;
  return bracket == '{' ? WS_JSON_BEGIN_OBJECT : WS_JSON_BEGIN_ARRAY;
}

static inline WsJsonToken
close_container (WsJsonPull *self, int c, GError **error)
{
  char open = self->depth > 0 ? (char) self->stack[self->depth - 1] : 0;

  if ((c == '}' && open != '{') || (c == ']' && open != '['))
    {
      ws_json_pull_fail (self, error, "a '%c' that closes nothing open", c);
      return WS_JSON_ERROR;
    }
  self->pos++;
  self->depth--;
  self->want = self->depth == 0 ? WANT_END : WANT_COMMA_OR_CLOSE;
  return c == '}' ? WS_JSON_END_OBJECT : WS_JSON_END_ARRAY;
}

static inline WsJsonToken
scalar_done (WsJsonPull *self, WsJsonToken token)
{
  self->want = self->depth == 0 ? WANT_END : WANT_COMMA_OR_CLOSE;
  return token;
}

static inline WsJsonToken
read_value (WsJsonPull *self, int c, GError **error)
{
  switch (c)
    {
      case '{':
      case '[':
        self->pos++;
        return open_container (self, (char) c, error);
      case '"':
        self->pos++;
        return read_string (self, error) ? scalar_done (self, WS_JSON_STRING) : WS_JSON_ERROR;
      case 't':
        return read_literal (self, "true", error) ? scalar_done (self, WS_JSON_TRUE)
                                                  : WS_JSON_ERROR;
      case 'f':
        return read_literal (self, "false", error) ? scalar_done (self, WS_JSON_FALSE)
                                                   : WS_JSON_ERROR;
      case 'n':
        return read_literal (self, "null", error) ? scalar_done (self, WS_JSON_NULL)
                                                  : WS_JSON_ERROR;
      default:
        if (c == '-' || g_ascii_isdigit (c))
          return read_number (self, error) ? scalar_done (self, WS_JSON_NUMBER) : WS_JSON_ERROR;
        ws_json_pull_fail (self, error, "expected a value, found '%c'", c);
        return WS_JSON_ERROR;
    }
}

static inline WsJsonToken
read_key (WsJsonPull *self, int c, GError **error)
{
  if (c != '"')
    {
      ws_json_pull_fail (self, error, "expected a member's name in quotes, found '%c'", c);
      return WS_JSON_ERROR;
    }
  self->pos++;
  if (!read_string (self, error))
    return WS_JSON_ERROR;
  c = skip_space_keeping_text (self, error);
  if (c < 0)
    return truncated (self, error), WS_JSON_ERROR;
  if (c != ':')
    {
      ws_json_pull_fail (self, error, "expected ':' after a member's name");
      return WS_JSON_ERROR;
    }
  self->pos++;
  self->want = WANT_VALUE;
  return WS_JSON_KEY;
}

/**
 * ws_json_pull_next:
 *
 * Returns: the next token; %WS_JSON_ERROR with @error set on malformed or
 *   truncated input, a nesting deeper than the bound or a read error;
 *   %WS_JSON_END once the document's value has been read
 */
/* What ws_json_pull_next() returns where no byte is left (or a read
 * failed). */
static WsJsonToken
no_more (WsJsonPull *self, GError **error)
{
  if (error != NULL && *error != NULL)
    return WS_JSON_ERROR;
  if (self->want == WANT_END)
    return WS_JSON_END;
  truncated (self, error);
  return WS_JSON_ERROR;
}

/* Each state skips the white space before its token itself: the lengths
 * of the runs differ by state (one space after a ':', often none before
 * a ','), and each copy of the scan's branch learns its own. */
WsJsonToken
ws_json_pull_next (WsJsonPull *self, GError **error)
{
  int c;

  switch (self->want)
    {
      case WANT_END:
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        ws_json_pull_fail (self, error, "more after the end of the JSON document");
        return WS_JSON_ERROR;
      case WANT_VALUE_OR_CLOSE:
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        if (c == ']')
          return close_container (self, c, error);
        return read_value (self, c, error);
      case WANT_VALUE:
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        return read_value (self, c, error);
      case WANT_KEY_OR_CLOSE:
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        if (c == '}')
          return close_container (self, c, error);
        return read_key (self, c, error);
      case WANT_KEY:
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        return read_key (self, c, error);
      case WANT_COMMA_OR_CLOSE:
      default:
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        if (c == '}' || c == ']')
          return close_container (self, c, error);
        if (c != ',')
          {
            ws_json_pull_fail (self, error, "expected ',' or the end of an %s",
                               self->stack[self->depth - 1] == '{' ? "object" : "array");
            return WS_JSON_ERROR;
          }
        self->pos++;
        if (self->stack[self->depth - 1] == '{')
          {
            self->want = WANT_KEY;
            if ((c = skip_space (self, error)) < 0)
              return no_more (self, error);
            return read_key (self, c, error);
          }
        self->want = WANT_VALUE;
        if ((c = skip_space (self, error)) < 0)
          return no_more (self, error);
        return read_value (self, c, error);
    }
}

/* Reads past tokens while the containers open at @depth and deeper stay
 * open, as ws_json_pull_next() would but without their texts: only the
 * tokens that lie whole in the buffer and need nothing more than a scan
 * (no refill, escape, literal, deeper stack or error).  It stops before
 * any other, for ws_json_pull_next() to read. */
static void
skip_in_buffer (WsJsonPull *self, guint depth)
{
  const guint8 *p = self->buffer + self->pos;
  const guint8 *stop = self->buffer + self->len;
  Want want = self->want;

  while (self->depth >= depth)
    {
      const guint8 *q = scan_space (p, stop);
      const guint8 *end;
      int c;

      if (q == stop)
        break;
      c = *q;
      switch (want)
        {
          case WANT_COMMA_OR_CLOSE:
            if (c == ',')
              {
                want = self->stack[self->depth - 1] == '{' ? WANT_KEY : WANT_VALUE;
                p = q + 1;
                continue;
              }
            break; /* a close */
          case WANT_KEY_OR_CLOSE:
          case WANT_KEY:
            if (c == '}' && want == WANT_KEY_OR_CLOSE)
              break;
            if (c != '"' || (end = scan_plain_string (q + 1, stop)) == NULL)
              goto out;
            end = scan_space (end + 1, stop);
            if (end == stop || *end != ':')
              goto out;
            p = end + 1;
            want = WANT_VALUE;
            continue;
          case WANT_VALUE_OR_CLOSE:
          case WANT_VALUE:
            if (c == ']' && want == WANT_VALUE_OR_CLOSE)
              break;
            if (c == '"')
              {
                if ((end = scan_plain_string (q + 1, stop)) == NULL)
                  goto out;
                p = end + 1;
              }
            else if (c == '-' || g_ascii_isdigit (c))
              {
                for (end = q;
                     end < stop && (byte_class[*end] & CLASS_NUMBER) && end - q <= MAX_NUMBER_BYTES;
                     end++)
                  ;
                if (end == stop || end - q > MAX_NUMBER_BYTES)
                  goto out;
                p = end;
              }
            else if ((c == '{' || c == '[') && self->depth < self->max_depth &&
                     self->depth < self->stack_size)
              {
                self->stack[self->depth++] = (guint8) c;
                want = c == '{' ? WANT_KEY_OR_CLOSE : WANT_VALUE_OR_CLOSE;
                p = q + 1;
                continue;
              }
            else
              goto out;
            want = WANT_COMMA_OR_CLOSE;
            continue;
          case WANT_END:
          default:
            goto out;
        }
      /* A '}' or ']', which must close the container on top. */
      if (self->depth == 0 || (c != '}' && c != ']') ||
          self->stack[self->depth - 1] != (c == '}' ? '{' : '['))
        goto out;
      self->depth--;
      want = self->depth == 0 ? WANT_END : WANT_COMMA_OR_CLOSE;
      p = q + 1;
    }
out:
  self->pos = p - self->buffer;
  self->want = want;
}

/**
 * ws_json_pull_skip:
 * @token: the token just read: a value's first
 *
 * Reads past the rest of the value that @token began (nothing for a
 * scalar).
 */
gboolean
ws_json_pull_skip (WsJsonPull *self, WsJsonToken token, GError **error)
{
  guint depth;

  if (token == WS_JSON_ERROR)
    return FALSE;
  if (token != WS_JSON_BEGIN_OBJECT && token != WS_JSON_BEGIN_ARRAY)
    return TRUE;
  depth = self->depth;
  for (;;)
    {
      WsJsonToken t;

      skip_in_buffer (self, depth);
      if (self->depth < depth)
        return TRUE;
      t = ws_json_pull_next (self, error);
      if (t == WS_JSON_ERROR)
        return FALSE;
      if (t == WS_JSON_END)
        return truncated (self, error);
      if (self->depth < depth)
        return TRUE;
    }
}

/* The last key, string or number read (transfer none: valid until the
 * next token), NUL-terminated; its length is that of the C string, up to
 * a NUL that an escape wrote. */
const char *
ws_json_pull_text (const WsJsonPull *self)
{
  return self->text;
}

gsize
ws_json_pull_text_len (const WsJsonPull *self)
{
  return self->text_len;
}

/* How many containers are open. */
guint
ws_json_pull_depth (const WsJsonPull *self)
{
  return self->depth;
}

/* The byte of the input (decompressed) the tokenizer stands at. */
guint64
ws_json_pull_offset (const WsJsonPull *self)
{
  return self->consumed + self->pos;
}
