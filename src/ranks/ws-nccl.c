/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nccl"
#include "config.h"

#include <string.h>

#include "ws-nccl.h"

/* The collectives NCCL names its kernels after; longer names first, so
 * that "ReduceScatter" is not taken for "Reduce". */
static const char *const kinds[] = {
  "ReduceScatter", "AllReduce", "AllGather", "AllToAll", "Broadcast",
  "SendRecv",      "Reduce",    "Send",      "Recv",
};

/**
 * ws_nccl_kind:
 * @kernel_name: a kernel's demangled (or mangled) name
 *
 * Returns: (transfer none) (nullable): the collective the kernel runs
 * ("AllReduce", "SendRecv", …), "Other" for an NCCL kernel of another
 * kind, or %NULL for a kernel that is not NCCL's
 */
const char *
ws_nccl_kind (const char *kernel_name)
{
  const char *p;

  g_return_val_if_fail (kernel_name != NULL, NULL);

  p = kernel_name;
  /* A mangled name: _Z33ncclAllReduceTreeLLKernel_sum_i328ncclColl */
  if (g_str_has_prefix (p, "_Z"))
    {
      p += 2;
      while (g_ascii_isdigit (*p))
        p++;
    }
  /* A kernel name without the return type that some tools print first. */
  if (g_str_has_prefix (p, "void "))
    p += 5;
  if (!g_str_has_prefix (p, "nccl"))
    return NULL;
  p += 4;
  if (g_str_has_prefix (p, "DevKernel_"))
    p += strlen ("DevKernel_");
  else if (g_str_has_prefix (p, "Kernel_"))
    p += strlen ("Kernel_");
  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (g_str_has_prefix (p, kinds[i]))
      return kinds[i];
  return "Other";
}

/**
 * ws_nccl_kernel_mask:
 * @n_nccl: (out) (optional): how many kernels are NCCL's
 *
 * Returns: (transfer full): per kernel of @run, 1 for NCCL's, 0 for the
 * others (compute), or %NULL when the run holds no NCCL kernel
 */
guint8 *
ws_nccl_kernel_mask (const WsRun *run, guint *n_nccl)
{
  g_autoptr (GHashTable) names = g_hash_table_new (NULL, NULL);
  g_autofree guint8 *mask = NULL;
  guint n = 0;

  g_return_val_if_fail (run != NULL, NULL);

  if (n_nccl != NULL)
    *n_nccl = 0;
  if (run->kernels.n == 0)
    return NULL;
  mask = g_new0 (guint8, run->kernels.n);
  for (gsize i = 0; i < run->kernels.n; i++)
    {
      guint32 id = ws_run_kernel_name_id (run, i, WS_NAME_DEMANGLED);
      gpointer known;

      /* Name ids repeat: each name is judged once. */
      if (!g_hash_table_lookup_extended (names, GUINT_TO_POINTER (id), NULL, &known))
        {
          known = GUINT_TO_POINTER (ws_nccl_kind (ws_run_string (run, id)) != NULL);
          g_hash_table_insert (names, GUINT_TO_POINTER (id), known);
        }
      mask[i] = (guint8) GPOINTER_TO_UINT (known);
      n += mask[i];
    }
  if (n_nccl != NULL)
    *n_nccl = n;
  return n > 0 ? g_steal_pointer (&mask) : NULL;
}
