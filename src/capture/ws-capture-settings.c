/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-settings"
#include "config.h"

#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-settings.h"
#include "ws-ssh-host.h"
#include "ws-ssh.h"

const char *const ws_capture_settings_env_names[] = {
  "OUT_DIR",
  "GLOBAL_LOG",
  "TARGETS_TSV",
  "TOPN",
  "CAPTURE_RANGE",
  "NVTX_NAME",
  "NSYS_TRACE",
  "NSYS_DURATION",
  "NSYS_CUDA_GRAPH_TRACE",
  "NCU_SET",
  "NCU_SECTIONS",
  "NCU_MULTI_RUN",
  "NCU_LAUNCH_COUNT",
  "CACHE_CONTROL",
  "CLOCK_CONTROL",
  "CONTINUE_ON_ERROR",
  "PER_RANK",
  "NCU_COMM_REPLAY",
  "NCU_STALL_TIMEOUT",
  NULL,
};

/**
 * ws_capture_settings_new:
 *
 * Returns: (transfer full): the defaults of the command-line workflow,
 *   equal to those of the GSettings schema
 */
WsCaptureSettings *
ws_capture_settings_new (void)
{
  WsCaptureSettings *self = g_new0 (WsCaptureSettings, 1);

  self->output_dir = g_strdup ("./out");
  self->topn = 10;
  self->nsys_trace = g_strdup ("cuda,nvtx,osrt");
  /* Each kernel of a CUDA graph in the kernel table: every page and ncu's
   * top N see the work of a replay (docs/cuda-graphs.md). */
  self->nsys_cuda_graph_trace = g_strdup ("node");
  self->ncu_set = g_strdup ("full");
  self->ncu_multi_run = TRUE;
  self->cache_control = g_strdup ("all");
  self->clock_control = g_strdup ("base");
  self->ncu_stall_timeout = 600;
  self->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
  return self;
}

/**
 * ws_capture_settings_copy:
 *
 * Returns: (transfer full): a deep copy
 */
WsCaptureSettings *
ws_capture_settings_copy (const WsCaptureSettings *self)
{
  WsCaptureSettings *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->nsys_path = g_strdup (self->nsys_path);
  copy->ncu_path = g_strdup (self->ncu_path);
  copy->output_dir = g_strdup (self->output_dir);
  copy->global_log = g_strdup (self->global_log);
  copy->targets_file = g_strdup (self->targets_file);
  copy->group = g_strdup (self->group);
  copy->nvtx_range = g_strdup (self->nvtx_range);
  copy->nsys_trace = g_strdup (self->nsys_trace);
  copy->nsys_cuda_graph_trace = g_strdup (self->nsys_cuda_graph_trace);
  copy->ncu_set = g_strdup (self->ncu_set);
  copy->ncu_sections = g_strdup (self->ncu_sections);
  copy->cache_control = g_strdup (self->cache_control);
  copy->clock_control = g_strdup (self->clock_control);
  copy->ncu_comm_replay = g_strdup (self->ncu_comm_replay);
  copy->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
  for (guint i = 0; self->hosts != NULL && i < self->hosts->len; i++)
    g_ptr_array_add (copy->hosts, ws_ssh_host_copy (g_ptr_array_index (self->hosts, i)));
  copy->ssh_command = g_strdup (self->ssh_command);
  copy->host = g_strdup (self->host);
  copy->remote_dir = g_strdup (self->remote_dir);
  return copy;
}

void
ws_capture_settings_free (WsCaptureSettings *self)
{
  if (self == NULL)
    return;
  g_free (self->nsys_path);
  g_free (self->ncu_path);
  g_free (self->output_dir);
  g_free (self->global_log);
  g_free (self->targets_file);
  g_free (self->group);
  g_free (self->nvtx_range);
  g_free (self->nsys_trace);
  g_free (self->nsys_cuda_graph_trace);
  g_free (self->ncu_set);
  g_free (self->ncu_sections);
  g_free (self->cache_control);
  g_free (self->clock_control);
  g_free (self->ncu_comm_replay);
  g_clear_pointer (&self->hosts, g_ptr_array_unref);
  g_free (self->ssh_command);
  g_free (self->host);
  g_free (self->remote_dir);
  g_free (self);
}

static void
set_string (char **field, const char *value)
{
  g_free (*field);
  *field = value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
}

/**
 * ws_capture_settings_open_gsettings:
 *
 * Returns: (transfer full) (nullable): the application's settings, or
 *   %NULL when the schema is not installed (an uninstalled build, a
 *   server with the command line only): g_settings_new() would abort
 */
GSettings *
ws_capture_settings_open_gsettings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* Fills the settings from the schema org.warpscope.Warpscope. */
void
ws_capture_settings_load (WsCaptureSettings *self, GSettings *settings)
{
  g_autofree char *nsys = NULL, *ncu = NULL, *out = NULL, *log = NULL, *range = NULL;
  g_autofree char *trace = NULL, *set = NULL, *sections = NULL, *cache = NULL, *clock = NULL;
  g_autofree char *graph_trace = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (G_IS_SETTINGS (settings));

  nsys = g_settings_get_string (settings, "nsys-path");
  ncu = g_settings_get_string (settings, "ncu-path");
  out = g_settings_get_string (settings, "output-dir");
  log = g_settings_get_string (settings, "global-log");
  range = g_settings_get_string (settings, "capture-range");
  trace = g_settings_get_string (settings, "nsys-trace");
  graph_trace = g_settings_get_string (settings, "nsys-cuda-graph-trace");
  set = g_settings_get_string (settings, "ncu-set");
  sections = g_settings_get_string (settings, "ncu-sections");
  cache = g_settings_get_string (settings, "cache-control");
  clock = g_settings_get_string (settings, "clock-control");

  set_string (&self->nsys_path, nsys);
  set_string (&self->ncu_path, ncu);
  set_string (&self->output_dir, out[0] != '\0' ? out : "./out");
  set_string (&self->global_log, log);
  set_string (&self->nvtx_range, range);
  set_string (&self->nsys_trace, trace);
  set_string (&self->nsys_cuda_graph_trace, graph_trace);
  set_string (&self->ncu_set, set);
  set_string (&self->ncu_sections, sections);
  set_string (&self->cache_control, cache);
  set_string (&self->clock_control, clock);
  self->topn = g_settings_get_uint (settings, "capture-topn");
  self->nsys_duration = g_settings_get_uint (settings, "nsys-duration");
  self->ncu_multi_run = g_settings_get_boolean (settings, "ncu-multi-run");
  self->per_rank = g_settings_get_boolean (settings, "capture-per-rank");
  self->ncu_launch_count = g_settings_get_uint (settings, "ncu-launch-count");
  self->continue_on_error = g_settings_get_boolean (settings, "continue-on-error");
  {
    g_autofree char *replay = g_settings_get_string (settings, "ncu-comm-replay");

    set_string (&self->ncu_comm_replay, replay);
    self->ncu_stall_timeout = g_settings_get_uint (settings, "ncu-stall-timeout");
  }
  {
    g_autoptr (GVariant) hosts = g_settings_get_value (settings, "hosts");
    g_autofree char *ssh = g_settings_get_string (settings, "ssh-command");

    g_clear_pointer (&self->hosts, g_ptr_array_unref);
    self->hosts = ws_ssh_hosts_from_variant (hosts);
    set_string (&self->ssh_command, ssh);
    self->leave_reports = !g_settings_get_boolean (settings, "fetch-reports");
    self->transfer_limit = g_settings_get_uint (settings, "transfer-limit");
  }
}

static gboolean
parse_bool (const char *name, const char *value, gboolean *out, GError **error)
{
  static const char *const yes[] = { "1", "true", "yes", "on", NULL };
  static const char *const no[] = { "0", "false", "no", "off", "", NULL };

  for (guint i = 0; yes[i] != NULL; i++)
    if (g_ascii_strcasecmp (value, yes[i]) == 0)
      {
        *out = TRUE;
        return TRUE;
      }
  for (guint i = 0; no[i] != NULL; i++)
    if (g_ascii_strcasecmp (value, no[i]) == 0)
      {
        *out = FALSE;
        return TRUE;
      }
  g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
               "%s=%s: expected 1 or 0 (true/false, yes/no)", name, value);
  return FALSE;
}

static gboolean
parse_uint (const char *name, const char *value, guint min, guint *out, GError **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (value, 10, min, G_MAXINT, &v, NULL))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s=%s: expected a whole number of at least %u", name, value, min);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

static gboolean
parse_choice (const char *name, const char *value, const char *a, const char *b, char **out,
              GError **error)
{
  if (!g_str_equal (value, a) && !g_str_equal (value, b))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID, "%s=%s: expected %s or %s",
                   name, value, a, b);
      return FALSE;
    }
  set_string (out, value);
  return TRUE;
}

/* The workflow's variables as ws_capture_settings_apply_environment()
 * reads them: the value of the last variable asked for, and the names of
 * those applied. */
typedef struct
{
  const char *const *envp;
  GPtrArray *applied; /* nullable */
  const char *value;
} Environment;

/* Whether @name is set: an empty variable counts as unset. */
static gboolean
env_get (Environment *env, const char *name)
{
  env->value = g_environ_getenv ((char **) env->envp, name);
  return env->value != NULL && env->value[0] != '\0';
}

static void
env_applied (Environment *env, const char *name)
{
  if (env->applied != NULL)
    g_ptr_array_add (env->applied, g_strdup (name));
}

static void
env_set_string (Environment *env, const char *name, char **field)
{
  if (env_get (env, name))
    {
      set_string (field, env->value);
      env_applied (env, name);
    }
}

static gboolean
env_set_uint (Environment *env, const char *name, guint min, guint *field, GError **error)
{
  if (env_get (env, name))
    {
      if (!parse_uint (name, env->value, min, field, error))
        return FALSE;
      env_applied (env, name);
    }
  return TRUE;
}

static gboolean
env_set_bool (Environment *env, const char *name, gboolean *field, GError **error)
{
  if (env_get (env, name))
    {
      if (!parse_bool (name, env->value, field, error))
        return FALSE;
      env_applied (env, name);
    }
  return TRUE;
}

static gboolean
env_set_choice (Environment *env, const char *name, const char *first, const char *second,
                char **field, GError **error)
{
  if (env_get (env, name))
    {
      if (!parse_choice (name, env->value, first, second, field, error))
        return FALSE;
      env_applied (env, name);
    }
  return TRUE;
}

/* Where the capture goes and what it reads. */
static gboolean
apply_output_environment (WsCaptureSettings *self, Environment *env, GError **error)
{
  env_set_string (env, "OUT_DIR", &self->output_dir);
  env_set_string (env, "GLOBAL_LOG", &self->global_log);
  env_set_string (env, "TARGETS_TSV", &self->targets_file);
  return env_set_uint (env, "TOPN", 1, &self->topn, error);
}

/* `CAPTURE_RANGE=none` clears the NVTX range; `CAPTURE_RANGE=nvtx` needs
 * `NVTX_NAME`; `NVTX_NAME` alone also selects the range. */
static gboolean
apply_range_environment (WsCaptureSettings *self, Environment *env, GError **error)
{
  const char *range_mode = env_get (env, "CAPTURE_RANGE") ? env->value : NULL;

  if (env_get (env, "NVTX_NAME"))
    {
      if (range_mode == NULL || g_str_equal (range_mode, "nvtx"))
        set_string (&self->nvtx_range, env->value);
      env_applied (env, "NVTX_NAME");
    }
  if (range_mode == NULL)
    return TRUE;
  if (g_str_equal (range_mode, "none"))
    set_string (&self->nvtx_range, NULL);
  else if (!g_str_equal (range_mode, "nvtx"))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "CAPTURE_RANGE=%s: expected none or nvtx", range_mode);
      return FALSE;
    }
  else if (self->nvtx_range == NULL)
    {
      g_set_error_literal (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                           "CAPTURE_RANGE=nvtx needs NVTX_NAME=range@domain");
      return FALSE;
    }
  env_applied (env, "CAPTURE_RANGE");
  return TRUE;
}

static gboolean
apply_nsys_environment (WsCaptureSettings *self, Environment *env, GError **error)
{
  env_set_string (env, "NSYS_TRACE", &self->nsys_trace);
  return env_set_uint (env, "NSYS_DURATION", 0, &self->nsys_duration, error) &&
         env_set_choice (env, "NSYS_CUDA_GRAPH_TRACE", "node", "graph",
                         &self->nsys_cuda_graph_trace, error);
}

static gboolean
apply_ncu_environment (WsCaptureSettings *self, Environment *env, GError **error)
{
  env_set_string (env, "NCU_SET", &self->ncu_set);
  env_set_string (env, "NCU_SECTIONS", &self->ncu_sections);
  if (!env_set_bool (env, "NCU_MULTI_RUN", &self->ncu_multi_run, error) ||
      !env_set_bool (env, "PER_RANK", &self->per_rank, error))
    return FALSE;
  if (env_get (env, "NCU_COMM_REPLAY"))
    {
      if (g_ascii_strcasecmp (env->value, "none") == 0)
        set_string (&self->ncu_comm_replay, NULL);
      else if (!parse_choice ("NCU_COMM_REPLAY", env->value, "range", "app-range",
                              &self->ncu_comm_replay, error))
        return FALSE;
      env_applied (env, "NCU_COMM_REPLAY");
    }
  return env_set_uint (env, "NCU_STALL_TIMEOUT", 0, &self->ncu_stall_timeout, error) &&
         env_set_uint (env, "NCU_LAUNCH_COUNT", 0, &self->ncu_launch_count, error) &&
         env_set_choice (env, "CACHE_CONTROL", "all", "none", &self->cache_control, error) &&
         env_set_choice (env, "CLOCK_CONTROL", "base", "none", &self->clock_control, error);
}

/**
 * ws_capture_settings_apply_environment:
 * @envp: (nullable): the environment, as g_get_environ() gives it
 * @applied: (nullable) (element-type utf8): receives the names of the
 *   variables that were set and applied
 *
 * Lets the workflow's variables override the settings, as the shell
 * pipeline read them.  `CAPTURE_RANGE=none` clears the NVTX range;
 * `CAPTURE_RANGE=nvtx` needs `NVTX_NAME`; `NVTX_NAME` alone also selects
 * the range.  An empty variable counts as unset.
 *
 * Returns: %FALSE with @error naming the variable when a value is not valid
 */
gboolean
ws_capture_settings_apply_environment (WsCaptureSettings *self, const char *const *envp,
                                       GPtrArray *applied, GError **error)
{
  Environment env = { envp, applied, NULL };

  g_return_val_if_fail (self != NULL, FALSE);

  if (!apply_output_environment (self, &env, error) ||
      !apply_range_environment (self, &env, error) || !apply_nsys_environment (self, &env, error) ||
      !apply_ncu_environment (self, &env, error))
    return FALSE;
  if (!env_set_bool (&env, "CONTINUE_ON_ERROR", &self->continue_on_error, error))
    return FALSE;
  /* As git's GIT_SSH_COMMAND: the ssh command line, e.g. `ssh -F FILE`. */
  env_set_string (&env, WS_SSH_ENV, &self->ssh_command);
  return TRUE;
}

static gboolean
is_option_word (const char *value)
{
  /* These end up as single arguments of nsys or ncu: no spaces, no option
   * smuggled in through a leading dash. */
  if (value == NULL || value[0] == '\0' || value[0] == '-')
    return FALSE;
  for (const char *p = value; *p != '\0'; p++)
    if (g_ascii_isspace (*p))
      return FALSE;
  return TRUE;
}

/* Checks what the runner would otherwise pass on to the tools blindly. */
gboolean
ws_capture_settings_validate (const WsCaptureSettings *self, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->output_dir == NULL || self->output_dir[0] == '\0')
    {
      g_set_error_literal (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                           "the output folder (OUT_DIR) is empty");
      return FALSE;
    }
  if (self->topn < 1)
    {
      g_set_error_literal (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                           "TOPN must be at least 1");
      return FALSE;
    }
  if (self->nvtx_range != NULL && strpbrk (self->nvtx_range, "\r\n") != NULL)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "NVTX_NAME=%s: expected range@domain", self->nvtx_range);
      return FALSE;
    }
  if (!is_option_word (self->nsys_trace))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "NSYS_TRACE=%s: expected a list such as cuda,nvtx,osrt",
                   self->nsys_trace != NULL ? self->nsys_trace : "");
      return FALSE;
    }
  if (g_strcmp0 (self->nsys_cuda_graph_trace, "node") != 0 &&
      g_strcmp0 (self->nsys_cuda_graph_trace, "graph") != 0)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "NSYS_CUDA_GRAPH_TRACE=%s: expected node or graph",
                   self->nsys_cuda_graph_trace != NULL ? self->nsys_cuda_graph_trace : "");
      return FALSE;
    }
  if (self->ncu_sections == NULL && !is_option_word (self->ncu_set))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "NCU_SET=%s: expected a set name such as basic or full",
                   self->ncu_set != NULL ? self->ncu_set : "");
      return FALSE;
    }
  if (self->ncu_sections != NULL)
    {
      g_auto (GStrv) sections = g_strsplit (self->ncu_sections, ",", -1);

      for (guint i = 0; sections[i] != NULL; i++)
        if (!is_option_word (g_strstrip (sections[i])))
          {
            g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                         "NCU_SECTIONS=%s: expected section names separated by commas",
                         self->ncu_sections);
            return FALSE;
          }
    }
  if (g_strcmp0 (self->cache_control, "all") != 0 && g_strcmp0 (self->cache_control, "none") != 0)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "CACHE_CONTROL=%s: expected all or none",
                   self->cache_control != NULL ? self->cache_control : "");
      return FALSE;
    }
  if (g_strcmp0 (self->clock_control, "base") != 0 && g_strcmp0 (self->clock_control, "none") != 0)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "CLOCK_CONTROL=%s: expected base or none",
                   self->clock_control != NULL ? self->clock_control : "");
      return FALSE;
    }
  for (guint i = 0; self->hosts != NULL && i < self->hosts->len; i++)
    if (!ws_ssh_host_validate (g_ptr_array_index (self->hosts, i), error))
      return FALSE;
  if (self->host != NULL && !ws_ssh_host_is_local (self->host))
    {
      g_autoptr (WsSshHost) host = ws_ssh_host_lookup (self->hosts, self->host, error);

      if (host == NULL)
        {
          g_prefix_error (error, "--host: ");
          return FALSE;
        }
    }
  if (self->ssh_command != NULL)
    {
      g_auto (GStrv) argv = ws_capture_settings_ssh_argv (self, error);

      if (argv == NULL)
        return FALSE;
    }
  return TRUE;
}

/**
 * ws_capture_settings_host_names:
 *
 * Returns: (transfer full): the names of the hosts of the settings
 */
char **
ws_capture_settings_host_names (const WsCaptureSettings *self)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; self->hosts != NULL && i < self->hosts->len; i++)
    g_strv_builder_add (names, ((WsSshHost *) g_ptr_array_index (self->hosts, i))->name);
  return g_strv_builder_end (names);
}

/**
 * ws_capture_settings_ssh_argv:
 *
 * Returns: (transfer full): the ssh command every connection runs:
 *   WARPSCOPE_SSH or the setting, else `ssh`; %NULL with @error set when
 *   it does not split or is not found
 */
char **
ws_capture_settings_ssh_argv (const WsCaptureSettings *self, GError **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  return ws_ssh_command_argv (self->ssh_command, error);
}

static gboolean
list_has (GPtrArray *list, const char *id)
{
  for (guint i = 0; list != NULL && i < list->len; i++)
    if (g_str_equal (g_ptr_array_index (list, i), id))
      return TRUE;
  return FALSE;
}

/**
 * ws_capture_settings_fit_ncu:
 * @sets: (element-type utf8) (nullable): what `ncu --list-sets` offers;
 *   %NULL or empty: unknown, the set is kept
 * @sections: (element-type utf8) (nullable): what `ncu --list-sections`
 *   offers; %NULL or empty: unknown, the sections are kept
 * @warnings: (element-type utf8): gets a line for each choice changed
 *
 * docs/formats.md, "ncu sets and sections": `--set speed-of-light` no longer
 * exists; what ncu does not offer is replaced (sets) or dropped (sections)
 * with a warning, rather than failing every ncu run.
 */
void
ws_capture_settings_fit_ncu (WsCaptureSettings *self, GPtrArray *sets, GPtrArray *sections,
                             GPtrArray *warnings)
{
  g_return_if_fail (self != NULL && warnings != NULL);

  if (self->ncu_sections != NULL && sections != NULL && sections->len > 0)
    {
      g_auto (GStrv) wanted = g_strsplit (self->ncu_sections, ",", -1);
      g_autoptr (GPtrArray) kept = g_ptr_array_new ();

      for (guint i = 0; wanted[i] != NULL; i++)
        {
          const char *section = g_strstrip (wanted[i]);

          if (section[0] == '\0')
            continue;
          if (list_has (sections, section))
            g_ptr_array_add (kept, (gpointer) section);
          else
            g_ptr_array_add (warnings,
                             g_strdup_printf ("ncu has no section “%s” (ncu --list-sections); "
                                              "left out",
                                              section));
        }
      g_ptr_array_add (kept, NULL);
      g_free (self->ncu_sections);
      self->ncu_sections = kept->len > 1 ? g_strjoinv (",", (char **) kept->pdata) : NULL;
    }
  if (self->ncu_sections == NULL && sets != NULL && sets->len > 0 &&
      !list_has (sets, self->ncu_set))
    {
      const char *fallback = list_has (sets, "basic") ? "basic" : g_ptr_array_index (sets, 0);

      g_ptr_array_add (warnings,
                       g_strdup_printf ("ncu has no set “%s” (ncu --list-sets); using “%s”",
                                        self->ncu_set, fallback));
      g_free (self->ncu_set);
      self->ncu_set = g_strdup (fallback);
    }
}

static void
add_string (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* Adds the settings as members of the object being built, under the
 * names of the workflow's variables. */
void
ws_capture_settings_to_json (const WsCaptureSettings *self, JsonBuilder *builder)
{
  g_return_if_fail (self != NULL);

  add_string (builder, "OUT_DIR", self->output_dir);
  add_string (builder, "GLOBAL_LOG", self->global_log);
  add_string (builder, "TARGETS_TSV", self->targets_file);
  json_builder_set_member_name (builder, "TOPN");
  json_builder_add_int_value (builder, self->topn);
  add_string (builder, "CAPTURE_RANGE", self->nvtx_range != NULL ? "nvtx" : "none");
  add_string (builder, "NVTX_NAME", self->nvtx_range);
  add_string (builder, "NSYS_TRACE", self->nsys_trace);
  json_builder_set_member_name (builder, "NSYS_DURATION");
  json_builder_add_int_value (builder, self->nsys_duration);
  add_string (builder, "NSYS_CUDA_GRAPH_TRACE", self->nsys_cuda_graph_trace);
  add_string (builder, "NCU_SET", self->ncu_set);
  add_string (builder, "NCU_SECTIONS", self->ncu_sections);
  json_builder_set_member_name (builder, "NCU_MULTI_RUN");
  json_builder_add_boolean_value (builder, self->ncu_multi_run);
  json_builder_set_member_name (builder, "NCU_LAUNCH_COUNT");
  json_builder_add_int_value (builder, self->ncu_launch_count);
  add_string (builder, "CACHE_CONTROL", self->cache_control);
  add_string (builder, "CLOCK_CONTROL", self->clock_control);
  json_builder_set_member_name (builder, "CONTINUE_ON_ERROR");
  json_builder_add_boolean_value (builder, self->continue_on_error);
  json_builder_set_member_name (builder, "PER_RANK");
  json_builder_add_boolean_value (builder, self->per_rank);
  add_string (builder, "NCU_COMM_REPLAY", self->ncu_comm_replay);
  json_builder_set_member_name (builder, "NCU_STALL_TIMEOUT");
  json_builder_add_int_value (builder, self->ncu_stall_timeout);
  add_string (builder, WS_SSH_ENV, self->ssh_command);
}
