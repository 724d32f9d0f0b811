/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-target-list"
#include "config.h"

#include <string.h>

#include "ws-atomic-file.h"
#include "ws-capture-error.h"
#include "ws-file.h"
#include "ws-target-list.h"

/* A targets file is a few rows of text; /dev/zero is not one. */
#define WS_TARGET_LIST_MAX_BYTES ((gsize) 16 << 20)

/* A targets file is kept as its lines, so that writing back a file that
 * was not edited gives the same bytes, and edits leave comments, blank
 * lines, the header and the line endings where they were.  A row that was
 * not edited is written from its original text. */

typedef enum
{
  LINE_OTHER,  /* a comment or a blank line */
  LINE_HEADER, /* the header row */
  LINE_ROW,    /* a target */
} LineKind;

typedef struct
{
  LineKind kind;
  char *text;      /* as read, without its line end; NULL for rows made here */
  const char *eol; /* "\n", "\r\n", or "" for a last line without one */
  char *fields[WS_TARGET_N_COLUMNS];
  guint n_columns; /* TAB-separated columns as read */
  gboolean edited; /* written from fields, not from text */
} Line;

struct _WsTargetList
{
  GObject parent_instance;

  char *path;
  GPtrArray *lines; /* of Line */
  /* The index in lines of each row (a target), built when asked and
   * dropped when lines are added or removed: a file of thousands of
   * targets is read row by row. */
  GArray *rows; /* guint, or NULL */
  gboolean bom;
  const char *eol; /* for new lines: the file's own */
  gboolean modified;
  char **known_hosts; /* HOST names the settings define; not part of the file */
};

G_DEFINE_FINAL_TYPE (WsTargetList, ws_target_list, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_PATH,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *const column_names[WS_TARGET_N_COLUMNS] = { "NAME", "CMD", "WORKDIR", "ENVS",
                                                               "HOST" };
static const char *const legacy_names[WS_TARGET_N_COLUMNS] = { "id", "cmd", "workdir", "env",
                                                               "host" };

static void
line_free (Line *line)
{
  g_free (line->text);
  for (guint i = 0; i < WS_TARGET_N_COLUMNS; i++)
    g_free (line->fields[i]);
  g_free (line);
}

const char *
ws_target_column_name (WsTargetColumn column)
{
  g_return_val_if_fail (column < WS_TARGET_N_COLUMNS, NULL);
  return column_names[column];
}

/* WORKDIR or ENVS may be empty or `-` (docs/formats.md, "targets.tsv"). */
gboolean
ws_target_value_is_empty (const char *value)
{
  if (value == NULL)
    return TRUE;
  while (g_ascii_isspace (*value))
    value++;
  return value[0] == '\0' || (value[0] == '-' && value[1] == '\0');
}

static void
ws_target_list_finalize (GObject *object)
{
  WsTargetList *self = WS_TARGET_LIST (object);

  g_free (self->path);
  g_ptr_array_unref (self->lines);
  g_clear_pointer (&self->rows, g_array_unref);
  g_strfreev (self->known_hosts);

  G_OBJECT_CLASS (ws_target_list_parent_class)->finalize (object);
}

static void
ws_target_list_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  WsTargetList *self = WS_TARGET_LIST (object);

  switch (prop_id)
    {
      case PROP_PATH:
        g_value_set_string (value, self->path);
        break;
      case PROP_MODIFIED:
        g_value_set_boolean (value, self->modified);
        break;
      default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_target_list_class_init (WsTargetListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_target_list_finalize;
  object_class->get_property = ws_target_list_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * WsTargetList::changed:
   *
   * A row was edited, added, removed or moved.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_target_list_init (WsTargetList *self)
{
  self->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) line_free);
  self->eol = "\n";
}

static void
changed (WsTargetList *self)
{
  if (!self->modified)
    {
      self->modified = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
    }
  g_signal_emit (self, signals[CHANGED], 0);
}

static gboolean
is_comment_or_blank (const char *text)
{
  while (*text == ' ' || *text == '\t')
    text++;
  return *text == '\0' || *text == '#' || (*text == '\r' && text[1] == '\0');
}

/* A header names the four columns of the workflow, or those and HOST. */
static gboolean
fields_match (char *const *fields, guint n, const char *const *names)
{
  if (n != WS_TARGET_N_BASIC_COLUMNS && n != WS_TARGET_N_COLUMNS)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *field = g_strstrip (g_strdup (fields[i]));

      if (g_ascii_strcasecmp (field, names[i]) != 0)
        return FALSE;
    }
  return TRUE;
}

/* Splits a row on TAB.  Targets files are not quoted CSV: a `"` in CMD is
 * the shell's, so a plain split is the faithful reading.  Columns beyond
 * the fifth stay in HOST (TABs included) so that nothing is lost, and
 * validation reports them. */
static void
split_row (Line *line, const char *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "\t", -1);
  guint n = g_strv_length (parts);

  line->n_columns = n;
  for (guint i = 0; i < WS_TARGET_N_COLUMNS; i++)
    {
      if (i == WS_TARGET_N_COLUMNS - 1 && n > WS_TARGET_N_COLUMNS)
        line->fields[i] = g_strjoinv ("\t", parts + i);
      else
        line->fields[i] = g_strdup (i < n ? parts[i] : "");
    }
}

/**
 * ws_target_list_new:
 *
 * Returns: (transfer full): an empty list with the header
 * `NAME CMD WORKDIR ENVS` and LF line ends
 */
WsTargetList *
ws_target_list_new (void)
{
  WsTargetList *self = g_object_new (WS_TYPE_TARGET_LIST, NULL);
  Line *header = g_new0 (Line, 1);

  header->kind = LINE_HEADER;
  header->text = g_strdup ("NAME\tCMD\tWORKDIR\tENVS");
  split_row (header, header->text);
  header->eol = "\n";
  g_ptr_array_add (self->lines, header);
  g_clear_pointer (&self->rows, g_array_unref);
  return self;
}

/**
 * ws_target_list_new_from_data:
 * @path: (nullable): the file it came from: for messages, and relative
 *   WORKDIRs are relative to its folder
 *
 * Reads any text: a line that is neither a comment, a blank line nor the
 * header is a row, and what is wrong with a row is for
 * ws_target_list_validate() to say.
 *
 * Returns: (transfer full): the list
 */
WsTargetList *
ws_target_list_new_from_data (const char *data, gsize len, const char *path)
{
  WsTargetList *self = g_object_new (WS_TYPE_TARGET_LIST, NULL);
  const char *p = data;
  const char *end = data + len;
  gboolean seen_content = FALSE;
  gboolean eol_known = FALSE;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  self->path = g_strdup (path);
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      self->bom = TRUE;
      p += 3;
    }

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *text_end = nl != NULL ? nl : end;
      Line *line = g_new0 (Line, 1);

      if (nl != NULL && nl > p && nl[-1] == '\r')
        {
          text_end = nl - 1;
          line->eol = "\r\n";
        }
      else
        line->eol = nl != NULL ? "\n" : "";
      if (!eol_known && nl != NULL)
        {
          self->eol = line->eol;
          eol_known = TRUE;
        }
      line->text = g_strndup (p, text_end - p);
      p = nl != NULL ? nl + 1 : end;

      if (is_comment_or_blank (line->text))
        line->kind = LINE_OTHER;
      else
        {
          line->kind = LINE_ROW;
          split_row (line, line->text);
          if (!seen_content && (fields_match (line->fields, line->n_columns, column_names) ||
                                fields_match (line->fields, line->n_columns, legacy_names)))
            line->kind = LINE_HEADER;
          seen_content = TRUE;
        }
      g_ptr_array_add (self->lines, line);
    }
  g_clear_pointer (&self->rows, g_array_unref);
  return self;
}

/**
 * ws_target_list_new_from_file:
 *
 * Returns: (transfer full): the list, or %NULL with @error set when the
 *   file cannot be read or is not text
 */
WsTargetList *
ws_target_list_new_from_file (const char *path, GError **error)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);

  if (!ws_file_read_bounded (path, WS_TARGET_LIST_MAX_BYTES, &contents, &len, error))
    return NULL;
  if (!g_utf8_validate_len (contents, len, NULL) || memchr (contents, '\0', len) != NULL)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s: not a targets file (not UTF-8 text)", path);
      return NULL;
    }
  return ws_target_list_new_from_data (contents, len, path);
}

/* An edited row is its cells joined by TABs: four, as the workflow's
 * files have them, unless it has a HOST or its line had a fifth column. */
static void
append_line (GString *out, const Line *line)
{
  if (line->kind == LINE_ROW && (line->edited || line->text == NULL))
    {
      guint n = line->fields[WS_TARGET_HOST][0] != '\0' || line->n_columns > WS_TARGET_HOST
                  ? WS_TARGET_N_COLUMNS
                  : WS_TARGET_N_BASIC_COLUMNS;

      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, '\t');
          g_string_append (out, line->fields[i]);
        }
    }
  else
    g_string_append (out, line->text);
  g_string_append (out, line->eol);
}

/**
 * ws_target_list_to_data:
 *
 * Returns: (transfer full): the file's bytes, equal to what was read for
 *   every line that was not edited
 */
char *
ws_target_list_to_data (WsTargetList *self, gsize *len)
{
  GString *out = g_string_new (self->bom ? "\xEF\xBB\xBF" : "");

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);

  for (guint i = 0; i < self->lines->len; i++)
    append_line (out, g_ptr_array_index (self->lines, i));
  if (len != NULL)
    *len = out->len;
  return g_string_free (out, FALSE);
}

/**
 * ws_target_list_save:
 *
 * Writes the list to @path atomically, keeping the previous version as
 * `PATH~`; the list then refers to @path and is not modified.
 */
gboolean
ws_target_list_save (WsTargetList *self, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = ws_target_list_to_data (self, &len);
  if (!ws_atomic_file_save (path, data, len, WS_ATOMIC_FILE_BACKUP, error))
    return FALSE;
  ws_target_list_set_path (self, path);
  ws_target_list_set_modified (self, FALSE);
  return TRUE;
}

/**
 * ws_target_list_get_path:
 *
 * Returns: (transfer none) (nullable): the file the list was read from or
 *   saved to
 */
const char *
ws_target_list_get_path (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);
  return self->path;
}

void
ws_target_list_set_path (WsTargetList *self, const char *path)
{
  g_return_if_fail (WS_IS_TARGET_LIST (self));

  if (g_strcmp0 (self->path, path) == 0)
    return;
  g_free (self->path);
  self->path = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
}

/**
 * ws_target_list_get_base_dir:
 *
 * Returns: (transfer full): the absolute folder relative WORKDIRs start
 *   from: the file's folder, or the current folder for a list not saved yet
 */
char *
ws_target_list_get_base_dir (WsTargetList *self)
{
  g_autofree char *dir = NULL;
  g_autoptr (GFile) file = NULL;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);

  if (self->path == NULL)
    return g_get_current_dir ();
  dir = g_path_get_dirname (self->path);
  file = g_file_new_for_path (dir);
  return g_file_get_path (file);
}

WsTargetsHeader
ws_target_list_get_header (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), WS_TARGETS_HEADER_NONE);

  for (guint i = 0; i < self->lines->len; i++)
    {
      const Line *line = g_ptr_array_index (self->lines, i);

      if (line->kind == LINE_HEADER)
        return fields_match (line->fields, line->n_columns, legacy_names)
                 ? WS_TARGETS_HEADER_LEGACY
                 : WS_TARGETS_HEADER_NAME_CMD;
    }
  return WS_TARGETS_HEADER_NONE;
}

gboolean
ws_target_list_get_crlf (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);
  return g_str_equal (self->eol, "\r\n");
}

gboolean
ws_target_list_get_modified (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);
  return self->modified;
}

void
ws_target_list_set_modified (WsTargetList *self, gboolean modified)
{
  g_return_if_fail (WS_IS_TARGET_LIST (self));

  modified = !!modified;
  if (self->modified == modified)
    return;
  self->modified = modified;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

static GArray *
rows_of (WsTargetList *self)
{
  if (self->rows == NULL)
    {
      self->rows = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < self->lines->len; i++)
        if (((const Line *) g_ptr_array_index (self->lines, i))->kind == LINE_ROW)
          g_array_append_val (self->rows, i);
    }
  return self->rows;
}

/* The index in lines of the row-th target, or lines->len. */
static guint
row_line (WsTargetList *self, guint row)
{
  GArray *rows = rows_of (self);

  return row < rows->len ? g_array_index (rows, guint, row) : self->lines->len;
}

static Line *
get_row (WsTargetList *self, guint row)
{
  guint i = row_line (self, row);

  return i < self->lines->len ? g_ptr_array_index (self->lines, i) : NULL;
}

guint
ws_target_list_get_n_targets (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), 0);

  return rows_of (self)->len;
}

/**
 * ws_target_list_get:
 *
 * Returns: (transfer none): the cell's text as written, `-` included
 */
const char *
ws_target_list_get (WsTargetList *self, guint row, WsTargetColumn column)
{
  Line *line;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);
  g_return_val_if_fail (column < WS_TARGET_N_COLUMNS, NULL);

  line = get_row (self, row);
  g_return_val_if_fail (line != NULL, NULL);
  return line->fields[column];
}

/* The 1-based line of the row in the file as it would be written now. */
guint
ws_target_list_get_line (WsTargetList *self, guint row)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), 0);
  return row_line (self, row) + 1;
}

/* The number of TAB-separated columns the row's line had as read (4 for a
 * row made here): more than 4 means ENVS holds the extra ones. */
guint
ws_target_list_get_n_columns (WsTargetList *self, guint row)
{
  const Line *line;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), 0);

  line = get_row (self, row);
  g_return_val_if_fail (line != NULL, 0);
  return line->n_columns;
}

/* The row whose NAME is @name, or -1. */
int
ws_target_list_find (WsTargetList *self, const char *name)
{
  guint n;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), -1);

  n = ws_target_list_get_n_targets (self);
  for (guint row = 0; row < n; row++)
    if (g_strcmp0 (ws_target_list_get (self, row, WS_TARGET_NAME), name) == 0)
      return (int) row;
  return -1;
}

/**
 * ws_target_list_is_remote:
 *
 * Returns: whether the row runs on another machine: its HOST is neither
 *   empty nor `-`
 */
gboolean
ws_target_list_is_remote (WsTargetList *self, guint row)
{
  const char *host;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);

  host = ws_target_list_get (self, row, WS_TARGET_HOST);
  return !ws_target_value_is_empty (host);
}

/**
 * ws_target_list_set_known_hosts:
 * @names: (nullable): the hosts of the settings, by name
 *
 * What a HOST cell may name besides an ssh destination: for validation
 * and the editor; it is not written to the file.
 */
void
ws_target_list_set_known_hosts (WsTargetList *self, const char *const *names)
{
  g_return_if_fail (WS_IS_TARGET_LIST (self));

  g_strfreev (self->known_hosts);
  self->known_hosts = g_strdupv ((char **) names);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * ws_target_list_get_known_hosts:
 *
 * Returns: (transfer none) (nullable): the names given to
 *   ws_target_list_set_known_hosts()
 */
const char *const *
ws_target_list_get_known_hosts (WsTargetList *self)
{
  g_return_val_if_fail (WS_IS_TARGET_LIST (self), NULL);
  return (const char *const *) self->known_hosts;
}

/* The header of a file whose rows gain a HOST gets that column too, so
 * that the file still reads as a table. */
static void
add_host_to_header (WsTargetList *self)
{
  for (guint i = 0; i < self->lines->len; i++)
    {
      Line *line = g_ptr_array_index (self->lines, i);
      char *text;

      if (line->kind != LINE_HEADER)
        continue;
      if (line->n_columns > WS_TARGET_HOST)
        return;
      text = g_strconcat (
        line->text, "\t",
        fields_match (line->fields, line->n_columns, legacy_names) ? "host" : "HOST", NULL);
      g_free (line->text);
      line->text = text;
      for (guint c = 0; c < WS_TARGET_N_COLUMNS; c++)
        g_free (line->fields[c]);
      split_row (line, line->text);
      return;
    }
}

/* A cell cannot hold a TAB or a line break: they would change the file's
 * columns or rows. */
static char *
clean_value (const char *value)
{
  char *clean = g_strdup (value != NULL ? value : "");

  g_strdelimit (clean, "\t\r\n", ' ');
  return clean;
}

void
ws_target_list_set (WsTargetList *self, guint row, WsTargetColumn column, const char *value)
{
  g_autofree char *clean = NULL;
  Line *line;

  g_return_if_fail (WS_IS_TARGET_LIST (self));
  g_return_if_fail (column < WS_TARGET_N_COLUMNS);

  line = get_row (self, row);
  g_return_if_fail (line != NULL);

  clean = clean_value (value);
  if (g_str_equal (line->fields[column], clean))
    return;
  g_free (line->fields[column]);
  line->fields[column] = g_steal_pointer (&clean);
  line->edited = TRUE;
  if (column == WS_TARGET_HOST && line->fields[column][0] != '\0')
    add_host_to_header (self);
  changed (self);
}

/* New lines end as the file's lines do; a last line without an end gets
 * one first, so that the new row starts on its own line. */
static void
prepare_insert_at (WsTargetList *self, guint index)
{
  if (index == self->lines->len && index > 0)
    {
      Line *last = g_ptr_array_index (self->lines, index - 1);

      if (last->eol[0] == '\0')
        last->eol = self->eol;
    }
}

/**
 * ws_target_list_insert:
 * @position: the index the new row gets; the number of targets to append
 * @fields: (array fixed-size=4) (nullable): NAME, CMD, WORKDIR, ENVS; a
 *   HOST is set afterwards (ws_target_list_set())
 *
 * The row goes right after the row before it, so that a comment above the
 * row at @position stays above that row.
 *
 * Returns: the new row's index
 */
guint
ws_target_list_insert (WsTargetList *self, guint position, const char *const *fields)
{
  guint n, index;
  Line *line;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), 0);

  n = ws_target_list_get_n_targets (self);
  position = MIN (position, n);
  if (position == 0)
    index = n > 0 ? row_line (self, 0) : self->lines->len;
  else
    index = row_line (self, position - 1) + 1;

  prepare_insert_at (self, index);
  line = g_new0 (Line, 1);
  line->kind = LINE_ROW;
  line->eol = self->eol;
  line->n_columns = WS_TARGET_N_BASIC_COLUMNS;
  line->edited = TRUE;
  for (guint i = 0; i < WS_TARGET_N_COLUMNS; i++)
    line->fields[i] =
      clean_value (fields != NULL && i < WS_TARGET_N_BASIC_COLUMNS ? fields[i] : "");
  g_ptr_array_insert (self->lines, (int) index, line);
  g_clear_pointer (&self->rows, g_array_unref);
  changed (self);
  return position;
}

void
ws_target_list_remove (WsTargetList *self, guint row)
{
  guint index;

  g_return_if_fail (WS_IS_TARGET_LIST (self));

  index = row_line (self, row);
  g_return_if_fail (index < self->lines->len);
  g_ptr_array_remove_index (self->lines, index);
  g_clear_pointer (&self->rows, g_array_unref);
  changed (self);
}

/**
 * ws_target_list_duplicate:
 *
 * Inserts a copy of @row after it, named `NAME_copy` (or `NAME_copy2`, …)
 * so that names stay unique.
 *
 * Returns: the copy's index
 */
guint
ws_target_list_duplicate (WsTargetList *self, guint row)
{
  const char *fields[WS_TARGET_N_COLUMNS];
  g_autofree char *name = NULL;
  Line *line;
  guint copy;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), 0);

  line = get_row (self, row);
  g_return_val_if_fail (line != NULL, 0);

  name = g_strconcat (line->fields[WS_TARGET_NAME], "_copy", NULL);
  for (guint i = 2; ws_target_list_find (self, name) >= 0; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s_copy%u", line->fields[WS_TARGET_NAME], i);
    }
  for (guint i = 0; i < WS_TARGET_N_COLUMNS; i++)
    fields[i] = line->fields[i];
  fields[WS_TARGET_NAME] = name;
  copy = ws_target_list_insert (self, row + 1, fields);
  if (fields[WS_TARGET_HOST][0] != '\0')
    ws_target_list_set (self, copy, WS_TARGET_HOST, fields[WS_TARGET_HOST]);
  return copy;
}

/**
 * ws_target_list_move:
 * @delta: -1 for up, 1 for down
 *
 * Swaps the row with its neighbour.  The lines stay where they are and
 * exchange their rows: comments keep their places in the file.
 *
 * Returns: %FALSE when there is no neighbour that way
 */
gboolean
ws_target_list_move (WsTargetList *self, guint row, int delta)
{
  gint64 other = (gint64) row + delta;
  guint a, b;
  Line tmp;
  Line *la, *lb;

  g_return_val_if_fail (WS_IS_TARGET_LIST (self), FALSE);

  if (delta == 0 || other < 0 || other >= ws_target_list_get_n_targets (self) ||
      row >= ws_target_list_get_n_targets (self))
    return FALSE;
  a = row_line (self, row);
  b = row_line (self, (guint) other);
  la = g_ptr_array_index (self->lines, a);
  lb = g_ptr_array_index (self->lines, b);

  /* Each line keeps its own line end. */
  tmp = *la;
  memcpy (la->fields, lb->fields, sizeof la->fields);
  memcpy (lb->fields, tmp.fields, sizeof lb->fields);
  la->text = lb->text;
  lb->text = tmp.text;
  la->n_columns = lb->n_columns;
  lb->n_columns = tmp.n_columns;
  la->edited = lb->edited;
  lb->edited = tmp.edited;
  changed (self);
  return TRUE;
}
