/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Which of a kernel's names: nsys keeps the demangled, the short (function
 * without parameters) and the mangled one. */
typedef enum
{
  WS_NAME_DEMANGLED,
  WS_NAME_SHORT,
  WS_NAME_MANGLED,
  WS_NAME_DISPLAY, /* short, readable and unique in the run (ws-kernel-display.h) */
} WsNameForm;

/* Parts of a demangled C++ kernel name such as
 * "void at::native::kernel<float, 4>(int, T1)":
 * return type "void", function "at::native::kernel<float, 4>",
 * base "at::native::kernel", parameters "(int, T1)". */
typedef struct
{
  char *return_type; /* may be "" */
  char *function;    /* with template arguments */
  char *base;        /* without template arguments */
  char *parameters;  /* with the parentheses, may be "" */
} WsKernelNameParts;

void ws_kernel_name_split (const char *name, WsKernelNameParts *parts);
void ws_kernel_name_parts_clear (WsKernelNameParts *parts);
char *ws_kernel_name_shorten (const char *name, guint max_chars);
char *ws_kernel_name_normalize (const char *name);
char *ws_kernel_name_simplify (const char *name);
char **ws_kernel_name_labels (const char *const *names, guint n, guint max_chars);
gboolean ws_kernel_name_is_communication (const char *name);

const char *ws_name_form_to_string (WsNameForm form);
gboolean ws_name_form_from_string (const char *str, WsNameForm *form);

G_END_DECLS
