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
#include "ws-ssh-connection.h"

/* Below these, a capture is likely (warning) or certain (error) to fill
 * the disk: nsys reports of long programs take gigabytes. */
#define DISK_WARNING_BYTES (G_GUINT64_CONSTANT (10) << 30)
#define DISK_ERROR_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* Where the checks run: this machine, or a host over ssh. */
typedef struct
{
  GPtrArray *checks;
  WsSshConnection *ssh;      /* NULL: this machine */
  const char *host;          /* the host's name; NULL here */
  GCancellable *cancellable; /* kills the tool being asked */
} Machine;

void
ws_doctor_check_free (WsDoctorCheck *check)
{
  if (check == NULL)
    return;
  g_free (check->host);
  g_free (check->id);
  g_free (check->summary);
  g_free (check->fix);
  g_free (check);
}

static void
add (Machine *machine, const char *id, WsDoctorLevel level, char *summary, char *fix)
{
  WsDoctorCheck *check = g_new0 (WsDoctorCheck, 1);

  check->host = g_strdup (machine->host);
  check->id = g_strdup (id);
  check->level = level;
  check->summary = summary;
  check->fix = fix;
  g_ptr_array_add (machine->checks, check);
}

/* A file of /proc, here or there. */
static gboolean
read_file (Machine *machine, const char *path, char **text)
{
  const char *argv[] = { "cat", "--", path, NULL };
  int status = -1;

  if (machine->ssh == NULL)
    return g_file_get_contents (path, text, NULL, NULL);
  if (!ws_ssh_connection_run (machine->ssh, argv, NULL, 30, NULL, text, NULL, &status, NULL))
    return FALSE;
  if (status != 0)
    g_clear_pointer (text, g_free);
  return status == 0;
}

static gboolean
is_root (Machine *machine)
{
  const char *argv[] = { "id", "-u", NULL };
  g_autofree char *out = NULL;
  int status = -1;

  if (machine->ssh == NULL)
    return geteuid () == 0;
  return ws_ssh_connection_run (machine->ssh, argv, NULL, 30, NULL, &out, NULL, &status, NULL) &&
         status == 0 && g_str_equal (g_strstrip (out), "0");
}

/* nsys or ncu: found, and which version it says it is. */
static char *
check_tool (Machine *machine, const char *name, const char *configured)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = ws_tool_resolve_on (machine->ssh, name, configured, &error);
  g_autofree char *version = NULL;
  gboolean nsys = g_str_equal (name, "nsys");

  if (path == NULL && machine->ssh != NULL)
    {
      add (machine, name, WS_DOCTOR_ERROR, g_strdup (error->message),
           nsys ? g_strdup_printf (_ ("Install Nsight Systems on %s "
                                      "(https://developer.nvidia.com/nsight-systems) or give its "
                                      "path there: Settings → Hosts → nsys, or --nsys PATH with "
                                      "--host."),
                                   machine->host)
                : g_strdup_printf (_ ("Install Nsight Compute on %s "
                                      "(https://developer.nvidia.com/nsight-compute) or give its "
                                      "path there: Settings → Hosts → ncu, or --ncu PATH with "
                                      "--host."),
                                   machine->host));
      return NULL;
    }
  if (path == NULL)
    {
      add (machine, name, WS_DOCTOR_ERROR, g_strdup (error->message),
           nsys
             ? g_strdup (_ ("Install Nsight Systems (https://developer.nvidia.com/nsight-systems) "
                            "or give its path: Settings → nsys, or --nsys PATH."))
             : g_strdup (_ ("Install Nsight Compute (https://developer.nvidia.com/nsight-compute) "
                            "or give its path: Settings → ncu, or --ncu PATH.")));
      return NULL;
    }
  version = ws_tool_version_on (machine->ssh, path, machine->cancellable, &error);
  if (version == NULL)
    {
      add (machine, name, WS_DOCTOR_ERROR, g_strdup (error->message),
           g_strdup_printf (_ ("Run “%s --version” in a terminal to see what is wrong, or choose "
                               "another %s."),
                            path, name));
      return NULL;
    }
  add (machine, name, WS_DOCTOR_OK, g_strdup_printf ("%s %s (%s)", name, version, path), NULL);
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

/* Sets change between versions (`speed-of-light` is gone): docs/formats.md,
 * "ncu sets and sections". */
static void
check_ncu_choices (Machine *machine, const char *ncu, const WsCaptureSettings *settings)
{
  const char *what = settings->ncu_sections != NULL ? "sections" : "sets";
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) offered =
    ws_tool_list_on (machine->ssh, ncu, what, machine->cancellable, &error);
  g_autoptr (GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *list = NULL;

  if (offered == NULL)
    {
      add (machine, "ncu-set", WS_DOCTOR_WARNING, g_strdup (error->message), NULL);
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

          add (machine, "ncu-set", WS_DOCTOR_WARNING,
               g_strdup_printf (_ ("ncu has no section %s; it offers %s"), names, list),
               g_strdup (_ ("Choose sections from the list (Settings → ncu sections, "
                            "NCU_SECTIONS); a capture leaves the others out.")));
          return;
        }
      add (machine, "ncu-set", WS_DOCTOR_OK,
           g_strdup_printf (_ ("ncu sections: %s"), settings->ncu_sections), NULL);
      return;
    }
  if (!list_has (offered, settings->ncu_set))
    {
      add (machine, "ncu-set", WS_DOCTOR_WARNING,
           g_strdup_printf (_ ("ncu has no set “%s”; it offers %s"), settings->ncu_set, list),
           g_strdup (_ ("Choose one of them (Settings → ncu set, NCU_SET, --ncu-set); a capture "
                        "uses “basic” instead.")));
      return;
    }
  add (machine, "ncu-set", WS_DOCTOR_OK, g_strdup_printf (_ ("ncu set “%s”"), settings->ncu_set),
       NULL);
}

static void
check_paranoid (Machine *machine, const char *proc_root)
{
  g_autofree char *path =
    g_build_filename (proc_root, "sys", "kernel", "perf_event_paranoid", NULL);
  g_autofree char *text = NULL;
  gint64 level;

  if (!read_file (machine, path, &text))
    {
      add (
        machine, "perf-event-paranoid", WS_DOCTOR_WARNING,
        g_strdup_printf (_ ("%s cannot be read: whether nsys may sample the CPU is unknown"), path),
        NULL);
      return;
    }
  level = g_ascii_strtoll (g_strstrip (text), NULL, 10);
  if (level > 2)
    {
      g_autofree char *value = g_strdup_printf ("%" G_GINT64_FORMAT, level);

      add (machine, "perf-event-paranoid", WS_DOCTOR_WARNING,
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

    add (machine, "perf-event-paranoid", WS_DOCTOR_OK,
         g_strdup_printf (
           _ ("kernel.perf_event_paranoid is %s (2 or less: nsys may sample the CPU)"), value),
         NULL);
  }
}

/* The driver's RmProfilingAdminOnly: what makes ncu fail with
 * ERR_NVGPUCTRPERM for users other than root. */
static void
check_counters (Machine *machine, const char *proc_root)
{
  g_autofree char *path = g_build_filename (proc_root, "driver", "nvidia", "params", NULL);
  g_autofree char *text = NULL;
  const char *line;

  if (!read_file (machine, path, &text) && machine->ssh != NULL)
    {
      add (machine, "gpu-counters", WS_DOCTOR_WARNING,
           g_strdup_printf (_ ("No NVIDIA driver found on %s (%s is missing): nothing can be "
                               "captured there"),
                            machine->host, path),
           g_strdup (_ ("Install the NVIDIA driver there, or choose a host with an NVIDIA GPU.")));
      return;
    }
  if (text == NULL)
    {
      add (machine, "gpu-counters", WS_DOCTOR_WARNING,
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
      if (is_root (machine))
        add (machine, "gpu-counters", WS_DOCTOR_OK,
             g_strdup (_ ("GPU counters are for administrators only (RmProfilingAdminOnly: 1); "
                          "this runs as root")),
             NULL);
      else
        add (machine, "gpu-counters", WS_DOCTOR_ERROR,
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
  add (machine, "gpu-counters", WS_DOCTOR_OK,
       g_strdup (_ ("Every user may read GPU counters (RmProfilingAdminOnly: 0)")), NULL);
}

static void
check_gpus (Machine *machine)
{
  g_autoptr (GPtrArray) gpus = ws_tool_query_gpus_on (machine->ssh, machine->cancellable);
  g_autofree char *list = NULL;

  if (gpus->len == 0)
    {
      add (machine, "gpus", WS_DOCTOR_WARNING,
           g_strdup (_ ("nvidia-smi lists no GPU (or is not installed)")), NULL);
      return;
    }
  list = join (gpus);
  add (machine, "gpus", WS_DOCTOR_OK, g_strdup_printf (_ ("GPUs: %s"), list), NULL);
}

/* The folder for captures on a host: the nearest folder of it that
 * exists, whether it can be written, and its free KiB. */
static const char disk_script[] =
  "d=$1\n"
  "case $d in \"~\") d=$HOME ;; \"~/\"*) d=$HOME/${d#\"~/\"} ;; /*) ;; *) d=$HOME/$d ;; esac\n"
  "while [ ! -e \"$d\" ]; do d=$(dirname -- \"$d\"); done\n"
  "echo \"$d\"\n"
  "if [ -w \"$d\" ]; then echo yes; else echo no; fi\n"
  "df -Pk -- \"$d\" | awk 'NR == 2 { print $4 }'\n";

static void
check_remote_disk (Machine *machine, const char *remote_dir)
{
  const char *args[] = { remote_dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *free_text = NULL;
  g_auto (GStrv) lines = NULL;
  guint64 free_bytes;

  if (!ws_ssh_connection_script (machine->ssh, disk_script, args, 60, NULL, &out, &error) ||
      g_strv_length (lines = g_strsplit (out, "\n", -1)) < 3)
    {
      add (machine, "disk", WS_DOCTOR_WARNING,
           g_strdup_printf ("%s: %s", remote_dir, error != NULL ? error->message : "df"), NULL);
      return;
    }
  if (!g_str_equal (lines[1], "yes"))
    {
      add (
        machine, "disk", WS_DOCTOR_ERROR,
        g_strdup_printf (_ ("%s: cannot be written: no capture can be saved under it"), lines[0]),
        g_strdup_printf (_ ("Choose another folder for captures on %s: Settings → Hosts → "
                            "folder for captures, or --remote-dir DIR."),
                         machine->host));
      return;
    }
  free_bytes = g_ascii_strtoull (lines[2], NULL, 10) * 1024;
  free_text = g_format_size (free_bytes);
  if (free_bytes < DISK_WARNING_BYTES)
    add (machine, "disk", free_bytes < DISK_ERROR_BYTES ? WS_DOCTOR_ERROR : WS_DOCTOR_WARNING,
         g_strdup_printf (_ ("%s free in %s: nsys reports of long programs take gigabytes"),
                          free_text, lines[0]),
         g_strdup_printf (_ ("Free some space on %s, or choose another folder for captures "
                             "there: Settings → Hosts → folder for captures, or --remote-dir "
                             "DIR."),
                          machine->host));
  else
    add (machine, "disk", WS_DOCTOR_OK, g_strdup_printf (_ ("%s free in %s"), free_text, lines[0]),
         NULL);
}

static void
check_disk (Machine *machine, const char *out_dir)
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
        machine, "disk", WS_DOCTOR_ERROR,
        g_strdup_printf (_ ("%s: cannot be written: no capture can be saved under it"), existing),
        g_strdup (_ ("Choose another output folder: Settings → output folder, OUT_DIR, or "
                     "--out DIR.")));
      return;
    }
  info = g_file_query_filesystem_info (dir, G_FILE_ATTRIBUTE_FILESYSTEM_FREE, NULL, &error);
  if (info == NULL)
    {
      add (machine, "disk", WS_DOCTOR_WARNING, g_strdup_printf ("%s: %s", existing, error->message),
           NULL);
      return;
    }
  free_bytes = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_FILESYSTEM_FREE);
  free_text = g_format_size (free_bytes);
  if (free_bytes < DISK_WARNING_BYTES)
    add (machine, "disk", free_bytes < DISK_ERROR_BYTES ? WS_DOCTOR_ERROR : WS_DOCTOR_WARNING,
         g_strdup_printf (_ ("%s free in %s: nsys reports of long programs take gigabytes"),
                          free_text, existing),
         g_strdup (_ ("Free some space, or choose another output folder: Settings → output "
                      "folder, OUT_DIR, or --out DIR.")));
  else
    add (machine, "disk", WS_DOCTOR_OK, g_strdup_printf (_ ("%s free in %s"), free_text, existing),
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
 * Cancelling @cancellable kills the tool being asked and skips the
 * checks left.
 *
 * Returns: (transfer full) (element-type WsDoctorCheck): the checks, or
 *   %NULL with @error set when cancelled
 */
GPtrArray *
ws_doctor_run (const WsCaptureSettings *settings, const char *out_dir, const char *proc_root,
               GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) checks =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_doctor_check_free);
  Machine machine = { checks, NULL, NULL, cancellable };
  g_autofree char *nsys = NULL;
  g_autofree char *ncu = NULL;

  g_return_val_if_fail (settings != NULL && out_dir != NULL, NULL);

  if (proc_root == NULL)
    proc_root = "/proc";
  nsys = check_tool (&machine, "nsys", settings->nsys_path);
  if (!g_cancellable_is_cancelled (cancellable))
    ncu = check_tool (&machine, "ncu", settings->ncu_path);
  if (ncu != NULL && !g_cancellable_is_cancelled (cancellable))
    check_ncu_choices (&machine, ncu, settings);
  check_paranoid (&machine, proc_root);
  check_counters (&machine, proc_root);
  if (!g_cancellable_is_cancelled (cancellable))
    check_gpus (&machine);
  check_disk (&machine, out_dir);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return g_steal_pointer (&checks);
}

/**
 * ws_doctor_run_on_host:
 * @host: the host, as the settings or `--host` name it
 *
 * The checks of ws_doctor_run() on a host, through a connection of their
 * own: first that it can be reached (an unknown host key or a refused
 * login is an error, with what to do); the tools are the host's
 * (its settings, or `--nsys`/`--ncu` when @settings has `--host`, or found
 * there), the free space that of its folder for captures.  Blocks: call
 * it from a worker thread.
 *
 * Returns: (transfer full) (element-type WsDoctorCheck): the checks
 */
GPtrArray *
ws_doctor_run_on_host (const WsCaptureSettings *settings, const WsSshHost *host,
                       GCancellable *cancellable)
{
  GPtrArray *checks = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_doctor_check_free);
  Machine machine = { checks, NULL, NULL, cancellable };
  g_autoptr (WsSshConnection) connection = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) ssh = NULL;
  g_autofree char *where = NULL;
  const char *nsys_path;
  const char *ncu_path;
  g_autofree char *nsys = NULL;
  g_autofree char *ncu = NULL;

  g_return_val_if_fail (settings != NULL && host != NULL, checks);

  machine.host = host->name != NULL ? host->name : host->destination;
  where = ws_ssh_host_describe (host);
  ssh = ws_capture_settings_ssh_argv (settings, &error);
  if (ssh != NULL)
    {
      connection = ws_ssh_connection_new (host, (const char *const *) ssh);
      ws_ssh_connection_open (connection, cancellable, &error);
    }
  if (error != NULL)
    {
      g_autofree char *verify =
        connection != NULL ? ws_ssh_connection_verify_command (connection) : NULL;

      add (&machine, "ssh", WS_DOCTOR_ERROR, g_strdup (error->message),
           verify != NULL
             ? g_strdup_printf (_ ("Check in a terminal that this works without a question:\n%s"),
                                verify)
             : NULL);
      return checks;
    }
  add (&machine, "ssh", WS_DOCTOR_OK, g_strdup_printf (_ ("Connected to %s"), where), NULL);
  machine.ssh = connection;
  nsys_path = host->nsys != NULL ? host->nsys : settings->host != NULL ? settings->nsys_path : NULL;
  ncu_path = host->ncu != NULL ? host->ncu : settings->host != NULL ? settings->ncu_path : NULL;
  nsys = check_tool (&machine, "nsys", nsys_path);
  ncu = check_tool (&machine, "ncu", ncu_path);
  if (ncu != NULL)
    check_ncu_choices (&machine, ncu, settings);
  check_paranoid (&machine, "/proc");
  check_counters (&machine, "/proc");
  check_gpus (&machine);
  check_remote_disk (&machine, settings->remote_dir != NULL ? settings->remote_dir
                                                            : ws_ssh_host_remote_dir (host));
  ws_ssh_connection_close (connection);
  return checks;
}

typedef struct
{
  WsCaptureSettings *settings;
  char *out_dir;
  char *proc_root;
  GPtrArray *hosts;
} DoctorData;

static void
doctor_data_free (DoctorData *data)
{
  ws_capture_settings_free (data->settings);
  g_free (data->out_dir);
  g_free (data->proc_root);
  g_clear_pointer (&data->hosts, g_ptr_array_unref);
  g_free (data);
}

static void
doctor_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DoctorData *data = task_data;
  GError *error = NULL;
  GPtrArray *checks =
    data->out_dir != NULL
      ? ws_doctor_run (data->settings, data->out_dir, data->proc_root, cancellable, &error)
      : g_ptr_array_new_with_free_func ((GDestroyNotify) ws_doctor_check_free);

  if (checks == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  for (guint i = 0; data->hosts != NULL && i < data->hosts->len; i++)
    {
      g_autoptr (GPtrArray) there =
        ws_doctor_run_on_host (data->settings, g_ptr_array_index (data->hosts, i), cancellable);

      for (guint c = 0; c < there->len; c++)
        g_ptr_array_add (checks, g_ptr_array_steal_index (there, c--));
    }
  if (g_task_return_error_if_cancelled (task))
    {
      g_ptr_array_unref (checks);
      return;
    }
  g_task_return_pointer (task, checks, (GDestroyNotify) g_ptr_array_unref);
}

void
ws_doctor_run_async (const WsCaptureSettings *settings, const char *out_dir, const char *proc_root,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  ws_doctor_run_hosts_async (settings, out_dir, proc_root, NULL, cancellable, callback, user_data);
}

/**
 * ws_doctor_run_hosts_async:
 * @out_dir: (nullable): the output folder here; %NULL: no check of this machine
 * @hosts: (element-type WsSshHost) (nullable): the hosts to check, after
 *   this machine
 *
 * ws_doctor_run() and ws_doctor_run_on_host() for each host, on a worker
 * thread; each check says its host.
 */
void
ws_doctor_run_hosts_async (const WsCaptureSettings *settings, const char *out_dir,
                           const char *proc_root, GPtrArray *hosts, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  DoctorData *data = g_new0 (DoctorData, 1);

  data->settings = ws_capture_settings_copy (settings);
  data->out_dir = g_strdup (out_dir);
  data->proc_root = g_strdup (proc_root);
  if (hosts != NULL)
    {
      data->hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
      for (guint i = 0; i < hosts->len; i++)
        g_ptr_array_add (data->hosts, ws_ssh_host_copy (g_ptr_array_index (hosts, i)));
    }
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
