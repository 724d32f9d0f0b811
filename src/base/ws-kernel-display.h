/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Display names of kernels: short, readable, and unique within a set.
 *
 * A demangled name such as
 *   void at::native::vectorized_elementwise_kernel<(int)4,
 *     at::native::GeluCUDAKernelImpl(…)::[lambda() (instance 1)]::…, std::array<…>>(int, T2, T3)
 * reads "vectorized_elementwise_kernel<GeluCUDAKernelImpl…>": the function
 * without namespaces, return type or parameters, and its first telling
 * template argument (a functor, a lambda's enclosing function, or else the
 * first argument that is not a number).  Names that would read the same
 * get more detail, level by level (docs/NOTES.md, "Kernel display
 * names"). */

/* How much of a name a display name keeps, from least to most. */
typedef enum
{
  WS_KERNEL_DISPLAY_BRIEF,     /* base<first telling argument…> */
  WS_KERNEL_DISPLAY_ARGUMENTS, /* base<every argument, briefly> */
  WS_KERNEL_DISPLAY_FUNCTION,  /* base<arguments in full, without namespaces> */
  WS_KERNEL_DISPLAY_SIGNATURE, /* the same with the parameters */
  WS_KERNEL_DISPLAY_FULL,      /* the name as given */
  WS_KERNEL_DISPLAY_N_LEVELS,
} WsKernelDisplayLevel;

/* The longest display name, in characters. */
#define WS_KERNEL_DISPLAY_MAX_CHARS 120

char *ws_kernel_display_name (const char *name, WsKernelDisplayLevel level);
char **ws_kernel_display_names (const char *const *names, guint n);
char **ws_kernel_display_fit (const char *const *labels, guint n, guint max_chars);

G_END_DECLS
