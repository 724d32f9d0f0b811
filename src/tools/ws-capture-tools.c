/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-tools"
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ws-capture-process.h"
#include "ws-capture-tools.h"
#include "ws-error.h"

/* Runs in the child between fork and exec: a process group of its own, so
 * that cancelling reaches everything the tool starts (nsys and ncu start
 * the program, which may start more) and nothing else. */
void
ws_capture_child_setup (gpointer data)
{
  setpgid (0, 0);
}

/* The same, for a command that must not outlive the program: SIGKILL when
 * the thread that started it ends, which for a thread that waits for the
 * command is when the program dies.  @data is the program's pid, to see
 * whether it died before the request was made. */
void
ws_capture_child_setup_tied (gpointer data)
{
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != (pid_t) GPOINTER_TO_INT (data))
    _exit (127);
}

/* Whether any process of the group is still there (zombies included). */
gboolean
ws_capture_group_alive (GPid pgid)
{
  if (pgid <= 1)
    return FALSE;
  return kill (-pgid, 0) == 0 || errno == EPERM;
}

typedef struct
{
  char *version; /* the folder's version, for ordering */
  char *path;
} Candidate;

static void
candidate_free (Candidate *candidate)
{
  g_free (candidate->version);
  g_free (candidate->path);
  g_free (candidate);
}

/* Compares versions such as "2025.3.2" and "2023.10.1" number by number. */
static int
compare_versions (const char *a, const char *b)
{
  while (*a != '\0' || *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          guint64 na = g_ascii_strtoull (a, (char **) &a, 10);
          guint64 nb = g_ascii_strtoull (b, (char **) &b, 10);

          if (na != nb)
            return na < nb ? -1 : 1;
          continue;
        }
      if (*a != *b)
        return (guchar) *a < (guchar) *b ? -1 : 1;
      a++;
      b++;
    }
  return 0;
}

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *ca = *(Candidate **) a;
  const Candidate *cb = *(Candidate **) b;

  /* Newest first. */
  return compare_versions (cb->version, ca->version);
}

static gboolean
is_program (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

static void
add_if_program (GPtrArray *candidates, const char *version, const char *path)
{
  Candidate *candidate;

  if (!is_program (path))
    return;
  candidate = g_new0 (Candidate, 1);
  candidate->version = g_strdup (version);
  candidate->path = g_strdup (path);
  g_ptr_array_add (candidates, candidate);
}

/* Install folders named PREFIX* in @parent, holding @sub either directly
 * (`nsight-systems-2023.4/bin/nsys`) or under a version folder
 * (`nsight-systems/2025.3.2/bin/nsys`). */
static void
collect (GPtrArray *candidates, const char *parent, const char *prefix, const char *sub)
{
  g_autoptr (GDir) dir = g_dir_open (parent, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *folder = NULL;
      g_autofree char *direct = NULL;
      g_autoptr (GDir) inner = NULL;
      const char *version = entry + strlen (prefix);
      const char *child;

      if (!g_str_has_prefix (entry, prefix))
        continue;
      while (*version != '\0' && !g_ascii_isdigit (*version))
        version++;
      folder = g_build_filename (parent, entry, NULL);
      direct = g_build_filename (folder, sub, NULL);
      add_if_program (candidates, version, direct);

      inner = g_dir_open (folder, 0, NULL);
      while (inner != NULL && (child = g_dir_read_name (inner)) != NULL)
        if (g_ascii_isdigit (child[0]))
          {
            g_autofree char *path = g_build_filename (folder, child, sub, NULL);

            add_if_program (candidates, child, path);
          }
    }
}

static char *
best (GPtrArray *candidates)
{
  if (candidates->len == 0)
    return NULL;
  g_ptr_array_sort (candidates, compare_candidates);
  return g_strdup (((Candidate *) g_ptr_array_index (candidates, 0))->path);
}

/**
 * ws_capture_tools_find_in:
 * @name: "nsys" or "ncu"
 * @path_env: (nullable): a PATH value
 * @root: (nullable): prefix of the install folders, for tests; NULL is "/"
 *
 * Looks for the program on @path_env, then in /usr/local/cuda/bin and
 * /usr/local/cuda-*\/bin, then in the Nsight install folders
 * (/opt/nvidia/nsight-systems*, /opt/nvidia/nsight-compute*); among
 * several versions the newest wins.
 *
 * Returns: (transfer full) (nullable): the program's path
 */
char *
ws_capture_tools_find_in (const char *name, const char *path_env, const char *root)
{
  g_autoptr (GPtrArray) candidates =
    g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);
  g_autofree char *usr_local = NULL;
  g_autofree char *cuda = NULL;
  g_autofree char *opt = NULL;
  g_autofree char *sub = NULL;
  char *found;

  g_return_val_if_fail (name != NULL, NULL);

  if (root == NULL)
    root = "/";
  if (path_env != NULL)
    {
      g_auto (GStrv) dirs = g_strsplit (path_env, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; dirs[i] != NULL; i++)
        {
          g_autofree char *path = NULL;

          if (dirs[i][0] == '\0')
            continue;
          path = g_build_filename (dirs[i], name, NULL);
          if (is_program (path))
            return g_steal_pointer (&path);
        }
    }

  cuda = g_build_filename (root, "usr", "local", "cuda", "bin", name, NULL);
  if (is_program (cuda))
    return g_steal_pointer (&cuda);
  usr_local = g_build_filename (root, "usr", "local", NULL);
  sub = g_build_filename ("bin", name, NULL);
  collect (candidates, usr_local, "cuda-", sub);
  if ((found = best (candidates)) != NULL)
    return found;

  opt = g_build_filename (root, "opt", "nvidia", NULL);
  if (g_str_equal (name, "nsys"))
    collect (candidates, opt, "nsight-systems", sub);
  else if (g_str_equal (name, "ncu"))
    collect (candidates, opt, "nsight-compute", name);
  return best (candidates);
}

/**
 * ws_capture_tools_find:
 *
 * Returns: (transfer full) (nullable): nsys or ncu as
 *   ws_capture_tools_find_in() finds it on this machine
 */
char *
ws_capture_tools_find (const char *name)
{
  return ws_capture_tools_find_in (name, g_getenv ("PATH"), NULL);
}

/**
 * ws_capture_tools_resolve:
 * @configured: (nullable): a path or a program name from the settings
 *
 * Returns: (transfer full): the program to run: @configured when set
 *   (looked up on PATH when it has no `/`), otherwise what
 *   ws_capture_tools_find() finds; %NULL with @error naming where it
 *   looked
 */
char *
ws_capture_tools_resolve (const char *name, const char *configured, GError **error)
{
  char *path;

  if (configured != NULL && configured[0] != '\0')
    {
      path = strchr (configured, '/') != NULL ? g_strdup (configured)
                                              : g_find_program_in_path (configured);
      if (path == NULL || !is_program (path))
        {
          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_TOOL_MISSING,
                       "%s: no such program (the %s path in the settings)", configured, name);
          g_free (path);
          return NULL;
        }
      return path;
    }
  path = ws_capture_tools_find (name);
  if (path == NULL)
    g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_TOOL_MISSING,
                 "%s: not found on PATH, in /usr/local/cuda/bin or in /opt/nvidia/%s*", name,
                 g_str_equal (name, "nsys") ? "nsight-systems" : "nsight-compute");
  return path;
}

typedef struct
{
  GString *out;
  GString *err;
  gboolean done;
  gboolean ran;
  gboolean timed_out;
  int exit_status;
  GError *error;
} RunData;

static void
run_line_cb (WsCaptureProcess *process, gboolean is_stderr, const char *line, gpointer data)
{
  RunData *run = data;
  GString *text = is_stderr ? run->err : run->out;

  g_string_append (text, line);
  g_string_append_c (text, '\n');
}

static void
run_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  RunData *run = data;

  run->ran = ws_capture_process_run_finish (WS_CAPTURE_PROCESS (source), result, &run->exit_status,
                                            &run->error);
  run->done = TRUE;
}

static gboolean
run_timeout_cb (gpointer data)
{
  RunData *run = g_object_get_data (G_OBJECT (data), "ws-run");

  run->timed_out = TRUE;
  ws_capture_process_kill (data);
  return G_SOURCE_REMOVE;
}

/**
 * ws_capture_tools_run:
 * @out: (out) (optional): standard output, as valid UTF-8
 * @err: (out) (optional): standard error, as valid UTF-8
 * @exit_status: (out) (optional): the exit status, -1 for a signal
 *
 * Runs a short command (a version query, a list) in a process group of its
 * own, waiting at most @timeout_s seconds; a command still running then
 * is killed with its group.  Blocks the calling thread: call it from a
 * worker thread in a window.
 */
gboolean
ws_capture_tools_run (const char *const *argv, guint timeout_s, char **out, char **err,
                      int *exit_status, GError **error)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (WsCaptureProcess) process = NULL;
  g_autoptr (GSource) timeout = NULL;
  g_auto (GStrv) env = g_get_environ ();
  RunData run = { g_string_new (NULL), g_string_new (NULL), FALSE, FALSE, FALSE, -1, NULL };
  gboolean ok;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  g_main_context_push_thread_default (context);
  process = ws_capture_process_new ((char **) argv, NULL, env, NULL, 0);
  g_object_set_data (G_OBJECT (process), "ws-run", &run);
  g_signal_connect (process, "line", G_CALLBACK (run_line_cb), &run);
  ws_capture_process_run_async (process, run_done_cb, &run);
  timeout = g_timeout_source_new_seconds (timeout_s);
  g_source_set_callback (timeout, run_timeout_cb, process, NULL);
  g_source_attach (timeout, context);
  while (!run.done)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  g_main_context_pop_thread_default (context);

  ok = run.ran && !run.timed_out;
  if (run.timed_out)
    g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_TIMEOUT, "%s: no answer within %u s",
                 argv[0], timeout_s);
  else if (!run.ran)
    g_propagate_error (error, g_steal_pointer (&run.error));
  g_clear_error (&run.error);
  if (ok && out != NULL)
    *out = g_strdup (run.out->str);
  if (ok && err != NULL)
    *err = g_strdup (run.err->str);
  if (ok && exit_status != NULL)
    *exit_status = run.exit_status;
  g_string_free (run.out, TRUE);
  g_string_free (run.err, TRUE);
  return ok;
}

/**
 * ws_capture_tools_version:
 *
 * Asks `PATH --version`: nsys prints "NVIDIA Nsight Systems version
 * 2025.3.1.0", ncu a banner whose last line is "Version 2025.3.1.0 (build
 * 36398880) (public-release)".
 *
 * Returns: (transfer full): the version ("2025.3.1.0"), or %NULL with
 *   @error set when the program does not run or says no version
 */
char *
ws_capture_tools_version (const char *path, GError **error)
{
  const char *argv[] = { path, "--version", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  int status = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!ws_capture_tools_run (argv, 30, &out, &err, &status, error))
    return NULL;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " \t", -1);

      for (guint w = 0; words[w] != NULL && words[w + 1] != NULL; w++)
        if (g_ascii_strcasecmp (words[w], "version") == 0 && g_ascii_isdigit (words[w + 1][0]))
          return g_strdup (words[w + 1]);
    }
  g_strdelimit (err, "\r\n", ' ');
  g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_TOOL_MISSING,
               "%s: “--version” printed no version (exit status %d) %s", path, status,
               g_strstrip (err));
  return NULL;
}

/**
 * ws_capture_tools_list:
 * @what: "sets" or "sections"
 *
 * Reads the identifiers of `ncu --list-sets` or `ncu --list-sections`:
 * a table framed by dashed lines whose first column is the identifier;
 * a long cell wraps onto lines with an empty first column.
 *
 * Returns: (transfer full) (element-type utf8): the identifiers in ncu's
 *   order, or %NULL with @error set
 */
GPtrArray *
ws_capture_tools_list (const char *ncu, const char *what, GError **error)
{
  g_autofree char *option = g_strconcat ("--list-", what, NULL);
  const char *argv[] = { ncu, option, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) lines = NULL;
  guint dashes = 0;
  gsize width = 0;
  int status = 0;

  g_return_val_if_fail (ncu != NULL && what != NULL, NULL);

  if (!ws_capture_tools_run (argv, 30, &out, &err, &status, error))
    return NULL;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      g_autofree char *id = NULL;

      if (g_str_has_prefix (line, "---"))
        {
          if (dashes++ == 0)
            width = strspn (line, "-");
          continue;
        }
      /* Rows come after the second dashed line (the header's lower frame). */
      if (dashes < 2 || line[0] == ' ' || line[0] == '\0')
        continue;
      id = g_strstrip (g_strndup (line, width));
      if (id[0] != '\0')
        g_ptr_array_add (ids, g_steal_pointer (&id));
    }
  if (status != 0 || ids->len == 0)
    {
      g_strdelimit (err, "\r\n", ' ');
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_TOOL_MISSING,
                   "%s %s: no list (exit status %d) %s", ncu, option, status, g_strstrip (err));
      return NULL;
    }
  return g_steal_pointer (&ids);
}

/**
 * ws_capture_tools_query_gpus:
 *
 * Returns: (transfer full) (element-type utf8): "NAME, DRIVER" for each GPU
 *   nvidia-smi lists; empty when there is no nvidia-smi or it fails
 */
GPtrArray *
ws_capture_tools_query_gpus (void)
{
  GPtrArray *gpus = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *smi = g_find_program_in_path ("nvidia-smi");
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  int status = -1;

  if (smi == NULL)
    return gpus;
  {
    const char *argv[] = { smi, "--query-gpu=name,driver_version", "--format=csv,noheader", NULL };

    if (!ws_capture_tools_run (argv, 30, &out, NULL, &status, NULL) || status != 0)
      return gpus;
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_strstrip (lines[i])[0] != '\0')
      g_ptr_array_add (gpus, g_strdup (lines[i]));
  return gpus;
}

void
ws_capture_tools_info_free (WsCaptureToolsInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->nsys_version);
  g_free (info->ncu_version);
  g_clear_pointer (&info->gpus, g_ptr_array_unref);
  g_clear_pointer (&info->sets, g_ptr_array_unref);
  g_clear_pointer (&info->sections, g_ptr_array_unref);
  g_clear_pointer (&info->warnings, g_ptr_array_unref);
  g_free (info);
}

static void
probe_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  char **tools = data;
  WsCaptureToolsInfo *info = g_new0 (WsCaptureToolsInfo, 1);
  g_autoptr (GError) error = NULL;

  info->warnings = g_ptr_array_new_with_free_func (g_free);
  info->nsys_version = ws_capture_tools_version (tools[0], &error);
  if (info->nsys_version == NULL)
    g_ptr_array_add (info->warnings, g_strdup (error->message));
  g_clear_error (&error);
  info->ncu_version = ws_capture_tools_version (tools[1], &error);
  if (info->ncu_version == NULL)
    g_ptr_array_add (info->warnings, g_strdup (error->message));
  info->sets = ws_capture_tools_list (tools[1], "sets", NULL);
  info->sections = ws_capture_tools_list (tools[1], "sections", NULL);
  info->gpus = ws_capture_tools_query_gpus ();
  g_task_return_pointer (task, info, (GDestroyNotify) ws_capture_tools_info_free);
}

/**
 * ws_capture_tools_probe_async:
 *
 * Asks nsys and ncu their versions, ncu its sets and sections, and
 * nvidia-smi the GPUs, on a worker thread.
 */
void
ws_capture_tools_probe_async (const char *nsys, const char *ncu, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  char **tools = g_new0 (char *, 3);

  g_return_if_fail (nsys != NULL && ncu != NULL);

  tools[0] = g_strdup (nsys);
  tools[1] = g_strdup (ncu);
  g_task_set_source_tag (task, ws_capture_tools_probe_async);
  g_task_set_task_data (task, tools, (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, probe_thread);
}

/**
 * ws_capture_tools_probe_finish:
 *
 * Returns: (transfer full): what the tools said; %NULL only when cancelled
 */
WsCaptureToolsInfo *
ws_capture_tools_probe_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
