/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernel-names"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-kernel-names.h"

/**
 * ws_kernel_names_init:
 * @form: the kernel name form (nsys: demangled, `:base`, `:mangled`)
 *
 * Each kernel of @run under its name in @form; the ids are the run's
 * string ids.  Holds nothing to clear, but ws_kernel_names_clear() may be
 * called.
 */
void
ws_kernel_names_init (WsKernelNames *self, const WsRun *run, WsNameForm form)
{
  g_return_if_fail (self != NULL && run != NULL);

  memset (self, 0, sizeof *self);
  self->run = run;
  self->form = form;
}

/* The id of "@range/@kernel" (or of @kernel alone, @range WS_STRING_NONE),
 * made once per pair. */
static guint32
pair_id (WsKernelNames *self, GHashTable *pairs, guint32 range, guint32 kernel)
{
  guint64 key = ((guint64) range << 32) | kernel;
  gpointer found = g_hash_table_lookup (pairs, &key);
  guint32 id;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  if (range == WS_STRING_NONE)
    id = ws_string_table_intern (self->strings, ws_run_string (self->run, kernel));
  else
    {
      g_autofree char *text = g_strconcat (ws_run_string (self->run, range), "/",
                                           ws_run_string (self->run, kernel), NULL);

      id = ws_string_table_intern (self->strings, text);
    }
  g_hash_table_insert (pairs, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id + 1));
  return id;
}

/**
 * ws_kernel_names_init_nvtx:
 * @join: the NVTX → GPU join of the run
 * @form: the form of the kernel's part of each name
 *
 * nsys's `:nvtx-name`: each kernel under the name of the innermost NVTX
 * range that holds its launch call (ws_nvtx_join_innermost(): of the
 * call's thread, any domain, the domain not printed), a slash and its
 * name in @form; a kernel no range holds, or whose call is unknown, under
 * its name alone.  Clear it with ws_kernel_names_clear().
 */
void
ws_kernel_names_init_nvtx (WsKernelNames *self, WsNvtxJoin *join, WsNameForm form)
{
  const WsRun *run;
  g_autofree guint32 *innermost = NULL;
  g_autoptr (GHashTable) pairs = NULL;

  g_return_if_fail (self != NULL && join != NULL);

  run = ws_launch_index_get_run (ws_nvtx_join_get_launches (join));
  ws_kernel_names_init (self, run, form);
  self->strings = ws_string_table_new ();
  self->ids = g_new (guint32, MAX (run->kernels.n, 1));
  innermost = ws_nvtx_join_innermost (join);
  pairs = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  for (gsize k = 0; k < run->kernels.n; k++)
    {
      guint32 range = innermost[k] != G_MAXUINT32 ? run->nvtx.name[innermost[k]] : WS_STRING_NONE;

      self->ids[k] = pair_id (self, pairs, range, ws_run_kernel_name_id (run, k, form));
    }
}

void
ws_kernel_names_clear (WsKernelNames *self)
{
  g_clear_pointer (&self->strings, ws_string_table_free);
  g_clear_pointer (&self->ids, g_free);
}

/* The id of kernel @kernel's name: equal names, equal ids. */
guint32
ws_kernel_names_id (const WsKernelNames *self, gsize kernel)
{
  if (self->ids != NULL)
    return self->ids[kernel];
  return ws_run_kernel_name_id (self->run, kernel, self->form);
}

/* Returns: (transfer none): the name of @id; "" for an unknown id */
const char *
ws_kernel_names_get (const WsKernelNames *self, guint32 id)
{
  const char *text;

  if (self->strings == NULL)
    return ws_run_string (self->run, id);
  text = ws_string_table_get (self->strings, id);
  return text != NULL ? text : "";
}

/* How many ids there are: every id of a kernel's name is below it. */
guint
ws_kernel_names_n_ids (const WsKernelNames *self)
{
  return ws_string_table_size (self->strings != NULL ? self->strings : self->run->strings);
}
