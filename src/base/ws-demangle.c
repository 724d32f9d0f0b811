/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-demangle"
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ws-demangle.h"
#include "ws-kernel-name.h"

/* The Itanium C++ ABI demangler of the C++ runtime that every system with
 * a C++ compiler has (libstdc++ or libc++); declared here so that C code
 * can call it without a C++ header. */
extern char *__cxa_demangle (const char *mangled, char *buffer, size_t *length, int *status);

/**
 * ws_demangle:
 * @mangled: a symbol as a compiler wrote it (`_Z33ncclBroadcastRingLLKernel_copy_i88ncclColl`)
 *
 * nvprof exports keep kernel names mangled, where nsys exports both forms:
 * this gives the demangled one as c++filt prints it
 * (`ncclBroadcastRingLLKernel_copy_i8(ncclColl)`).
 *
 * Returns: (transfer full) (nullable): the demangled name, or %NULL when
 * @mangled is not a mangled C++ name (a C kernel keeps its name).
 */
char *
ws_demangle (const char *mangled)
{
  char *raw;
  char *out;
  int status = -1;

  g_return_val_if_fail (mangled != NULL, NULL);

  if (!g_str_has_prefix (mangled, "_Z") || strlen (mangled) > 64 * 1024)
    return NULL;
  raw = __cxa_demangle (mangled, NULL, NULL, &status);
  if (raw == NULL || status != 0)
    {
      free (raw);
      return NULL;
    }
  out = g_strdup (raw);
  free (raw);
  if (!g_utf8_validate (out, -1, NULL))
    g_clear_pointer (&out, g_free);
  return out;
}

/**
 * ws_demangle_short_name:
 * @demangled: a demangled kernel name
 *
 * The short name nsys gives a kernel (its `shortName`): the function's own
 * name, without return type, namespaces, template arguments or
 * parameters (`void at::native::vectorized_elementwise_kernel<4, …>(…)`
 * → `vectorized_elementwise_kernel`).
 *
 * Returns: (transfer full): the short name
 */
char *
ws_demangle_short_name (const char *demangled)
{
  WsKernelNameParts parts = { 0 };
  const char *base;
  const char *colon;
  char *out;

  g_return_val_if_fail (demangled != NULL, NULL);

  ws_kernel_name_split (demangled, &parts);
  base = parts.base != NULL && parts.base[0] != '\0' ? parts.base : demangled;
  colon = g_strrstr (base, "::");
  out = g_strdup (colon != NULL && colon[2] != '\0' ? colon + 2 : base);
  ws_kernel_name_parts_clear (&parts);
  return out;
}
