/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ws-palette.h"
#include "ws-test-pixels.h"
#include "ws-test-util.h"

/* What the README promises of `gauges`, `flame` and `render --view
 * compare-nvtx` (tests/promises.tsv), run through warpscope-cli on the
 * fixtures and checked against the files themselves: SQL over the nsys
 * exports, the ncu CSV's lines, the PNG format's header. */

static const char *const H100_FP32 = "v2025.3_h100_train_fp32.sqlite";
static const char *const H100_BF16 = "v2025.3_h100_train_bf16.sqlite";
static const char *const GAUSSIAN = "v2022.4_rodinia_gaussian.sqlite";

static gint64
sql_int (const char *path, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

/* A line's characters from @from to @to, the padding on its right dropped. */
static char *
chars_between (const gunichar *chars, glong from, glong to)
{
  while (to > from && chars[to - 1] == ' ')
    to--;
  return g_ucs4_to_utf8 (chars + from, to - from, NULL, NULL, NULL);
}

typedef struct
{
  GPtrArray *names; /* the Kernel column, row by row */
  glong width;      /* the widest line of the table, in characters */
  glong name_width; /* the Kernel column's width */
} GaugesTable;

static void
gauges_table_clear (GaugesTable *t)
{
  g_clear_pointer (&t->names, g_ptr_array_unref);
}

/* `gauges` of @args run with COLUMNS=@columns: its table read back by
 * where the line of dashes under the header puts each column. */
static void
gauges_table (const char *const *args, guint columns, GaugesTable *t)
{
  g_autofree char *value = g_strdup_printf ("%u", columns);
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  glong name_from = -1, name_to = -1, column = 0;

  g_setenv ("COLUMNS", value, TRUE);
  out = ws_test_cli_expect (args, 0, NULL);
  g_unsetenv ("COLUMNS");
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 2);
  g_assert_true (g_str_has_prefix (lines[0], " ID  "));
  /* " --  ------  …": the second run of dashes is the Kernel column (ASCII,
   * so bytes are characters here). */
  for (glong i = 0; lines[1][i] != '\0'; i++)
    if (lines[1][i] == '-' && (i == 0 || lines[1][i - 1] == ' '))
      {
        column++;
        if (column == 2)
          name_from = i;
      }
    else if (lines[1][i] == ' ' && i > 0 && lines[1][i - 1] == '-' && column == 2)
      name_to = i;
  g_assert_cmpint (name_from, >, 0);
  g_assert_cmpint (name_to, >, name_from);
  t->names = g_ptr_array_new_with_free_func (g_free);
  t->name_width = name_to - name_from;
  t->width = 0;
  for (guint l = 0; lines[l] != NULL && lines[l][0] != '\0'; l++)
    {
      glong n = 0;
      g_autofree gunichar *chars = g_utf8_to_ucs4_fast (lines[l], -1, &n);

      t->width = MAX (t->width, n);
      if (l >= 2)
        {
          g_assert_cmpint (n, >=, name_to);
          g_ptr_array_add (t->names, chars_between (chars, name_from, name_to));
        }
    }
}

static glong
utf8_len (const char *s)
{
  return g_utf8_strlen (s, -1);
}

/* @name shortened in the middle to @n characters, as the README says:
 * its start and its end kept, "…" between. */
static char *
middle_elided (const char *name, glong n)
{
  glong len = utf8_len (name);
  glong head = n / 2, tail = n - 1 - n / 2;
  g_autofree char *start = g_utf8_substring (name, 0, head);
  g_autofree char *end = g_utf8_substring (name, len - tail, len);

  return g_strconcat (start, "…", end, NULL);
}

/* README, `gauges`: "the table's kernel names are shortened in the middle
 * to fit the terminal as far as its other columns allow".  The H100 run's
 * ncu CSV with its nsys export: one row per launch of the CSV (its lines
 * less the header and the units line); at a width that leaves the names
 * 40 characters the table is exactly that wide and each longer name keeps
 * its first 20 and last 19 characters; the cuBLAS kernel, a plain C name,
 * keeps those of its name in the export (SQL); at a width the other
 * columns alone exceed, the names keep 16 characters and the table is
 * wider than the terminal. */
static void
test_gauges_names_fit_terminal (void)
{
  g_autofree char *nsys = ws_test_data ("nsys", H100_FP32, NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_train_fp32_sections_raw.csv", NULL);
  g_autofree char *csv = ws_test_read (ncu);
  g_autofree char *cublas =
    ws_test_sqlite_text (nsys, "SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                               "JOIN StringIds s ON s.id = k.shortName "
                               "WHERE s.value LIKE 'sm80_xmma_gemm_%_tn_n_%'");
  const char *args[] = { "gauges", nsys, ncu, NULL };
  GaugesTable wide = { 0 }, fit = { 0 }, narrow = { 0 };
  guint cublas_rows = 0, cublas_launches = 0, shortened = 0;
  glong others;

  g_assert_nonnull (csv);
  g_assert_nonnull (cublas);
  for (const char *p = strstr (csv, cublas); p != NULL; p = strstr (p + 1, cublas))
    cublas_launches++;
  gauges_table (args, 10000, &wide);
  g_assert_cmpuint (wide.names->len, ==, ws_test_count_lines (csv) - 2);
  others = wide.width - wide.name_width;

  gauges_table (args, (guint) others + 40, &fit);
  g_assert_cmpuint (fit.names->len, ==, wide.names->len);
  g_assert_cmpint (fit.name_width, ==, 40);
  g_assert_cmpint (fit.width, ==, others + 40);
  for (guint i = 0; i < wide.names->len; i++)
    {
      const char *whole = g_ptr_array_index (wide.names, i);
      const char *shown = g_ptr_array_index (fit.names, i);

      g_assert_cmpint (utf8_len (shown), <=, 40);
      if (utf8_len (whole) <= 40)
        g_assert_cmpstr (shown, ==, whole);
      else
        {
          g_autofree char *expected = middle_elided (whole, 40);

          g_assert_cmpstr (shown, ==, expected);
          shortened++;
        }
      if (g_str_has_prefix (whole, "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_"))
        {
          /* The name in the export, its start and end as the table shows
           * them (the whole table's own cell may be shortened already: a
           * name is shown with at most WS_KERNEL_DISPLAY_MAX_CHARS characters). */
          g_autofree char *expected = middle_elided (cublas, 40);

          g_assert_cmpstr (shown, ==, expected);
          cublas_rows++;
        }
    }
  g_assert_cmpuint (cublas_rows, ==, cublas_launches);
  /* Each row was checked above, shortened or whole; this only says the
   * width did shorten some (which rows depends on the display form of each
   * name, e.g. a cutlass kernel's short name, not on the CSV alone). */
  g_assert_cmpuint (shortened, >, 0);

  gauges_table (args, (guint) others + 10, &narrow);
  g_assert_cmpint (narrow.name_width, ==, 16);
  g_assert_cmpint (narrow.width, ==, others + 16);
  for (guint i = 0; i < wide.names->len; i++)
    {
      const char *whole = g_ptr_array_index (wide.names, i);
      g_autofree char *expected =
        utf8_len (whole) <= 16 ? g_strdup (whole) : middle_elided (whole, 16);

      g_assert_cmpstr (g_ptr_array_index (narrow.names, i), ==, expected);
    }
  gauges_table_clear (&wide);
  gauges_table_clear (&fit);
  gauges_table_clear (&narrow);
}

/* README, `flame --search TEXT`: "prints the share of samples with a
 * matching frame".  The Rodinia export's CPU samples: a sample is a
 * COMPOSITE_EVENTS row with its call chain in SAMPLING_CALLCHAINS, a frame
 * reads "symbol (module)", and SQLite's LIKE ignores case as --search
 * does.  By hand from the same SQL: ForwardSub() is in 2142 of the 2619
 * samples (81.8%), cudaThreadSynchronize in 1955 (74.6%). */
static void
test_flame_search_share (void)
{
  g_autofree char *path = ws_test_data ("nsys", GAUSSIAN, NULL);
  gint64 total = sql_int (path, "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c "
                                "JOIN COMPOSITE_EVENTS e ON e.id = c.id");
  static const char *const queries[] = { "forwardsub", "CUDATHREADSYNCHRONIZE", "no such frame" };
  static const char *const by_hand[] = { "81.8", "74.6", "0.0" };

  g_assert_cmpint (total, ==, 2619);
  for (gsize q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      g_autofree char *sql = g_strdup_printf (
        "SELECT count(DISTINCT c.id) FROM SAMPLING_CALLCHAINS c "
        "JOIN COMPOSITE_EVENTS e ON e.id = c.id JOIN StringIds s ON s.id = c.symbol "
        "JOIN StringIds m ON m.id = c.module WHERE s.value LIKE '%%%s%%' OR m.value LIKE '%%%s%%'",
        queries[q], queries[q]);
      gint64 matched = sql_int (path, sql);
      g_autofree char *share = g_strdup_printf ("%.1f", 100.0 * (double) matched / (double) total);
      g_autofree char *expected = g_strdup_printf ("Matched: %s%% of the samples\n", share);
      const char *args[] = { "flame", "--search", queries[q], path, NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpstr (share, ==, by_hand[q]);
      out = ws_test_cli_expect (args, 0, &err);
      g_assert_cmpstr (err, ==, expected);
      /* The collapsed stacks still go to standard output. */
      g_assert_true (g_str_has_prefix (out, "[Max depth]"));
    }
}

/* The PNG's own header (the PNG specification): the signature, then the
 * IHDR chunk with the width and height as big-endian 32-bit numbers. */
static void
assert_png_size (const char *path, guint32 width, guint32 height)
{
  static const guchar signature[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autofree char *data = NULL;
  gsize len = 0;
  const guchar *b;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  b = (const guchar *) data;
  g_assert_cmpmem (b, 8, signature, 8);
  g_assert_cmpmem (b + 12, 4, "IHDR", 4);
  g_assert_cmpuint ((guint32) b[16] << 24 | b[17] << 16 | b[18] << 8 | b[19], ==, width);
  if (height > 0)
    g_assert_cmpuint ((guint32) b[20] << 24 | b[21] << 16 | b[22] << 8 | b[23], ==, height);
}

static cairo_surface_t *
load_png (const char *path)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  return surface;
}

/* The pixels of row @y that are not the background. */
static int
drawn_in_row (cairo_surface_t *surface, int y, const WsPalette *palette)
{
  int n = 0;

  for (int x = 0; x < cairo_image_surface_get_width (surface); x++)
    n += !ws_test_pixel_is_color (surface, x, y, palette->background);
  return n;
}

static int
compare_ints (gconstpointer a, gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

/* README, `flame --layout icicle|flame`: callers on top or at the bottom.
 * The Rodinia samples drawn 1000 pixels wide both ways: PNGs of that
 * width (their header) and of one height; the bar of all the samples, the
 * only rows drawn across the whole width, is in the top half of the
 * icicle and the bottom half of the flame; and the two draw the same
 * rows, in the other order (the same count of drawn pixels, row for row,
 * once sorted). */
static void
test_flame_layouts (void)
{
  g_autofree char *path = ws_test_data ("nsys", GAUSSIAN, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  static const char *const layouts[] = { "icicle", "flame" };
  GArray *counts[2] = { NULL, NULL };
  int heights[2] = { 0, 0 };
  WsPalette palette;

  ws_palette_init_light (&palette);
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *png = g_strdup_printf ("%s/%s.png", dir, layouts[i]);
      const char *args[] = { "flame",    "--format", "png", "--width", "1000", "--layout",
                             layouts[i], "-o",       png,   path,      NULL };
      g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
      cairo_surface_t *surface;
      int full = 0;

      assert_png_size (png, 1000, 0);
      surface = load_png (png);
      heights[i] = cairo_image_surface_get_height (surface);
      counts[i] = g_array_new (FALSE, FALSE, sizeof (int));
      for (int y = 0; y < heights[i]; y++)
        {
          int n = drawn_in_row (surface, y, &palette);

          g_array_append_val (counts[i], n);
          if (n < 1000)
            continue;
          full++;
          if (i == 0)
            g_assert_cmpint (y, <, heights[i] / 2);
          else
            g_assert_cmpint (y, >, heights[i] / 2);
        }
      g_assert_cmpint (full, >, 0);
      g_array_sort (counts[i], compare_ints);
      cairo_surface_destroy (surface);
    }
  g_assert_cmpint (heights[0], ==, heights[1]);
  g_assert_cmpmem (counts[0]->data, counts[0]->len * sizeof (int), counts[1]->data,
                   counts[1]->len * sizeof (int));
  g_array_unref (counts[0]);
  g_array_unref (counts[1]);
  ws_test_rmtree (dir);
}

/* The lengths of the bars of colour @c that start at column @x: one per
 * run of @c down that column, measured across its middle row, top first. */
static GArray *
bars_at (cairo_surface_t *surface, int x, WsColor c)
{
  GArray *lengths = g_array_new (FALSE, FALSE, sizeof (int));
  int height = cairo_image_surface_get_height (surface);
  int width = cairo_image_surface_get_width (surface);

  for (int y = 0; y < height; y++)
    {
      int top = y, len = 0;

      if (!ws_test_pixel_is_color (surface, x, y, c))
        continue;
      while (y < height && ws_test_pixel_is_color (surface, x, y, c))
        y++;
      while (x + len < width && ws_test_pixel_is_color (surface, x + len, (top + y) / 2, c))
        len++;
      g_array_append_val (lengths, len);
    }
  return lengths;
}

/* The NVTX ranges' totals of one export, by name (SQL), smallest first. */
static GArray *
range_totals (const char *path)
{
  g_autofree char *list = ws_test_sqlite_text (
    path, "SELECT group_concat(t, ' ') FROM (SELECT sum(end - start) AS t FROM NVTX_EVENTS "
          "WHERE eventType = 59 AND end IS NOT NULL GROUP BY text ORDER BY t)");
  g_auto (GStrv) parts = g_strsplit (list, " ", -1);
  GArray *totals = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; parts[i] != NULL; i++)
    {
      gint64 t = g_ascii_strtoll (parts[i], NULL, 10);

      g_array_append_val (totals, t);
    }
  return totals;
}

/* Each drawn length is its total's share of the longest: within a pixel. */
static void
assert_bars_measure (GArray *lengths, GArray *totals, gint64 longest, int longest_px)
{
  g_assert_cmpuint (lengths->len, ==, totals->len);
  for (guint i = 0; i < totals->len; i++)
    {
      double expected = (double) g_array_index (totals, gint64, i) / (double) longest * longest_px;

      g_assert_cmpfloat (fabs (g_array_index (lengths, int, i) - expected), <=, 1.0);
    }
}

/* README, `render --view compare-nvtx` with BEFORE AFTER: the NVTX ranges'
 * totals of two runs as pairs of bars.  The H100 FP32 → BF16 exports, at
 * --size 1200x1000: a PNG of that size (its header); where the bars start,
 * one "after" bar per range name of the BF16 export and one "before" bar
 * per range name of the FP32 export (with the legend's swatch), their
 * lengths in proportion to the ranges' totals (SQL: push/pop ranges,
 * eventType 59, summed by name); and not the picture `--view compare`
 * draws of the same runs. */
static void
test_render_compare_nvtx (void)
{
  g_autofree char *before = ws_test_data ("nsys", H100_FP32, NULL);
  g_autofree char *after = ws_test_data ("nsys", H100_BF16, NULL);
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *nvtx_png = g_build_filename (dir, "nvtx.png", NULL);
  g_autofree char *kernels_png = g_build_filename (dir, "kernels.png", NULL);
  const char *nvtx_args[] = { "render", "--view", "compare-nvtx", "--size", "1200x1000",
                              "-o",     nvtx_png, before,         after,    NULL };
  const char *kernels_args[] = { "render", "--view",    "compare", "--size", "1200x1000",
                                 "-o",     kernels_png, before,    after,    NULL };
  g_autofree char *out1 = ws_test_cli_expect (nvtx_args, 0, NULL);
  g_autofree char *out2 = ws_test_cli_expect (kernels_args, 0, NULL);
  g_autoptr (GArray) before_totals = range_totals (before);
  g_autoptr (GArray) after_totals = range_totals (after);
  g_autoptr (GArray) before_bars = NULL;
  g_autoptr (GArray) after_bars = NULL;
  cairo_surface_t *nvtx, *kernels;
  gint64 longest;
  int left = -1, longest_px;
  WsPalette palette;

  assert_png_size (nvtx_png, 1200, 1000);
  assert_png_size (kernels_png, 1200, 1000);
  nvtx = load_png (nvtx_png);
  kernels = load_png (kernels_png);
  g_assert_false (memcmp (cairo_image_surface_get_data (nvtx),
                          cairo_image_surface_get_data (kernels),
                          (gsize) cairo_image_surface_get_stride (nvtx) * 1000) == 0);

  /* Nine range names on each side (forward, backward, optimizer, step 0
   * to step 5), all under the 15 rows drawn by default. */
  g_assert_cmpuint (before_totals->len, ==, 9);
  g_assert_cmpuint (after_totals->len, ==, 9);
  ws_palette_init_light (&palette);
  /* The bars start at the leftmost "after" pixel (the legend's swatch of
   * that colour stands right of the word "before"). */
  for (int x = 0; x < 1200 && left < 0; x++)
    for (int y = 0; y < 1000 && left < 0; y++)
      if (ws_test_pixel_is_color (nvtx, x, y, palette.accent))
        left = x;
  g_assert_cmpint (left, >=, 0);
  after_bars = bars_at (nvtx, left, palette.accent);
  before_bars = bars_at (nvtx, left, palette.bar_other);
  /* The legend's "before" swatch, above the bars, is the one run of that
   * colour that is no bar. */
  g_assert_cmpuint (before_bars->len, ==, before_totals->len + 1);
  g_array_remove_index (before_bars, 0);
  g_array_sort (before_bars, compare_ints);
  g_array_sort (after_bars, compare_ints);
  longest = MAX (g_array_index (before_totals, gint64, before_totals->len - 1),
                 g_array_index (after_totals, gint64, after_totals->len - 1));
  longest_px = MAX (g_array_index (before_bars, int, before_bars->len - 1),
                    g_array_index (after_bars, int, after_bars->len - 1));
  g_assert_cmpint (longest_px, >, 600);
  assert_bars_measure (after_bars, after_totals, longest, longest_px);
  assert_bars_measure (before_bars, before_totals, longest, longest_px);
  cairo_surface_destroy (nvtx);
  cairo_surface_destroy (kernels);
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/promises-cli/gauges/names-shortened-in-the-middle",
                   test_gauges_names_fit_terminal);
  g_test_add_func ("/promises-cli/flame/search-share-of-samples", test_flame_search_share);
  g_test_add_func ("/promises-cli/flame/layout-icicle-and-flame", test_flame_layouts);
  g_test_add_func ("/promises-cli/render/compare-nvtx-pairs-of-bars", test_render_compare_nvtx);
  return g_test_run ();
}
