/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernel-name"
#include "config.h"

#include <string.h>

#include "ws-kernel-display.h"
#include "ws-kernel-name.h"

static gboolean
is_open (char c)
{
  return c == '<' || c == '(' || c == '[';
}

static gboolean
is_close (char c)
{
  return c == '>' || c == ')' || c == ']';
}

/* The length of the operator symbol of "operator" at @at: "()", "[]",
 * or up to three of <>=!+-*%/&|^~, ("operator<<=", "operator->"). */
static gsize
operator_token (const char *name, gsize at)
{
  const char *p = name + at + strlen ("operator");
  gsize len = 0;

  while (*p == ' ')
    p++, len++;
  if ((p[0] == '(' && p[1] == ')') || (p[0] == '[' && p[1] == ']'))
    return len + 2;
  while (len < 4 && *p != '\0' && strchr ("<>=!+-*%/&|^~,", *p) != NULL)
    p++, len++;
  return len;
}

/* "operator<", "operator()" and "->" must not count as brackets: whether
 * name[i] belongs to such a symbol. */
static gboolean
is_operator_char (const char *name, gsize i)
{
  static const char op[] = "operator";
  gsize len = sizeof op - 1;

  if (name[i] == '>' && i > 0 && name[i - 1] == '-')
    return TRUE;
  for (gsize back = 0; back < 5 && back <= i; back++)
    {
      gsize at;

      if (i - back < len)
        continue;
      at = i - back - len;
      /* "operator" as a whole word: apply_operator(int) is a plain call. */
      if (strncmp (name + at, op, len) == 0 &&
          (at == 0 || !(g_ascii_isalnum (name[at - 1]) || name[at - 1] == '_')) &&
          back < operator_token (name, at))
        return TRUE;
    }
  return FALSE;
}

/* Index of the '(' that opens the final top-level parameter list, or -1. */
static gssize
parameters_start (const char *name, gsize len)
{
  int depth = 0;

  if (len == 0 || name[len - 1] != ')')
    return -1;
  for (gssize i = (gssize) len - 1; i >= 0; i--)
    {
      if (is_operator_char (name, i))
        continue;
      if (is_close (name[i]))
        depth++;
      else if (is_open (name[i]))
        {
          depth--;
          if (depth == 0)
            return name[i] == '(' ? i : -1;
        }
    }
  return -1;
}

/* Index just after the last top-level space of name[0, end): where the
 * function starts once a return type is skipped. */
static gsize
function_start (const char *name, gsize end)
{
  int depth = 0;
  gsize start = 0;

  for (gsize i = 0; i < end; i++)
    {
      if (is_operator_char (name, i))
        continue;
      if (is_open (name[i]))
        depth++;
      else if (is_close (name[i]) && depth > 0)
        depth--;
      else if (name[i] == ' ' && depth == 0)
        start = i + 1;
    }
  return start;
}

/* "<unnamed>" is how demanglers name an anonymous namespace, not a template. */
static gboolean
is_unnamed (const char *at)
{
  return g_str_has_prefix (at, "<unnamed>");
}

static char *
strip_templates (const char *function)
{
  GString *out = g_string_new (NULL);
  int depth = 0;

  for (gsize i = 0; function[i] != '\0'; i++)
    {
      if (depth == 0 && is_unnamed (function + i))
        {
          g_string_append (out, "<unnamed>");
          i += strlen ("<unnamed>") - 1;
          continue;
        }
      if (!is_operator_char (function, i))
        {
          if (function[i] == '<')
            {
              depth++;
              continue;
            }
          if (function[i] == '>' && depth > 0)
            {
              depth--;
              continue;
            }
        }
      if (depth == 0)
        g_string_append_c (out, function[i]);
    }
  return g_string_free (out, FALSE);
}

void
ws_kernel_name_split (const char *name, WsKernelNameParts *parts)
{
  gsize len;
  gssize params;
  gsize fn;

  memset (parts, 0, sizeof *parts);
  if (name == NULL)
    name = "";
  len = strlen (name);
  while (len > 0 && name[len - 1] == ' ')
    len--;

  params = parameters_start (name, len);
  if (params < 0)
    params = (gssize) len;
  fn = function_start (name, (gsize) params);

  parts->return_type = g_strstrip (g_strndup (name, fn));
  parts->function = g_strndup (name + fn, params - fn);
  parts->parameters = g_strndup (name + params, len - params);
  parts->base = strip_templates (parts->function);
}

void
ws_kernel_name_parts_clear (WsKernelNameParts *parts)
{
  g_clear_pointer (&parts->return_type, g_free);
  g_clear_pointer (&parts->function, g_free);
  g_clear_pointer (&parts->base, g_free);
  g_clear_pointer (&parts->parameters, g_free);
}

/**
 * ws_kernel_name_normalize:
 *
 * The name without return type, template arguments and parameters:
 * "void cutlass::Kernel2<cutlass_80_simt_sgemm…>(T1::Params)" becomes
 * "cutlass::Kernel2".  Instantiations of one template share it.
 *
 * Returns: (transfer full): the normalised name
 */
char *
ws_kernel_name_normalize (const char *name)
{
  WsKernelNameParts parts;
  char *base;

  ws_kernel_name_split (name, &parts);
  base = g_steal_pointer (&parts.base);
  ws_kernel_name_parts_clear (&parts);
  return base;
}

/**
 * ws_kernel_name_simplify:
 *
 * The name without return type and parameters, template arguments kept:
 * how ncu 2025 prints demangled names (--rename-kernels).
 *
 * Returns: (transfer full): the function part
 */
char *
ws_kernel_name_simplify (const char *name)
{
  WsKernelNameParts parts;
  char *function;

  ws_kernel_name_split (name, &parts);
  function = g_steal_pointer (&parts.function);
  ws_kernel_name_parts_clear (&parts);
  return function;
}

/**
 * ws_kernel_name_shorten:
 * @max_chars: the most characters to keep; 0 for no limit
 *
 * A label for charts: the function without return type and parameters,
 * template arguments folded to "<…>" when the name is long, and an
 * ellipsis in the middle as a last resort (the end of a name tells
 * kernels apart more often than its namespace).
 *
 * Returns: (transfer full): the label
 */
char *
ws_kernel_name_shorten (const char *name, guint max_chars)
{
  WsKernelNameParts parts;
  GString *out;
  glong len;

  ws_kernel_name_split (name, &parts);
  out = g_string_new (parts.function[0] != '\0' ? parts.function : name);

  if (max_chars > 0 && (guint) g_utf8_strlen (out->str, -1) > max_chars &&
      strchr (out->str, '<') != NULL)
    {
      GString *folded = g_string_new (NULL);
      int depth = 0;

      for (gsize i = 0; i < out->len; i++)
        {
          char c = out->str[i];

          if (depth == 0 && is_unnamed (out->str + i))
            {
              g_string_append (folded, "<unnamed>");
              i += strlen ("<unnamed>") - 1;
              continue;
            }
          if (c == '<' && !is_operator_char (out->str, i))
            {
              if (depth++ == 0)
                g_string_append (folded, "<…>");
              continue;
            }
          if (c == '>' && depth > 0 && !is_operator_char (out->str, i))
            {
              depth--;
              continue;
            }
          if (depth == 0)
            g_string_append_c (folded, c);
        }
      g_string_free (out, TRUE);
      out = folded;
    }

  len = g_utf8_strlen (out->str, -1);
  if (max_chars > 3 && len > (glong) max_chars)
    {
      glong keep_head = (glong) max_chars / 3;
      glong keep_tail = (glong) max_chars - keep_head - 1;
      const char *head_end = g_utf8_offset_to_pointer (out->str, keep_head);
      const char *tail = g_utf8_offset_to_pointer (out->str, len - keep_tail);
      char *joined = g_strdup_printf ("%.*s…%s", (int) (head_end - out->str), out->str, tail);

      g_string_assign (out, joined);
      g_free (joined);
    }

  ws_kernel_name_parts_clear (&parts);
  return g_string_free (out, FALSE);
}

/**
 * ws_kernel_name_labels:
 * @names: (array length=n): full kernel names
 * @max_chars: the most characters to keep; 0 for no limit
 *
 * Chart labels for @names: their display names (ws-kernel-display.h),
 * unique among them, fitted to @max_chars by ws_kernel_display_fit(): what
 * tells them apart stays visible.
 *
 * Returns: (transfer full) (array zero-terminated=1): the labels
 */
char **
ws_kernel_name_labels (const char *const *names, guint n, guint max_chars)
{
  char **labels = ws_kernel_display_names (names, n);
  char **fitted;

  if (max_chars < 8)
    return labels;
  fitted = ws_kernel_display_fit ((const char *const *) labels, n, max_chars);
  g_strfreev (labels);
  return fitted;
}

const char *
ws_name_form_to_string (WsNameForm form)
{
  switch (form)
    {
      case WS_NAME_SHORT:
        return "short";
      case WS_NAME_MANGLED:
        return "mangled";
      case WS_NAME_DISPLAY:
        return "display";
      case WS_NAME_DEMANGLED:
      default:
        return "demangled";
    }
}

gboolean
ws_name_form_from_string (const char *str, WsNameForm *form)
{
  if (g_strcmp0 (str, "demangled") == 0)
    *form = WS_NAME_DEMANGLED;
  else if (g_strcmp0 (str, "short") == 0 || g_strcmp0 (str, "base") == 0)
    *form = WS_NAME_SHORT;
  else if (g_strcmp0 (str, "mangled") == 0)
    *form = WS_NAME_MANGLED;
  else if (g_strcmp0 (str, "display") == 0)
    *form = WS_NAME_DISPLAY;
  else
    return FALSE;
  return TRUE;
}

/* Kernels that talk to other GPUs: each waits for its peers, so its time
 * is mostly the slowest rank's lateness, and ncu cannot replay one kernel
 * alone (the peers never join: the replay hangs).  Lower-case parts of the
 * name, in any form (mangled, demangled, short). */
static const char *const communication_parts[] = {
  "nccl",                /* ncclDevKernel_*, ncclKernel_*, ncclDevFunc_* */
  "nvshmem",             /* nvshmemi_*, NVSHMEM collectives */
  "msccl",               /* MSCCL, MSCCL++ */
  "symmetric_memory",    /* c10d::symmetric_memory::one_shot_all_reduce_kernel, … */
  "cross_device_reduce", /* vLLM's custom all-reduce */
  "multimem_",           /* NVLS multimem all-reduce kernels */
};

/**
 * ws_kernel_name_is_communication:
 * @name: a kernel's name, in any form
 *
 * Whether a kernel is a collective or another communication kernel (NCCL,
 * NVSHMEM, MSCCL, PyTorch's symmetric memory, vLLM's all-reduce).  The one
 * place that says so: the launcher's top-N pick and the findings ask it.
 */
gboolean
ws_kernel_name_is_communication (const char *name)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (name != NULL, FALSE);

  lower = g_ascii_strdown (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (communication_parts); i++)
    if (strstr (lower, communication_parts[i]) != NULL)
      return TRUE;
  return FALSE;
}
