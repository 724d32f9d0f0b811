/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernel-display"
#include "config.h"

#include <string.h>

#include "ws-kernel-display.h"
#include "ws-kernel-name.h"

/* A template argument longer than this is told by its class and its own
 * first telling argument ("ReduceOp<func_wrapper_t<sum_functor…>…>"). */
#define BRIEF_ARG_CHARS 48
#define BRIEF_DEPTH 3

static gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The length of "operator…" at @p with its symbol ("operator ()",
 * "operator<<"), or 0 when @p does not start the keyword. */
static gsize
operator_len (const char *start, const char *p)
{
  const char *q;

  if (strncmp (p, "operator", 8) != 0 || is_ident (p[8]) || (p > start && is_ident (p[-1])))
    return 0;
  q = p + 8;
  while (*q == ' ')
    q++;
  if ((q[0] == '(' && q[1] == ')') || (q[0] == '[' && q[1] == ']'))
    return (gsize) (q + 2 - p);
  while (*q != '\0' && strchr ("<>=!+-*%/&|^~,", *q) != NULL && q - p < 12)
    q++;
  return (gsize) (q - p);
}

/* Calls @visit for each character of @s that is not part of an operator
 * token, with the bracket depth before it; stops when it returns FALSE. */
typedef gboolean (*Visit) (const char *s, gsize i, int depth, gpointer data);

static void
walk (const char *s, Visit visit, gpointer data)
{
  int depth = 0;

  for (gsize i = 0; s[i] != '\0'; i++)
    {
      gsize op = operator_len (s, s + i);
      char c = s[i];

      if (op > 0)
        {
          i += op - 1;
          continue;
        }
      if (c == '-' && s[i + 1] == '>')
        {
          i++;
          continue;
        }
      if (g_str_has_prefix (s + i, "<unnamed>"))
        {
          if (!visit (s, i, depth, data))
            return;
          i += strlen ("<unnamed>") - 1;
          continue;
        }
      if (c == '>' || c == ')' || c == ']')
        depth = MAX (depth - 1, 0);
      if (!visit (s, i, depth, data))
        return;
      if (c == '<' || c == '(' || c == '[')
        depth++;
    }
}

typedef struct
{
  GPtrArray *parts;
  gsize from;
  char sep; /* ',' for arguments, ':' for "::" components */
} Split;

static gboolean
split_visit (const char *s, gsize i, int depth, gpointer data)
{
  Split *split = data;

  if (depth != 0)
    return TRUE;
  if (split->sep == ',' && s[i] == ',')
    {
      g_ptr_array_add (split->parts, g_strstrip (g_strndup (s + split->from, i - split->from)));
      split->from = i + 1;
    }
  else if (split->sep == ':' && s[i] == ':' && s[i + 1] == ':')
    {
      g_ptr_array_add (split->parts, g_strndup (s + split->from, i - split->from));
      split->from = i + 2;
    }
  return TRUE;
}

/* @s split at top-level commas, or at top-level "::". */
static GPtrArray *
split_top (const char *s, char sep)
{
  Split split = { g_ptr_array_new_with_free_func (g_free), 0, sep };

  walk (s, split_visit, &split);
  g_ptr_array_add (split.parts,
                   sep == ',' ? g_strstrip (g_strdup (s + split.from)) : g_strdup (s + split.from));
  return split.parts;
}

typedef struct
{
  gssize at;
  char want;
} Find;

static gboolean
find_visit (const char *s, gsize i, int depth, gpointer data)
{
  Find *find = data;

  if (depth == 0 && s[i] == find->want && !g_str_has_prefix (s + i, "<unnamed>"))
    {
      find->at = (gssize) i;
      return FALSE;
    }
  return TRUE;
}

/* The index of the first top-level @c in @s, or -1. */
static gssize
find_top (const char *s, char c)
{
  Find find = { -1, c };

  walk (s, find_visit, &find);
  return find.at;
}

/* "Kernel2<cutlass_80…>" → "Kernel2" and "cutlass_80…" (NULL without
 * template arguments). */
static char *
split_template (const char *component, char **args)
{
  gssize lt = find_top (component, '<');
  gsize len = strlen (component);

  *args = NULL;
  if (lt < 0)
    return g_strstrip (g_strdup (component));
  if (len > 0 && component[len - 1] == '>')
    *args = g_strndup (component + lt + 1, len - (gsize) lt - 2);
  return g_strstrip (g_strndup (component, (gsize) lt));
}

/* The last "::" component of a qualified name ("at::native::foo<int>" →
 * "foo<int>"). */
static char *
last_component (const char *qualified)
{
  g_autoptr (GPtrArray) parts = split_top (qualified, ':');

  return g_strdup (g_ptr_array_index (parts, parts->len - 1));
}

/* Casts of template arguments ("(int)4" → "4"), namespace and class
 * qualifiers ("at::native::", "<unnamed>::", "(anonymous namespace)::")
 * dropped; white space kept. */
static char *
simplify (const char *s)
{
  GString *out = g_string_new (NULL);
  gsize i = 0;

  while (s[i] != '\0')
    {
      char c = s[i];

      if (c == '(')
        {
          gsize j = i + 1;

          while (g_ascii_islower (s[j]) || s[j] == ' ' || s[j] == '_')
            j++;
          if (j > i + 1 && s[j] == ')' &&
              (g_ascii_isdigit (s[j + 1]) || (s[j + 1] == '-' && g_ascii_isdigit (s[j + 2]))))
            {
              i = j + 1;
              continue;
            }
        }
      if (g_str_has_prefix (s + i, "<unnamed>::"))
        {
          i += strlen ("<unnamed>::");
          continue;
        }
      if (g_str_has_prefix (s + i, "(anonymous namespace)::"))
        {
          i += strlen ("(anonymous namespace)::");
          continue;
        }
      if (g_ascii_isalpha (c) || c == '_')
        {
          gsize j = i;

          while (is_ident (s[j]))
            j++;
          if (s[j] == ':' && s[j + 1] == ':' && strncmp (s + i, "operator", 8) != 0)
            i = j + 2;
          else
            {
              g_string_append_len (out, s + i, j - i);
              i = j;
            }
          continue;
        }
      g_string_append_c (out, c);
      i++;
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_builtin_word (const char *word, gsize len)
{
  static const char *const words[] = {
    "void",    "bool",     "char",     "short",         "int",           "long",    "float",
    "double",  "unsigned", "signed",   "const",         "volatile",      "half",    "__half",
    "Half",    "BFloat16", "bfloat16", "__nv_bfloat16", "int8_t",        "int16_t", "int32_t",
    "int64_t", "uint8_t",  "uint16_t", "uint32_t",      "uint64_t",      "size_t",  "true",
    "false",   "uint4",    "float2",   "float4",        "Float8_e4m3fn",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    if (strlen (words[i]) == len && strncmp (words[i], word, len) == 0)
      return TRUE;
  return FALSE;
}

/* A number, or built-in scalar types only ("unsigned int", "char *",
 * "BFloat16"): an argument that tells little on its own. */
static gboolean
is_plain (const char *arg)
{
  for (gsize i = 0; arg[i] != '\0';)
    {
      if (is_ident (arg[i]))
        {
          gsize j = i;

          while (is_ident (arg[j]))
            j++;
          if (!g_ascii_isdigit (arg[i]) && !is_builtin_word (arg + i, j - i))
            return FALSE;
          i = j;
          continue;
        }
      if (strchr (" *&-.", arg[i]) == NULL)
        return FALSE;
      i++;
    }
  return TRUE;
}

typedef struct
{
  gboolean found;
} Lambda;

static gboolean
lambda_visit (const char *s, gsize i, int depth, gpointer data)
{
  Lambda *lambda = data;

  if (depth == 0 && g_str_has_prefix (s + i, "::[lambda"))
    {
      lambda->found = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda…]…":
 * a lambda, named here by the function that holds it. */
static gboolean
is_lambda (const char *arg)
{
  Lambda lambda = { FALSE };

  walk (arg, lambda_visit, &lambda);
  return lambda.found;
}

/* The function that holds a lambda, without namespaces or template
 * arguments: "direct_copy_kernel_cuda", or "sum_functor" for a lambda in
 * "sum_functor<…>::operator ()". */
static char *arg_brief (const char *arg, guint depth);
static guint first_telling (GPtrArray *args);

static char *
lambda_owner (const char *arg, guint depth)
{
  gssize paren = find_top (arg, '(');
  g_autofree char *head = g_strndup (arg, paren >= 0 ? (gsize) paren : strlen (arg));
  gssize space;
  g_autoptr (GPtrArray) parts = NULL;
  const char *owner;
  g_autofree char *args = NULL;
  g_autofree char *base = NULL;

  /* A return type before the function ("void at::native::f<…>"). */
  while ((space = find_top (head, ' ')) >= 0 && operator_len (head, head + space + 1) == 0 &&
         !g_str_has_suffix (head, "operator"))
    {
      char *rest = g_strdup (head + space + 1);

      g_free (head);
      head = rest;
    }
  parts = split_top (head, ':');
  owner = g_ptr_array_index (parts, parts->len - 1);
  if (g_str_has_prefix (owner, "operator") && parts->len > 1)
    owner = g_ptr_array_index (parts, parts->len - 2);
  base = split_template (owner, &args);
  /* "gpu_kernel_impl_nocast<CUDAFunctor_add<float>>": the holder's own
   * argument tells which lambda it is, unless it is a plain type. */
  if (args != NULL && args[0] != '\0' && depth < BRIEF_DEPTH)
    {
      g_autoptr (GPtrArray) list = split_top (args, ',');
      guint first = first_telling (list);
      g_autofree char *plain = simplify (g_ptr_array_index (list, first));

      if (!is_plain (plain))
        {
          g_autofree char *brief = arg_brief (g_ptr_array_index (list, first), depth + 1);

          return g_strdup_printf ("%s<%s>", base, brief);
        }
    }
  return g_steal_pointer (&base);
}

/* The first argument that tells: a functor or lambda, else the first that
 * is not a number, else the first. */
static guint
first_telling (GPtrArray *args)
{
  for (guint i = 0; i < args->len; i++)
    {
      g_autofree char *s = simplify (g_ptr_array_index (args, i));

      if (!is_plain (s))
        return i;
    }
  for (guint i = 0; i < args->len; i++)
    {
      const char *a = g_ptr_array_index (args, i);
      g_autofree char *s = simplify (a);

      if (!g_ascii_isdigit (s[0]) && s[0] != '-')
        return i;
    }
  return 0;
}

/* base<brief of the first telling argument, "…" for the rest>. */
static char *
template_brief (const char *base, const char *args_text, guint depth)
{
  g_autoptr (GPtrArray) args = split_top (args_text, ',');
  guint first = first_telling (args);
  g_autofree char *brief = arg_brief (g_ptr_array_index (args, first), depth + 1);
  gboolean more = args->len > 1 && !g_str_has_suffix (brief, "…");

  return g_strdup_printf ("%s<%s%s>", base, brief, more ? "…" : "");
}

static char *
arg_brief (const char *arg, guint depth)
{
  g_autofree char *s = NULL;
  g_autofree char *component = NULL;
  g_autofree char *args = NULL;
  g_autofree char *base = NULL;

  if (is_lambda (arg))
    {
      g_autofree char *owner = lambda_owner (arg, depth);

      return g_strdup_printf ("%s…", owner);
    }
  s = simplify (arg);
  if (g_utf8_strlen (s, -1) <= BRIEF_ARG_CHARS || find_top (s, '<') < 0)
    return g_steal_pointer (&s);
  if (depth >= BRIEF_DEPTH)
    return g_strdup ("…");
  component = last_component (arg);
  base = split_template (component, &args);
  if (args == NULL || args[0] == '\0')
    return g_steal_pointer (&s);
  {
    g_autofree char *plain_base = simplify (base);

    return template_brief (plain_base, args, depth);
  }
}

/* base<brief, brief, …>: every argument briefly. */
static char *
template_arguments (const char *base, const char *args_text)
{
  g_autoptr (GPtrArray) args = split_top (args_text, ',');
  GString *out = g_string_new (base);

  g_string_append_c (out, '<');
  for (guint i = 0; i < args->len; i++)
    {
      g_autofree char *brief = arg_brief (g_ptr_array_index (args, i), 1);

      g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", brief);
    }
  g_string_append_c (out, '>');
  return g_string_free (out, FALSE);
}

/**
 * ws_kernel_display_name:
 * @level: how much of the name to keep
 *
 * The display name of one kernel at @level; ws_kernel_display_names()
 * chooses the level that makes a set of names unique.
 *
 * Returns: (transfer full): the display name
 */
char *
ws_kernel_display_name (const char *name, WsKernelDisplayLevel level)
{
  WsKernelNameParts parts;
  g_autofree char *component = NULL;
  g_autofree char *base = NULL;
  g_autofree char *args = NULL;
  char *result;

  if (name == NULL)
    return g_strdup ("");
  if (level >= WS_KERNEL_DISPLAY_FULL)
    return g_strdup (name);

  ws_kernel_name_split (name, &parts);
  if (parts.function[0] == '\0')
    {
      ws_kernel_name_parts_clear (&parts);
      return g_strdup (name);
    }
  if (level == WS_KERNEL_DISPLAY_SIGNATURE)
    {
      g_autofree char *signature = g_strconcat (parts.function, parts.parameters, NULL);

      ws_kernel_name_parts_clear (&parts);
      return simplify (signature);
    }
  if (level == WS_KERNEL_DISPLAY_FUNCTION)
    {
      result = simplify (parts.function);
      ws_kernel_name_parts_clear (&parts);
      return result;
    }

  component = last_component (parts.function);
  base = split_template (component, &args);
  if (args == NULL || args[0] == '\0')
    result = g_strdup (component);
  else if (level == WS_KERNEL_DISPLAY_BRIEF)
    result = template_brief (base, args, 0);
  else
    result = template_arguments (base, args);
  ws_kernel_name_parts_clear (&parts);
  return result;
}

/* Common prefix and suffix lengths of two character arrays. */
static glong
common_prefix (const gunichar *a, glong la, const gunichar *b, glong lb)
{
  glong k = 0;

  while (k < la && k < lb && a[k] == b[k])
    k++;
  return k;
}

static glong
common_suffix (const gunichar *a, glong la, const gunichar *b, glong lb)
{
  glong k = 0;

  while (k < la && k < lb && a[la - 1 - k] == b[lb - 1 - k])
    k++;
  return k;
}

static void
append_chars (GString *out, const gunichar *chars, glong from, glong to)
{
  for (glong k = from; k < to; k++)
    g_string_append_unichar (out, chars[k]);
}

static gboolean
is_separator (gunichar c)
{
  return c == ' ' || c == '<' || c == '(' || c == ',' || c == '[' || c == '_' || c == ':';
}

/* Where to show what differs from: a little before @differs, at the start
 * of a word ("_64x3_nt_align8" rather than "t_align8"). */
static glong
context_start (const gunichar *label, glong differs)
{
  glong nearest = differs;

  for (glong j = differs - 1; j >= 0 && j >= differs - 24; j--)
    if (is_separator (label[j]))
      {
        if (differs - (j + 1) >= 6)
          return j + 1;
        if (nearest == differs)
          nearest = j + 1;
      }
  return nearest;
}

/* @label (@len characters) in @max_chars: its start, then what tells it
 * from the nearest other name (from character @differs on, up to @until),
 * with "…" for what was left out. */
static char *
fit_one (const gunichar *label, glong len, glong differs, glong until, glong max_chars)
{
  GString *out = g_string_new (NULL);
  glong context = context_start (label, differs);
  glong word = differs;
  glong starts[3];

  while (word > 0 && differs - word < 24 && !is_separator (label[word - 1]))
    word--;
  if (differs - word >= 24)
    word = differs;
  starts[0] = context;
  starts[1] = word;
  starts[2] = differs;
  glong head, tail, middle, start;

  /* What differs reads to the end of its word ("tn", not "t"). */
  for (glong end = until; end < len && end - until < 8; end++)
    if (is_separator (label[end]) || label[end] == '>' || label[end] == ')')
      {
        until = end;
        break;
      }
  if (until <= max_chars - 1)
    {
      /* What differs is near the start: keep it, and the end (often
       * telling: "…execute_kernel__5x_cublas"), without the middle. */
      tail = MIN (MIN (len - until, max_chars / 4), max_chars - 1 - until);
      append_chars (out, label, 0, max_chars - 1 - tail);
      g_string_append (out, "…");
      append_chars (out, label, len - tail, len);
      return g_string_free (out, FALSE);
    }
  for (gsize k = 0; k < G_N_ELEMENTS (starts); k++)
    if (len - starts[k] + 1 + MIN (starts[k], 16) <= max_chars)
      {
        /* What differs runs to the end: elide part of the shared start. */
        head = max_chars - 1 - (len - starts[k]);
        append_chars (out, label, 0, head);
        g_string_append (out, "…");
        append_chars (out, label, starts[k], len);
        return g_string_free (out, FALSE);
      }
  /* The start, what differs, the end; what they share elided between. */
  head = MIN (differs, max_chars / 4);
  tail = MIN (len - until, max_chars / 6);
  middle = max_chars - head - tail - (head < differs ? 1 : 0) - (tail > 0 ? 1 : 0);
  start = until - differs <= middle ? MAX (context, until - middle) : differs;
  start = MAX (start, head);
  append_chars (out, label, 0, head);
  if (head < start)
    g_string_append (out, "…");
  append_chars (out, label, start, MIN (start + middle, len - tail));
  if (tail > 0)
    {
      g_string_append (out, "…");
      append_chars (out, label, len - tail, len);
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_kernel_display_fit:
 * @labels: (array length=n): names as they would be shown
 * @max_chars: the most characters a name may take (at least 8)
 *
 * The one shortening of names that every view, table and export shows:
 * a name longer than @max_chars keeps its start and what tells it from
 * the other names (where it parts from the name it shares most with, at
 * either end), and gives up, behind "…", what it shares with them.
 * Distinct names stay distinct; equal names stay equal.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names to show
 */
char **
ws_kernel_display_fit (const char *const *labels, guint n, guint max_chars)
{
  char **out = g_new0 (char *, n + 1);
  g_autofree gunichar **chars = g_new0 (gunichar *, MAX (n, 1));
  g_autofree glong *lens = g_new0 (glong, MAX (n, 1));

  g_return_val_if_fail (max_chars >= 8, out);

  for (guint i = 0; i < n; i++)
    chars[i] = g_utf8_to_ucs4_fast (labels[i], -1, &lens[i]);
  for (guint i = 0; i < n; i++)
    {
      glong prefix = 0, suffix = 0;

      if (lens[i] <= (glong) max_chars)
        {
          out[i] = g_strdup (labels[i]);
          continue;
        }
      for (guint j = 0; j < n; j++)
        {
          if (j == i || g_str_equal (labels[i], labels[j]))
            continue;
          prefix = MAX (prefix, common_prefix (chars[i], lens[i], chars[j], lens[j]));
          suffix = MAX (suffix, common_suffix (chars[i], lens[i], chars[j], lens[j]));
        }
      prefix = MIN (prefix, lens[i] - 1);
      out[i] =
        fit_one (chars[i], lens[i], prefix, MAX (lens[i] - suffix, prefix + 1), (glong) max_chars);
    }
  for (guint i = 0; i < n; i++)
    g_free (chars[i]);
  return out;
}

/**
 * ws_kernel_display_names:
 * @names: (array length=n): full kernel names (demangled, as nsys prints them)
 *
 * A display name for each of @names, unique among them: each name starts
 * brief, and the names that would read alike get the next level of detail
 * until none do; then names past WS_KERNEL_DISPLAY_MAX_CHARS are fitted
 * (ws_kernel_display_fit()).  Equal names get equal display names.
 *
 * Returns: (transfer full) (array zero-terminated=1): the display names
 */
char **
ws_kernel_display_names (const char *const *names, guint n)
{
  char **labels = g_new0 (char *, n + 1);
  g_autofree guint8 *level = g_new0 (guint8, MAX (n, 1));
  g_autofree gboolean *bump = g_new0 (gboolean, MAX (n, 1));
  gboolean changed = TRUE;

  for (guint i = 0; i < n; i++)
    labels[i] = ws_kernel_display_name (names[i], WS_KERNEL_DISPLAY_BRIEF);

  while (changed)
    {
      /* display name → the first full name that has it, or a mark when
       * two different full names do. */
      g_autoptr (GHashTable) owner = g_hash_table_new (g_str_hash, g_str_equal);
      static const char clash[] = "";

      changed = FALSE;
      for (guint i = 0; i < n; i++)
        {
          const char *seen = g_hash_table_lookup (owner, labels[i]);

          if (seen == NULL)
            g_hash_table_insert (owner, labels[i], (gpointer) names[i]);
          else if (seen != clash && g_strcmp0 (seen, names[i]) != 0)
            g_hash_table_insert (owner, labels[i], (gpointer) clash);
        }
      /* Marked first, renamed after: the table's keys are the labels. */
      for (guint i = 0; i < n; i++)
        bump[i] = g_hash_table_lookup (owner, labels[i]) == clash &&
                  level[i] + 1 < WS_KERNEL_DISPLAY_N_LEVELS;
      for (guint i = 0; i < n; i++)
        if (bump[i])
          {
            level[i]++;
            g_free (labels[i]);
            labels[i] = ws_kernel_display_name (names[i], (WsKernelDisplayLevel) level[i]);
            changed = TRUE;
          }
    }
  {
    char **fitted =
      ws_kernel_display_fit ((const char *const *) labels, n, WS_KERNEL_DISPLAY_MAX_CHARS);

    g_strfreev (labels);
    return fitted;
  }
}
