/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-compressed"
#include "config.h"

#include <gio/gio.h>
#include <lzma.h>
#include <string.h>

#include "ws-compressed.h"
#include "ws-reader-error.h"

/* Output grows by this much at a time. */
#define CHUNK ((gsize) 64 * 1024)

/**
 * ws_compressed_sniff:
 * @head: (array length=len): the first bytes of a file
 *
 * Returns: how the file is compressed, or %WS_COMPRESSION_NONE.
 */
WsCompression
ws_compressed_sniff (const void *head, gsize len)
{
  static const guint8 xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
  const guint8 *bytes = head;

  if (len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b)
    return WS_COMPRESSION_GZIP;
  if (len >= sizeof xz_magic && memcmp (bytes, xz_magic, sizeof xz_magic) == 0)
    return WS_COMPRESSION_XZ;
  return WS_COMPRESSION_NONE;
}

/**
 * ws_compression_to_string:
 *
 * Returns: (transfer none): "gzip", "xz" or "none".
 */
const char *
ws_compression_to_string (WsCompression compression)
{
  switch (compression)
    {
      case WS_COMPRESSION_GZIP:
        return "gzip";
      case WS_COMPRESSION_XZ:
        return "xz";
      case WS_COMPRESSION_NONE:
      default:
        return "none";
    }
}

static gboolean
too_large (const char *path, gsize max_out, GError **error)
{
  g_autofree char *limit = g_format_size_full (max_out, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_TOO_LARGE,
               "%s: decompresses to more than %s, the most a CPU profile may take", path, limit);
  return FALSE;
}

static gboolean
inflate_gzip (const char *path, const guint8 *data, gsize len, gsize max_out, gboolean partial,
              GByteArray *out, GError **error)
{
  g_autoptr (GZlibDecompressor) decompressor =
    g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  gsize in_done = 0;

  for (;;)
    {
      g_autoptr (GError) local = NULL;
      gsize read = 0, written = 0, room;
      GConverterResult result;

      if (out->len >= max_out)
        return partial ? TRUE : too_large (path, max_out, error);
      room = MIN (CHUNK, max_out - out->len);
      g_byte_array_set_size (out, out->len + (guint) room);
      result = g_converter_convert (G_CONVERTER (decompressor), data + in_done, len - in_done,
                                    out->data + out->len - room, room, G_CONVERTER_INPUT_AT_END,
                                    &read, &written, &local);
      g_byte_array_set_size (out, out->len - (guint) (room - written));
      in_done += read;
      if (result == G_CONVERTER_FINISHED)
        return TRUE;
      if (result == G_CONVERTER_ERROR)
        {
          /* A head cut short ends mid-stream: what came out is enough. */
          if (partial && out->len > 0)
            return TRUE;
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                       "%s: not a valid gzip stream (%s)", path, local->message);
          return FALSE;
        }
    }
}

static gboolean
inflate_xz (const char *path, const guint8 *data, gsize len, gsize max_out, gboolean partial,
            GByteArray *out, GError **error)
{
  lzma_stream stream = LZMA_STREAM_INIT;
  lzma_ret ret;

  /* 256 MiB of dictionary at most: xz -9 needs 64 MiB. */
  ret = lzma_stream_decoder (&stream, (guint64) 256 << 20, LZMA_CONCATENATED);
  if (ret != LZMA_OK)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FAILED,
                   "%s: cannot start the xz decoder (liblzma error %d)", path, (int) ret);
      return FALSE;
    }
  stream.next_in = data;
  stream.avail_in = len;
  for (;;)
    {
      gsize room;

      if (out->len >= max_out)
        {
          lzma_end (&stream);
          return partial ? TRUE : too_large (path, max_out, error);
        }
      room = MIN (CHUNK, max_out - out->len);
      g_byte_array_set_size (out, out->len + (guint) room);
      stream.next_out = out->data + out->len - room;
      stream.avail_out = room;
      ret = lzma_code (&stream, LZMA_FINISH);
      g_byte_array_set_size (out, out->len - (guint) stream.avail_out);
      if (ret == LZMA_STREAM_END)
        break;
      if (ret != LZMA_OK)
        {
          lzma_end (&stream);
          if (partial && out->len > 0)
            return TRUE;
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_CORRUPT,
                       "%s: not a valid xz stream (liblzma error %d)", path, (int) ret);
          return FALSE;
        }
    }
  lzma_end (&stream);
  return TRUE;
}

/**
 * ws_compressed_inflate:
 * @path: the file, for messages
 * @data: (array length=len): compressed bytes
 * @max_out: the most bytes the result may have
 * @partial: %TRUE when @data is the head of a file: the result is the
 *   first bytes it gives, up to @max_out, and a stream cut short is not an
 *   error
 * @out_len: (out): the length of the result, without its added NUL
 *
 * Decompresses gzip (GIO's #GZlibDecompressor) or xz (liblzma), bounded by
 * @max_out so that a small file cannot take all memory.
 *
 * Returns: (transfer full): the bytes, NUL-terminated, or %NULL with
 * @error set to one line naming @path.
 */
char *
ws_compressed_inflate (const char *path, WsCompression compression, const void *data, gsize len,
                       gsize max_out, gboolean partial, gsize *out_len, GError **error)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  gboolean ok;

  g_return_val_if_fail (compression != WS_COMPRESSION_NONE, NULL);
  g_return_val_if_fail (max_out < G_MAXUINT - CHUNK, NULL);

  if (compression == WS_COMPRESSION_GZIP)
    ok = inflate_gzip (path, data, len, max_out, partial, out, error);
  else
    ok = inflate_xz (path, data, len, max_out, partial, out, error);
  if (!ok)
    return NULL;
  *out_len = out->len;
  g_byte_array_append (out, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&out), FALSE);
}
