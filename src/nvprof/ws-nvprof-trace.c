/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nvprof-trace"
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-csv.h"
#include "ws-demangle.h"
#include "ws-nvprof-trace.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sort.h"

/* `nvprof --print-gpu-trace` (CUDA ≤ 10), as text or `--csv`: one row per
 * kernel or copy, with its start, duration, launch configuration, size,
 * device, context, stream and name ("name(args) [correlation]").  The CSV
 * form has a units row under the header (`ms,ms,,…,B,B,B,MB/s`); the text
 * form right-aligns each value under its header's last character and
 * writes its unit into it ("309.24ms", "8.0000KB"). */

#define MAX_BYTES (512u << 20)

enum
{
  C_START,
  C_DURATION,
  C_GRID_X,
  C_GRID_Y,
  C_GRID_Z,
  C_BLOCK_X,
  C_BLOCK_Y,
  C_BLOCK_Z,
  C_GRID,  /* text: "(32768 1 1)" */
  C_BLOCK, /* text: "(1024 1 1)" */
  C_REGS,
  C_SSMEM,
  C_DSMEM,
  C_SIZE,
  C_SRC,
  C_DST,
  C_DEVICE,
  C_STREAM,
  C_NAME,
  N_C
};

static const char *const headers[N_C][3] = {
  [C_START] = { "Start" },
  [C_DURATION] = { "Duration" },
  [C_GRID_X] = { "Grid X" },
  [C_GRID_Y] = { "Grid Y" },
  [C_GRID_Z] = { "Grid Z" },
  [C_BLOCK_X] = { "Block X" },
  [C_BLOCK_Y] = { "Block Y" },
  [C_BLOCK_Z] = { "Block Z" },
  [C_GRID] = { "Grid Size" },
  [C_BLOCK] = { "Block Size" },
  [C_REGS] = { "Registers Per Thread", "Regs*" },
  [C_SSMEM] = { "Static SMem", "SSMem*" },
  [C_DSMEM] = { "Dynamic SMem", "DSMem*" },
  [C_SIZE] = { "Size" },
  [C_SRC] = { "SrcMemType" },
  [C_DST] = { "DstMemType" },
  [C_DEVICE] = { "Device" },
  [C_STREAM] = { "Stream" },
  [C_NAME] = { "Name" },
};

typedef struct
{
  GArray *k_start, *k_end, *k_name, *k_short, *k_stream, *k_corr, *k_config;
  GArray *m_start, *m_end, *m_bytes, *m_kind, *m_src, *m_dst, *m_stream, *m_corr;
  GHashTable *names; /* demangled string id → short string id, + 1 */
  gsize skipped;     /* rows without a duration (Unified Memory page faults) */
} Builder;

/* A value with its unit written in (text) or in the units row (CSV):
 * times to ns, sizes to bytes (nvprof's KB is 1,024 B). */
static gboolean
parse_scaled (const char *cell, const char *unit_row, gboolean size, double *out)
{
  static const char *const time_units[] = { "ns", "us", "ms", "s" };
  static const double time_scales[] = { 1, 1e3, 1e6, 1e9 };
  static const char *const size_units[] = { "B", "KB", "MB", "GB" };
  static const double size_scales[] = { 1, 1024, 1048576, 1073741824 };
  char *end;
  double v = g_ascii_strtod (cell, &end);
  const char *unit;

  if (end == cell || !isfinite (v) || v < 0)
    return FALSE;
  unit = *end != '\0' ? end : (unit_row != NULL ? unit_row : "");
  for (gsize i = 0; i < 4; i++)
    if (strcmp (unit, size ? size_units[i] : time_units[i]) == 0)
      {
        *out = v * (size ? size_scales[i] : time_scales[i]);
        return TRUE;
      }
  return FALSE;
}

/* The units row names the start's and the duration's unit: one nvprof
 * writes, or the fault is the row's, not the first time read with it. */
static gboolean
check_time_units (char **units, const char *path, guint line, GError **error)
{
  static const int columns[] = { C_START, C_DURATION };
  static const char *const names[] = { "Start", "Duration" };

  for (gsize i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const char *unit = units[columns[i]];

      if (unit != NULL && unit[0] != '\0' && !g_str_equal (unit, "ns") &&
          !g_str_equal (unit, "us") && !g_str_equal (unit, "ms") && !g_str_equal (unit, "s"))
        {
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                       "%s: line %u: the unit of %s is “%s”, not one nvprof writes (ns, us, ms "
                       "or s)",
                       path, line, names[i], unit);
          return FALSE;
        }
    }
  return TRUE;
}

static guint32
parse_u32 (const char *cell)
{
  guint64 v = g_ascii_strtoull (cell, NULL, 10);

  return v > G_MAXUINT32 ? G_MAXUINT32 : (guint32) v;
}

/* "(32768 1 1)" */
static void
parse_dim3 (const char *cell, guint32 out[3])
{
  const char *p = cell + strspn (cell, "( ");

  for (int i = 0; i < 3; i++)
    {
      char *end;
      guint64 v = g_ascii_strtoull (p, &end, 10);

      out[i] = v > G_MAXUINT32 ? G_MAXUINT32 : (guint32) v;
      p = end + strspn (end, " ");
    }
}

static guint8
mem_kind (const char *text)
{
  for (guint k = 0; k < 8; k++)
    if (g_ascii_strcasecmp (text, ws_mem_kind_label (k)) == 0)
      return (guint8) k;
  return 255;
}

static guint8
memop_kind (const char *name)
{
  static const struct
  {
    const char *word;
    WsMemopKind kind;
  } kinds[] = { { "HtoD", WS_MEMOP_HTOD }, { "DtoH", WS_MEMOP_DTOH }, { "DtoD", WS_MEMOP_DTOD },
                { "HtoH", WS_MEMOP_HTOH }, { "PtoP", WS_MEMOP_PTOP }, { "HtoA", WS_MEMOP_HTOA },
                { "AtoH", WS_MEMOP_ATOH }, { "AtoA", WS_MEMOP_ATOA }, { "AtoD", WS_MEMOP_ATOD },
                { "DtoA", WS_MEMOP_DTOA } };

  if (strstr (name, "memset") != NULL)
    return WS_MEMOP_MEMSET;
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strstr (name, kinds[i].word) != NULL)
      return kinds[i].kind;
  return WS_MEMOP_UNKNOWN;
}

static guint32
intern_stream (WsRun *run, gint32 device, gint32 stream)
{
  WsStream key = { .device_id = device, .context_id = 0, .stream_id = stream };

  for (guint i = 0; i < run->streams->len; i++)
    {
      const WsStream *s = &g_array_index (run->streams, WsStream, i);

      if (s->device_id == device && s->stream_id == stream)
        return i;
    }
  g_array_append_val (run->streams, key);
  return run->streams->len - 1;
}

static guint32
intern_config (WsRun *run, const WsLaunchConfig *config)
{
  for (guint i = 0; i < run->configs->len; i++)
    if (memcmp (&g_array_index (run->configs, WsLaunchConfig, i), config, sizeof *config) == 0)
      return i;
  g_array_append_vals (run->configs, config, 1);
  return run->configs->len - 1;
}

/* "TITAN Xp (0)": the device id, and the GPU added to the run once. */
static gint32
intern_device (WsRun *run, const char *text)
{
  const char *open = strrchr (text, '(');
  gint32 id = open != NULL ? (gint32) g_ascii_strtoll (open + 1, NULL, 10) : 0;
  WsGpu gpu = { 0 };

  for (guint i = 0; i < run->prov.gpus->len; i++)
    if (g_array_index (run->prov.gpus, WsGpu, i).id == id)
      return id;
  gpu.id = id;
  gpu.name = open != NULL ? g_strstrip (g_strndup (text, (gsize) (open - text))) : g_strdup (text);
  g_array_append_val (run->prov.gpus, gpu);
  return id;
}

/* One row, its cells by column (NULL where the form has none). */
static gboolean
add_row (WsRun *run, Builder *b, char **cells, char **units, const char *path, guint line,
         GError **error)
{
  double start, duration;
  g_autofree char *name = NULL;
  guint32 corr = 0;
  gint32 device;
  guint32 stream;
  char *bracket;

  if (cells[C_START] == NULL || cells[C_NAME] == NULL || cells[C_DURATION] == NULL)
    return TRUE;
  if (!parse_scaled (cells[C_START], units[C_START], FALSE, &start))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: line %u: a start time that is not a time (“%s”)", path, line,
                   cells[C_START]);
      return FALSE;
    }
  if (!parse_scaled (cells[C_DURATION], units[C_DURATION], FALSE, &duration))
    {
      b->skipped++; /* "-": a Unified Memory page fault group, no duration */
      return TRUE;
    }
  name = g_strstrip (g_strdup (cells[C_NAME]));
  bracket = strrchr (name, '[');
  if (bracket != NULL && bracket > name && g_str_has_suffix (name, "]") &&
      g_ascii_isdigit (bracket[1]))
    {
      corr = parse_u32 (bracket + 1);
      *bracket = '\0';
      g_strchomp (name);
    }
  device = cells[C_DEVICE] != NULL ? intern_device (run, cells[C_DEVICE]) : 0;
  stream =
    intern_stream (run, device, cells[C_STREAM] != NULL ? (gint32) parse_u32 (cells[C_STREAM]) : 0);

  if (name[0] == '[')
    {
      double bytes = 0;
      guint64 b64;
      guint8 kind = memop_kind (name), src, dst;
      gint64 s = llround (start), e = llround (start + duration);

      if (cells[C_SIZE] != NULL)
        parse_scaled (cells[C_SIZE], units[C_SIZE], TRUE, &bytes);
      b64 = (guint64) llround (bytes);
      src = cells[C_SRC] != NULL ? mem_kind (cells[C_SRC]) : 255;
      dst = cells[C_DST] != NULL ? mem_kind (cells[C_DST]) : 255;
      g_array_append_val (b->m_start, s);
      g_array_append_val (b->m_end, e);
      g_array_append_val (b->m_bytes, b64);
      g_array_append_val (b->m_kind, kind);
      g_array_append_val (b->m_src, src);
      g_array_append_val (b->m_dst, dst);
      g_array_append_val (b->m_stream, stream);
      g_array_append_val (b->m_corr, corr);
    }
  else
    {
      WsLaunchConfig config = { 0 };
      gint64 s = llround (start), e = llround (start + duration);
      guint32 id = ws_string_table_intern (run->strings, name);
      guint32 short_id = GPOINTER_TO_UINT (g_hash_table_lookup (b->names, GUINT_TO_POINTER (id)));
      guint32 config_id;
      double smem = 0;

      if (short_id == 0)
        {
          g_autofree char *short_name = ws_demangle_short_name (name);

          short_id = ws_string_table_intern (run->strings, short_name) + 1;
          g_hash_table_insert (b->names, GUINT_TO_POINTER (id), GUINT_TO_POINTER (short_id));
        }
      short_id--;
      if (cells[C_GRID] != NULL)
        parse_dim3 (cells[C_GRID], config.grid);
      if (cells[C_BLOCK] != NULL)
        parse_dim3 (cells[C_BLOCK], config.block);
      for (int d = 0; d < 3; d++)
        {
          if (cells[C_GRID_X + d] != NULL)
            config.grid[d] = parse_u32 (cells[C_GRID_X + d]);
          if (cells[C_BLOCK_X + d] != NULL)
            config.block[d] = parse_u32 (cells[C_BLOCK_X + d]);
        }
      if (cells[C_REGS] != NULL)
        config.registers = parse_u32 (cells[C_REGS]);
      if (cells[C_SSMEM] != NULL && parse_scaled (cells[C_SSMEM], units[C_SSMEM], TRUE, &smem))
        config.static_smem = (guint32) MIN (smem, G_MAXUINT32);
      if (cells[C_DSMEM] != NULL && parse_scaled (cells[C_DSMEM], units[C_DSMEM], TRUE, &smem))
        config.dynamic_smem = (guint32) MIN (smem, G_MAXUINT32);
      config_id = intern_config (run, &config);
      g_array_append_val (b->k_start, s);
      g_array_append_val (b->k_end, e);
      g_array_append_val (b->k_name, id);
      g_array_append_val (b->k_short, short_id);
      g_array_append_val (b->k_stream, stream);
      g_array_append_val (b->k_corr, corr);
      g_array_append_val (b->k_config, config_id);
    }
  return TRUE;
}

static int
column_of (const char *header)
{
  for (int c = 0; c < N_C; c++)
    for (int k = 0; k < 3 && headers[c][k] != NULL; k++)
      if (strcmp (header, headers[c][k]) == 0)
        return c;
  return -1;
}

/* The text header: names separated by two spaces or more, each with the
 * column of its last character. */
static GPtrArray *
text_header (const char *line, GArray *ends, GArray *starts)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *p = line;

  while (*p != '\0')
    {
      const char *s = p + strspn (p, " "), *e = s;

      if (*s == '\0')
        break;
      while (*e != '\0' && !(e[0] == ' ' && (e[1] == ' ' || e[1] == '\0')))
        e++;
      g_ptr_array_add (names, g_strndup (s, (gsize) (e - s)));
      {
        int end = (int) (e - line) - 1, start = (int) (s - line);

        g_array_append_val (ends, end);
        g_array_append_val (starts, start);
      }
      p = e;
    }
  return names;
}

static char *
slice (const char *line, int from, int to)
{
  int len = (int) strlen (line);

  if (from >= len || to < from)
    return g_strdup ("");
  return g_strstrip (g_strndup (line + from, (gsize) (MIN (to, len - 1) - from + 1)));
}

static void
builder_init (Builder *b)
{
  b->k_start = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->k_end = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->k_name = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->k_short = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->k_stream = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->k_corr = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->k_config = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->m_start = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->m_end = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->m_bytes = g_array_new (FALSE, FALSE, sizeof (guint64));
  b->m_kind = g_array_new (FALSE, FALSE, sizeof (guint8));
  b->m_src = g_array_new (FALSE, FALSE, sizeof (guint8));
  b->m_dst = g_array_new (FALSE, FALSE, sizeof (guint8));
  b->m_stream = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->m_corr = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->names = g_hash_table_new (NULL, NULL);
}

/* Moves @array's data out, sorted by @order. */
static gpointer
take (GArray *array, gsize size, const guint32 *order, gsize n)
{
  gpointer data = g_array_free (array, FALSE);

  ws_sort_apply (data, size, order, n);
  return data;
}

static void
finish (WsRun *run, Builder *b)
{
  WsKernels *k = &run->kernels;
  WsMemops *m = &run->memops;
  g_autofree guint32 *korder = NULL, *morder = NULL;

  k->n = b->k_start->len;
  korder = ws_sort_order ((const gint64 *) b->k_start->data, NULL, k->n);
  k->columns = WS_KERNEL_COL_DEMANGLED | WS_KERNEL_COL_SHORT | WS_KERNEL_COL_LAUNCH;
  k->start = take (b->k_start, sizeof (gint64), korder, k->n);
  k->end = take (b->k_end, sizeof (gint64), korder, k->n);
  k->demangled = take (b->k_name, sizeof (guint32), korder, k->n);
  k->short_name = take (b->k_short, sizeof (guint32), korder, k->n);
  k->stream = take (b->k_stream, sizeof (guint32), korder, k->n);
  k->correlation = take (b->k_corr, sizeof (guint32), korder, k->n);
  k->config = take (b->k_config, sizeof (guint32), korder, k->n);
  k->mangled = g_new (guint32, k->n + 1);
  for (gsize i = 0; i < k->n; i++)
    k->mangled[i] = WS_STRING_NONE;

  m->n = b->m_start->len;
  morder = ws_sort_order ((const gint64 *) b->m_start->data, NULL, m->n);
  m->start = take (b->m_start, sizeof (gint64), morder, m->n);
  m->end = take (b->m_end, sizeof (gint64), morder, m->n);
  m->bytes = take (b->m_bytes, sizeof (guint64), morder, m->n);
  m->kind = take (b->m_kind, sizeof (guint8), morder, m->n);
  m->src_kind = take (b->m_src, sizeof (guint8), morder, m->n);
  m->dst_kind = take (b->m_dst, sizeof (guint8), morder, m->n);
  m->stream = take (b->m_stream, sizeof (guint32), morder, m->n);
  m->correlation = take (b->m_corr, sizeof (guint32), morder, m->n);
  g_hash_table_unref (b->names);
}

/**
 * ws_nvprof_trace_parse:
 *
 * Returns: (transfer full): a run of the trace's kernels and copies (times
 * from the start of profiling), or %NULL with @error set.
 */
WsRun *
ws_nvprof_trace_parse (const char *path, const char *text, gsize len, GError **error)
{
  g_autoptr (WsRun) run = ws_run_new ();
  g_autofree char *copy = g_strndup (text, len);
  g_auto (GStrv) lines = g_strsplit (copy, "\n", -1);
  int col[64];
  g_autofree char **units = g_new0 (char *, N_C);
  g_autoptr (GPtrArray) unit_cells = NULL;
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GArray) starts = g_array_new (FALSE, FALSE, sizeof (int));
  gboolean csv = FALSE, in_table = FALSE;
  guint n_cols = 0;
  Builder b = { 0 };

  builder_init (&b);
  for (guint l = 0; lines[l] != NULL; l++)
    {
      char *line = lines[l];
      char *cells[N_C] = { NULL };
      g_autoptr (GPtrArray) split = NULL;

      g_strchomp (line);
      if (!in_table)
        {
          if (strstr (line, "Start") == NULL || strstr (line, "Duration") == NULL)
            continue;
          in_table = TRUE;
          csv = line[0] == '"';
          if (csv)
            {
              g_autoptr (WsCsvReader) reader = ws_csv_reader_new (path, line, strlen (line), ',');
              g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

              if (!ws_csv_reader_next (reader, names, error))
                goto fail;
              n_cols = MIN (names->len, G_N_ELEMENTS (col));
              for (guint i = 0; i < n_cols; i++)
                col[i] = column_of (g_ptr_array_index (names, i));
              if (lines[l + 1] != NULL)
                {
                  g_autoptr (WsCsvReader) ur =
                    ws_csv_reader_new (path, lines[l + 1], strlen (lines[l + 1]), ',');

                  unit_cells = g_ptr_array_new_with_free_func (g_free);
                  if (!ws_csv_reader_next (ur, unit_cells, error))
                    goto fail;
                  for (guint i = 0; i < MIN (n_cols, unit_cells->len); i++)
                    if (col[i] >= 0)
                      units[col[i]] = g_ptr_array_index (unit_cells, i);
                  if (!check_time_units (units, path, l + 2, error))
                    goto fail;
                  l++;
                }
            }
          else
            {
              g_autoptr (GPtrArray) names = text_header (line, ends, starts);

              n_cols = MIN (names->len, G_N_ELEMENTS (col));
              for (guint i = 0; i < n_cols; i++)
                col[i] = column_of (g_ptr_array_index (names, i));
            }
          continue;
        }
      if (line[0] == '\0' || g_str_has_prefix (line, "=="))
        break;
      if (csv)
        {
          g_autoptr (WsCsvReader) reader = ws_csv_reader_new (path, line, strlen (line), ',');

          split = g_ptr_array_new_with_free_func (g_free);
          if (!ws_csv_reader_next (reader, split, error))
            goto fail;
          for (guint i = 0; i < MIN (n_cols, split->len); i++)
            if (col[i] >= 0)
              cells[col[i]] = g_ptr_array_index (split, i);
        }
      else
        {
          split = g_ptr_array_new_with_free_func (g_free);
          for (guint i = 0; i < n_cols; i++)
            {
              int from = i == 0 ? 0 : g_array_index (ends, int, i - 1) + 1;
              int to = g_array_index (ends, int, i);
              /* The name is left-aligned and runs to the end of the line. */
              char *cell = col[i] == C_NAME
                             ? slice (line, g_array_index (starts, int, i), G_MAXINT - 1)
                             : slice (line, from, to);

              g_ptr_array_add (split, cell);
              if (col[i] >= 0)
                cells[col[i]] = cell;
            }
        }
      if (!add_row (run, &b, cells, units, path, l + 1, error))
        goto fail;
    }
  if (b.k_start->len == 0 && b.m_start->len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: an nvprof GPU trace without a kernel or copy row", path);
      goto fail;
    }
  ws_run_add_source (run, "kernels", "nvprof --print-gpu-trace", b.k_start->len);
  ws_run_add_source (run, "memcpy", "nvprof --print-gpu-trace", b.m_start->len);
  if (b.skipped > 0)
    ws_run_add_warning (run,
                        "%s: %" G_GSIZE_FORMAT " rows without a duration (Unified Memory "
                        "page faults) are not shown",
                        path, b.skipped);
  finish (run, &b);
  run->has_kernel_table = TRUE;
  run->prov.kind = g_strdup ("nvprof-gpu-trace");
  ws_run_finish (run);
  return g_steal_pointer (&run);

fail:
  finish (run, &b);
  return NULL;
}

WsRun *
ws_nvprof_trace_read (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len;

  if (!ws_csv_load_file (path, MAX_BYTES, &text, &len, error))
    return NULL;
  return ws_nvprof_trace_parse (path, text, len, error);
}
