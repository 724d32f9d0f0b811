/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-gate"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-error.h"
#include "ws-file.h"
#include "ws-gate.h"

/* Budgets as people write them (docs/ci.md, "Budgets"):
 *
 *   step=+3%                  a step's wall time may grow 3%
 *   kernel:*gemm*=+5%         the kernels named like *gemm*, their time per step
 *   nvtx:forward=+2 ms        the ranges named forward, their time per step
 *   total-gpu=+3%             every kernel's time per step
 *
 * on the command line, or one a line in a file (a # after a blank, or
 * first, starts a comment). */

/* A budget file is small: a few hundred lines at most. */
#define MAX_FILE_BYTES (1 << 20)

void
ws_budget_clear (WsBudget *budget)
{
  g_clear_pointer (&budget->pattern, g_free);
  g_clear_pointer (&budget->text, g_free);
  g_clear_pointer (&budget->where, g_free);
}

static void
budget_array_clear (gpointer data)
{
  ws_budget_clear (data);
}

/* An empty array of WsBudget that clears its elements. */
GArray *
ws_budgets_new (void)
{
  GArray *budgets = g_array_new (FALSE, TRUE, sizeof (WsBudget));

  g_array_set_clear_func (budgets, budget_array_clear);
  return budgets;
}

static gboolean
fail (GError **error, const char *where, const char *text, const char *why)
{
  g_set_error (error, WS_BASE_ERROR, WS_BASE_ERROR_FORMAT, "%s%s%s: %s", where != NULL ? where : "",
               where != NULL ? ": " : "", text, why);
  return FALSE;
}

/* "+5%", "+2 ms", "1.5us": the limit and whether it is a share. */
static gboolean
parse_limit (const char *text, double *limit, gboolean *percent)
{
  static const struct
  {
    const char *unit;
    double ns;
  } units[] = {
    { "ns", 1 }, { "us", 1e3 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
  };
  char *end = NULL;
  double v;

  while (*text == ' ' || *text == '\t')
    text++;
  if (*text == '+')
    text++;
  if (!g_ascii_isdigit (*text) && *text != '.')
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (v) || v < 0)
    return FALSE;
  while (*end == ' ' || *end == '\t')
    end++;
  if (g_str_equal (end, "%"))
    {
      *limit = v;
      *percent = TRUE;
      return TRUE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (end, units[i].unit))
      {
        *limit = v * units[i].ns;
        *percent = FALSE;
        return TRUE;
      }
  return FALSE;
}

/**
 * ws_budget_parse:
 * @text: "KIND[:PATTERN]=+LIMIT", LIMIT a percent or a time
 * @where: (nullable): "FILE:LINE", for messages
 *
 * Returns: whether @text is a budget; else @error says why in one line
 */
gboolean
ws_budget_parse (const char *text, const char *where, WsBudget *out, GError **error)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *equals = strrchr (copy, '=');
  char *kind, *pattern;

  memset (out, 0, sizeof *out);
  if (equals == NULL)
    return fail (error, where, copy, _ ("a budget is KIND=+LIMIT, as kernel:*gemm*=+5%"));
  *equals = '\0';
  kind = g_strstrip (copy);
  pattern = strchr (kind, ':');
  if (pattern != NULL)
    *pattern++ = '\0';
  if (g_str_equal (kind, "step"))
    out->kind = WS_BUDGET_STEP;
  else if (g_str_equal (kind, "kernel"))
    out->kind = WS_BUDGET_KERNEL;
  else if (g_str_equal (kind, "nvtx"))
    out->kind = WS_BUDGET_NVTX;
  else if (g_str_equal (kind, "total-gpu"))
    out->kind = WS_BUDGET_TOTAL_GPU;
  else
    return fail (error, where, text, _ ("the kind must be step, kernel, nvtx or total-gpu"));
  if ((out->kind == WS_BUDGET_KERNEL || out->kind == WS_BUDGET_NVTX) !=
      (pattern != NULL && *pattern != '\0'))
    return fail (error, where, text,
                 pattern == NULL || *pattern == '\0'
                   ? _ ("kernel and nvtx budgets name what they judge: kernel:NAME or nvtx:NAME")
                   : _ ("step and total-gpu budgets take no name"));
  if (!parse_limit (equals + 1, &out->limit, &out->percent))
    return fail (error, where, text,
                 _ ("the limit must be a percent or a time: +5%, +2 ms, +300 us"));
  out->pattern = pattern != NULL ? g_strdup (g_strstrip (pattern)) : NULL;
  out->text = g_strstrip (g_strdup (text));
  out->where = g_strdup (where);
  return TRUE;
}

/**
 * ws_budgets_read:
 * @path: a file of budgets, one a line; blank lines and # comments left
 *
 * Returns: (transfer full): the budgets (WsBudget), or %NULL with @error
 *   naming the file and line
 */
GArray *
ws_budgets_read (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) budgets = ws_budgets_new ();
  gsize len = 0;

  if (!ws_file_read_bounded (path, MAX_FILE_BYTES, &text, &len, error))
    return NULL;
  if (memchr (text, '\0', len) != NULL || !g_utf8_validate (text, (gssize) len, NULL))
    {
      fail (error, NULL, path, _ ("not a text file of budgets"));
      return NULL;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *where = g_strdup_printf ("%s:%u", path, i + 1);
      WsBudget budget;

      /* A '#' first or after a blank starts a comment; one inside a name
       * (nvtx:ProfilerStep#*) does not. */
      for (char *p = lines[i]; *p != '\0'; p++)
        if (*p == '#' && (p == lines[i] || p[-1] == ' ' || p[-1] == '\t'))
          {
            *p = '\0';
            break;
          }
      if (*g_strstrip (lines[i]) == '\0')
        continue;
      if (!ws_budget_parse (lines[i], where, &budget, error))
        return NULL;
      g_array_append_val (budgets, budget);
    }
  if (budgets->len == 0)
    {
      fail (error, NULL, path, _ ("no budgets in the file"));
      return NULL;
    }
  return g_steal_pointer (&budgets);
}
