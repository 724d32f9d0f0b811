/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-doctor"
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-doctor.h"
#include "ws-tool-find.h"
#include "ws-tool-query.h"

/* Below these, a capture is likely (warning) or certain (error) to fill
 * the disk: nsys reports of long programs take gigabytes. */
#define DISK_WARNING_BYTES (G_GUINT64_CONSTANT (10) << 30)
#define DISK_ERROR_BYTES (G_GUINT64_CONSTANT (1) << 30)

void
ws_doctor_check_free (WsDoctorCheck *check)
{
  if (check == NULL)
    return;
  g_free (check->id);
  g_free (check->summary);
  g_free (check->fix);
  g_free (check);
}

static void
add (GPtrArray *checks, const char *id, WsDoctorLevel level, char *summary, char *fix)
{
  WsDoctorCheck *check = g_new0 (WsDoctorCheck, 1);

  check->id = g_strdup (id);
  check->level = level;
  check->summary = summary;
  check->fix = fix;
  g_ptr_array_add (checks, check);
}

/* nsys or ncu: found, and which version it says it is. */
static char *
check_tool (GPtrArray *checks, const char *name, const char *configured)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = ws_tool_resolve (name, configured, &error);
  g_autofree char *version = NULL;
  gboolean nsys = g_str_equal (name, "nsys");

  if (path == NULL)
    {
      add (checks, name, WS_DOCTOR_ERROR, g_strdup (error->message),
           nsys
             ? g_strdup (_ ("Install Nsight Systems (https://developer.nvidia.com/nsight-systems) "
                            "or give its path: Settings → nsys, or --nsys PATH."))
             : g_strdup (_ ("Install Nsight Compute (https://developer.nvidia.com/nsight-compute) "
                            "or give its path: Settings → ncu, or --ncu PATH.")));
      return NULL;
    }
  version = ws_tool_version (path, &error);
  if (version == NULL)
    {
      add (checks, name, WS_DOCTOR_ERROR, g_strdup (error->message),
           g_strdup_printf (_ ("Run “%s --version” in a terminal to see what is wrong, or choose "
                               "another %s."),
                            path, name));
      return NULL;
    }
  add (checks, name, WS_DOCTOR_OK, g_strdup_printf ("%s %s (%s)", name, version, path), NULL);
  return g_steal_pointer (&path);
}

static gboolean
list_has (GPtrArray *list, const char *id)
{
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (g_ptr_array_index (list, i), id))
      return TRUE;
  return FALSE;
}

static char *
join (GPtrArray *list)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < list->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append (out, g_ptr_array_index (list, i));
    }
  return g_string_free (out, FALSE);
}

/* FORMATS.md: sets change between versions (`speed-of-light` is gone). */
static void
check_ncu_choices (GPtrArray *checks, const char *ncu, const WsCaptureSettings *settings)
{
  const char *what = settings->ncu_sections != NULL ? "sections" : "sets";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) offered = ws_tool_list (ncu, what, &error);
  g_autoptr (GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *list = NULL;

  if (offered == NULL)
    {
      add (checks, "ncu-set", WS_DOCTOR_WARNING, g_strdup (error->message), NULL);
      return;
    }
  list = join (offered);
  if (settings->ncu_sections != NULL)
    {
      g_auto (GStrv) wanted = g_strsplit (settings->ncu_sections, ",", -1);

      for (guint i = 0; wanted[i] != NULL; i++)
        if (g_strstrip (wanted[i])[0] != '\0' && !list_has (offered, wanted[i]))
          g_ptr_array_add (missing, g_strdup (wanted[i]));
      if (missing->len > 0)
        {
          g_autofree char *names = join (missing);

          add (checks, "ncu-set", WS_DOCTOR_WARNING,
               g_strdup_printf (_ ("ncu has no section %s; it offers %s"), names, list),
               g_strdup (_ ("Choose sections from the list (Settings → ncu sections, "
                            "NCU_SECTIONS); a capture leaves the others out.")));
          return;
        }
      add (checks, "ncu-set", WS_DOCTOR_OK,
           g_strdup_printf (_ ("ncu sections: %s"), settings->ncu_sections), NULL);
      return;
    }
  if (!list_has (offered, settings->ncu_set))
    {
      add (checks, "ncu-set", WS_DOCTOR_WARNING,
           g_strdup_printf (_ ("ncu has no set “%s”; it offers %s"), settings->ncu_set, list),
           g_strdup (_ ("Choose one of them (Settings → ncu set, NCU_SET, --ncu-set); a capture "
                        "uses “basic” instead.")));
      return;
    }
  add (checks, "ncu-set", WS_DOCTOR_OK, g_strdup_printf (_ ("ncu set “%s”"), settings->ncu_set),
       NULL);
}

static void
check_paranoid (GPtrArray *checks, const char *proc_root)
{
  g_autofree char *path =
    g_build_filename (proc_root, "sys", "kernel", "perf_event_paranoid", NULL);
  g_autofree char *text = NULL;
  gint64 level;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      add (
        checks, "perf-event-paranoid", WS_DOCTOR_WARNING,
        g_strdup_printf (_ ("%s cannot be read: whether nsys may sample the CPU is unknown"), path),
        NULL);
      return;
    }
  level = g_ascii_strtoll (g_strstrip (text), NULL, 10);
  if (level > 2)
    {
      g_autofree char *value = g_strdup_printf ("%" G_GINT64_FORMAT, level);

      add (checks, "perf-event-paranoid", WS_DOCTOR_WARNING,
           g_strdup_printf (_ ("kernel.perf_event_paranoid is %s: nsys cannot sample the CPU "
                               "(it needs 2 or less)"),
                            value),
           g_strdup ("sudo sysctl -w kernel.perf_event_paranoid=2\n"
                     "echo 'kernel.perf_event_paranoid=2' | sudo tee "
                     "/etc/sysctl.d/99-nsight.conf"));
      return;
    }
  {
    g_autofree char *value = g_strdup_printf ("%" G_GINT64_FORMAT, level);

    add (checks, "perf-event-paranoid", WS_DOCTOR_OK,
         g_strdup_printf (
           _ ("kernel.perf_event_paranoid is %s (2 or less: nsys may sample the CPU)"), value),
         NULL);
  }
}

/* The driver's RmProfilingAdminOnly: what makes ncu fail with
 * ERR_NVGPUCTRPERM for users other than root. */
static void
check_counters (GPtrArray *checks, const char *proc_root)
{
  g_autofree char *path = g_build_filename (proc_root, "driver", "nvidia", "params", NULL);
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      add (checks, "gpu-counters", WS_DOCTOR_WARNING,
           g_strdup_printf (_ ("No NVIDIA driver found (%s is missing): nothing can be captured "
                               "here"),
                            path),
           g_strdup (_ ("Install the NVIDIA driver, or capture on a machine with an NVIDIA "
                        "GPU.")));
      return;
    }
  line = strstr (text, "RmProfilingAdminOnly:");
  if (line != NULL && g_ascii_strtoll (line + strlen ("RmProfilingAdminOnly:"), NULL, 10) != 0)
    {
      if (geteuid () == 0)
        add (checks, "gpu-counters", WS_DOCTOR_OK,
             g_strdup (_ ("GPU counters are for administrators only (RmProfilingAdminOnly: 1); "
                          "this runs as root")),
             NULL);
      else
        add (checks, "gpu-counters", WS_DOCTOR_ERROR,
             g_strdup (_ ("GPU counters are for administrators only (RmProfilingAdminOnly: 1): "
                          "ncu will fail with ERR_NVGPUCTRPERM")),
             g_strdup ("echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' | sudo tee "
                       "/etc/modprobe.d/nvidia-profiling.conf\n"
                       "sudo update-initramfs -u    # Debian, Ubuntu; Fedora, RHEL: sudo dracut "
                       "--regenerate-all -f\n"
                       "sudo reboot\n"
                       "# in a container: start it with --cap-add=SYS_ADMIN"));
      return;
    }
  add (checks, "gpu-counters", WS_DOCTOR_OK,
       g_strdup (_ ("Every user may read GPU counters (RmProfilingAdminOnly: 0)")), NULL);
}

static void
check_gpus (GPtrArray *checks)
{
  g_autoptr (GPtrArray) gpus = ws_tool_query_gpus ();
  g_autofree char *list = NULL;

  if (gpus->len == 0)
    {
      add (checks, "gpus", WS_DOCTOR_WARNING,
           g_strdup (_ ("nvidia-smi lists no GPU (or is not installed)")), NULL);
      return;
    }
  list = join (gpus);
  add (checks, "gpus", WS_DOCTOR_OK, g_strdup_printf (_ ("GPUs: %s"), list), NULL);
}

static void
check_disk (GPtrArray *checks, const char *out_dir)
{
  g_autoptr (GFile) dir = g_file_new_for_path (out_dir);
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *existing = NULL;
  g_autofree char *free_text = NULL;
  guint64 free_bytes;

  /* The output folder may not exist yet: ask about the nearest that does. */
  while (!g_file_query_exists (dir, NULL))
    {
      GFile *parent = g_file_get_parent (dir);

      if (parent == NULL)
        break;
      g_object_unref (dir);
      dir = parent;
    }
  existing = g_file_get_path (dir);
  if (g_access (existing, W_OK) != 0)
    {
      add (
        checks, "disk", WS_DOCTOR_ERROR,
        g_strdup_printf (_ ("%s: cannot be written: no capture can be saved under it"), existing),
        g_strdup (_ ("Choose another output folder: Settings → output folder, OUT_DIR, or "
                     "--out DIR.")));
      return;
    }
  info = g_file_query_filesystem_info (dir, G_FILE_ATTRIBUTE_FILESYSTEM_FREE, NULL, &error);
  if (info == NULL)
    {
      add (checks, "disk", WS_DOCTOR_WARNING, g_strdup_printf ("%s: %s", existing, error->message),
           NULL);
      return;
    }
  free_bytes = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_FILESYSTEM_FREE);
  free_text = g_format_size (free_bytes);
  if (free_bytes < DISK_WARNING_BYTES)
    add (checks, "disk", free_bytes < DISK_ERROR_BYTES ? WS_DOCTOR_ERROR : WS_DOCTOR_WARNING,
         g_strdup_printf (_ ("%s free in %s: nsys reports of long programs take gigabytes"),
                          free_text, existing),
         g_strdup (_ ("Free some space, or choose another output folder: Settings → output "
                      "folder, OUT_DIR, or --out DIR.")));
  else
    add (checks, "disk", WS_DOCTOR_OK, g_strdup_printf (_ ("%s free in %s"), free_text, existing),
         NULL);
}

/**
 * ws_doctor_run:
 * @out_dir: the absolute output folder, which need not exist yet
 * @proc_root: (nullable): where /proc is; %NULL for "/proc"
 *
 * Checks what a capture needs of this machine: nsys and ncu and their
 * versions, the ncu set or sections, kernel.perf_event_paranoid, the
 * permission to read GPU counters, the GPUs, and the free space in the
 * output folder.  Runs the tools: call it from a worker thread in a
 * window (ws_doctor_run_async()).
 *
 * Returns: (transfer full) (element-type WsDoctorCheck): the checks
 */
GPtrArray *
ws_doctor_run (const WsCaptureSettings *settings, const char *out_dir, const char *proc_root)
{
  GPtrArray *checks = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_doctor_check_free);
  g_autofree char *nsys = NULL;
  g_autofree char *ncu = NULL;

  g_return_val_if_fail (settings != NULL && out_dir != NULL, checks);

  if (proc_root == NULL)
    proc_root = "/proc";
  nsys = check_tool (checks, "nsys", settings->nsys_path);
  ncu = check_tool (checks, "ncu", settings->ncu_path);
  if (ncu != NULL)
    check_ncu_choices (checks, ncu, settings);
  check_paranoid (checks, proc_root);
  check_counters (checks, proc_root);
  check_gpus (checks);
  check_disk (checks, out_dir);
  return checks;
}

typedef struct
{
  WsCaptureSettings *settings;
  char *out_dir;
  char *proc_root;
} DoctorData;

static void
doctor_data_free (DoctorData *data)
{
  ws_capture_settings_free (data->settings);
  g_free (data->out_dir);
  g_free (data->proc_root);
  g_free (data);
}

static void
doctor_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DoctorData *data = task_data;

  g_task_return_pointer (task, ws_doctor_run (data->settings, data->out_dir, data->proc_root),
                         (GDestroyNotify) g_ptr_array_unref);
}

void
ws_doctor_run_async (const WsCaptureSettings *settings, const char *out_dir, const char *proc_root,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  DoctorData *data = g_new0 (DoctorData, 1);

  data->settings = ws_capture_settings_copy (settings);
  data->out_dir = g_strdup (out_dir);
  data->proc_root = g_strdup (proc_root);
  g_task_set_source_tag (task, ws_doctor_run_async);
  g_task_set_task_data (task, data, (GDestroyNotify) doctor_data_free);
  g_task_run_in_thread (task, doctor_thread);
}

/**
 * ws_doctor_run_finish:
 *
 * Returns: (transfer full) (element-type WsDoctorCheck): the checks
 */
GPtrArray *
ws_doctor_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

WsDoctorLevel
ws_doctor_worst (GPtrArray *checks)
{
  WsDoctorLevel worst = WS_DOCTOR_OK;

  for (guint i = 0; i < checks->len; i++)
    worst = MAX (worst, ((WsDoctorCheck *) g_ptr_array_index (checks, i))->level);
  return worst;
}

/**
 * ws_doctor_find:
 *
 * Returns: (transfer none) (nullable): the check named @id
 */
const WsDoctorCheck *
ws_doctor_find (GPtrArray *checks, const char *id)
{
  for (guint i = 0; i < checks->len; i++)
    {
      const WsDoctorCheck *check = g_ptr_array_index (checks, i);

      if (g_str_equal (check->id, id))
        return check;
    }
  return NULL;
}
