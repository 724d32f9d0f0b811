/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture"
#include "config.h"

#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-plan.h"
#include "ws-csv.h"
#include "ws-kernel-display.h"
#include "ws-kernel-name.h"

/* Step 4: the kernels that take the most time, from the kernel summary
 * nsys stats wrote, or from the summaries of a job's ranks added up. */

static int
find_column (GPtrArray *header, const char *prefix)
{
  for (guint i = 0; i < header->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (header, i), prefix))
      return (int) i;
  return -1;
}

static int
compare_total (gconstpointer a, gconstpointer b)
{
  const WsCaptureKernel *ka = *(WsCaptureKernel **) a;
  const WsCaptureKernel *kb = *(WsCaptureKernel **) b;

  return ka->total < kb->total ? 1 : ka->total > kb->total ? -1 : 0;
}

/* The base of a kernel's report files: its display name (unique among the
 * kernels of the summary) with each run of characters outside
 * [A-Za-z0-9._-] as one "_", at most 80 bytes: three
 * "Kernel2<cutlass_75_…_128x128_tn_align1>" become
 * Kernel2_cutlass_75_…_128x128_tn_align1 and its siblings. */
static char *
kernel_file_base (const char *display)
{
  GString *out = g_string_new (NULL);
  gboolean gap = FALSE;

  for (const char *p = display; *p != '\0' && out->len < 80; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '-')
        {
          if (gap && out->len > 0)
            g_string_append_c (out, '_');
          g_string_append_c (out, *p);
          gap = FALSE;
        }
      else
        gap = TRUE;
    }
  /* Never hidden, never empty. */
  while (out->len > 0 && out->str[0] == '.')
    g_string_erase (out, 0, 1);
  if (out->len == 0)
    g_string_assign (out, "kernel");
  return g_string_free (out, FALSE);
}

/* Appends to @kernels the rows of a kernel summary CSV. */
static gboolean
read_rows (const char *csv_path, GPtrArray *kernels, GError **error)
{
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (WsCsvReader) reader = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;
  int total_col = -1, name_col = -1;
  guint before = kernels->len;

  if (!g_file_test (csv_path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_STEP_FAILED,
                   "%s: no kernel summary: nsys stats wrote none (no CUDA kernel data in the "
                   "capture?)",
                   csv_path);
      return FALSE;
    }
  if (!ws_csv_load_file (csv_path, 256 * 1024 * 1024, &contents, &len, error))
    return FALSE;

  reader = ws_csv_reader_new (csv_path, contents, len, ',');
  while (ws_csv_reader_next (reader, fields, error))
    {
      if (total_col < 0)
        {
          total_col = find_column (fields, "Total Time");
          name_col = find_column (fields, "Name");
          continue;
        }
      if ((guint) MAX (total_col, name_col) < fields->len)
        {
          WsCaptureKernel *kernel = g_new0 (WsCaptureKernel, 1);
          double total = 0;

          kernel->name = g_strdup (g_ptr_array_index (fields, name_col));
          if (ws_csv_parse_number (g_ptr_array_index (fields, total_col), &total))
            kernel->total = (gint64) total;
          g_ptr_array_add (kernels, kernel);
        }
    }
  if (error != NULL && *error != NULL)
    return FALSE;
  if (total_col < 0 || name_col < 0)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_STEP_FAILED,
                   "%s: not a kernel summary (no “Total Time” and “Name” columns)", csv_path);
      return FALSE;
    }
  if (kernels->len == before)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_STEP_FAILED,
                   "%s: the kernel summary lists no kernels", csv_path);
      return FALSE;
    }
  return TRUE;
}

/* The @n largest of @kernels, largest first, each with its display name
 * and a file base unique in the target.  With @left_out, communication
 * kernels (ws_kernel_name_is_communication()) are moved there, largest
 * first, and the next kernels are taken in their place: ncu cannot replay
 * one without its peers.  @all_total receives the time of all the
 * kernels, left out or not. */
static GPtrArray *
top (GPtrArray *kernels, guint n, GPtrArray *left_out, gint64 *all_total)
{
  g_autoptr (GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 total = 0;

  g_ptr_array_sort (kernels, compare_total);
  for (guint i = 0; i < kernels->len; i++)
    total += ((WsCaptureKernel *) g_ptr_array_index (kernels, i))->total;
  if (all_total != NULL)
    *all_total = total;
  /* Display names tell apart every kernel of the summary, not only the
   * ones picked. */
  {
    g_autofree const char **names = g_new0 (const char *, kernels->len + 1);
    g_auto (GStrv) displays = NULL;

    for (guint i = 0; i < kernels->len; i++)
      names[i] = ((WsCaptureKernel *) g_ptr_array_index (kernels, i))->name;
    displays = ws_kernel_display_names (names, kernels->len);
    for (guint i = 0; i < kernels->len; i++)
      ((WsCaptureKernel *) g_ptr_array_index (kernels, i))->display = g_strdup (displays[i]);
  }
  if (left_out != NULL)
    for (guint i = 0; i < kernels->len;)
      {
        WsCaptureKernel *kernel = g_ptr_array_index (kernels, i);

        if (ws_kernel_name_is_communication (kernel->name))
          g_ptr_array_add (left_out, g_ptr_array_steal_index (kernels, i));
        else
          i++;
      }
  if (kernels->len > n)
    g_ptr_array_set_size (kernels, n);
  for (guint i = 0; i < kernels->len; i++)
    {
      WsCaptureKernel *kernel = g_ptr_array_index (kernels, i);
      g_autofree char *base = kernel_file_base (kernel->display);

      kernel->file = ws_capture_unique_name (used, base);
    }
  return g_ptr_array_ref (kernels);
}

/**
 * ws_capture_read_top_kernels:
 * @csv_path: `NAME_cuda_gpu_kern_sum.csv` written by `nsys stats`
 * @left_out: (nullable) (element-type WsCaptureKernel): where the
 *   communication kernels go, largest first, instead of the top; %NULL to
 *   keep them among the kernels
 * @all_total: (out) (optional): ns of all the summary's kernels
 *
 * Picks the @n kernels with the largest total time, largest first (rows
 * of equal totals keep the file's order), each with a file base unique in
 * the target.
 *
 * Returns: (transfer full) (element-type WsCaptureKernel): the kernels,
 *   or %NULL with @error set when the file is missing, not a kernel
 *   summary, or lists no kernel
 */
GPtrArray *
ws_capture_read_top_kernels (const char *csv_path, guint n, GPtrArray *left_out, gint64 *all_total,
                             GError **error)
{
  g_autoptr (GPtrArray) kernels =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_kernel_free);

  g_return_val_if_fail (csv_path != NULL, NULL);

  if (!read_rows (csv_path, kernels, error))
    return NULL;
  return top (kernels, n, left_out, all_total);
}

/**
 * ws_capture_read_top_kernels_merged:
 * @csv_paths: (array zero-terminated=1): the kernel summaries of a job's
 *   ranks
 * @left_out: (nullable): as for ws_capture_read_top_kernels()
 * @all_total: (out) (optional): ns of all the kernels of all the ranks
 *
 * The @n kernels with the most time over all the ranks: each kernel's
 * totals added up across the summaries (as the merged summary of the
 * job's run adds them).  A rank without a summary is an error: its
 * kernels would be missing from the sum.
 *
 * Returns: (transfer full) (element-type WsCaptureKernel): the kernels, or
 *   %NULL with @error set
 */
GPtrArray *
ws_capture_read_top_kernels_merged (const char *const *csv_paths, guint n, GPtrArray *left_out,
                                    gint64 *all_total, GError **error)
{
  g_autoptr (GPtrArray) rows =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_kernel_free);
  g_autoptr (GPtrArray) merged =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_kernel_free);
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (csv_paths != NULL && csv_paths[0] != NULL, NULL);

  g_autoptr (GHashTable) most = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; csv_paths[i] != NULL; i++)
    {
      guint first = rows->len;

      if (!read_rows (csv_paths[i], rows, error))
        return NULL;
      /* The rank of each row: the summaries come in rank order. */
      for (guint r = first; r < rows->len; r++)
        ((WsCaptureKernel *) g_ptr_array_index (rows, r))->rank = i;
    }
  for (guint i = 0; i < rows->len; i++)
    {
      WsCaptureKernel *row = g_ptr_array_index (rows, i);
      WsCaptureKernel *kernel = g_hash_table_lookup (by_name, row->name);
      WsCaptureKernel *best;

      if (kernel == NULL)
        {
          kernel = g_new0 (WsCaptureKernel, 1);
          kernel->name = g_strdup (row->name);
          g_ptr_array_add (merged, kernel);
          g_hash_table_insert (by_name, kernel->name, kernel);
        }
      kernel->total += row->total;
      /* Profiled on the rank that runs it most: rank 0 may never run it
       * (a straggler's extra work). */
      best = g_hash_table_lookup (most, kernel->name);
      if (best == NULL || row->total > best->total)
        {
          g_hash_table_insert (most, kernel->name, row);
          kernel->rank = row->rank;
        }
    }
  return top (merged, n, left_out, all_total);
}
