/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture"
#include "config.h"

#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-launch.h"

/* A target that is a distributed job, captured one export per rank: nsys
 * goes inside the launcher, before the program, so that each rank runs
 * under an nsys of its own and names its report after its rank:
 *
 *   torchrun --nproc_per_node 2 train.py --lr 3
 *   → torchrun --nproc_per_node 2 --no-python nsys profile … \
 *       --output …/rank%q{RANK} python3 train.py --lr 3
 *   mpirun -n 4 ./app
 *   → mpirun -n 4 nsys profile … --output …/rank%q{OMPI_COMM_WORLD_RANK}%q{PMI_RANK} ./app
 *
 * (nsys expands %q{NAME} to the variable's value, and to nothing where it
 * is unset: Open MPI sets OMPI_COMM_WORLD_RANK, MPICH and Slurm's PMI set
 * PMI_RANK.) */

void
ws_capture_launch_clear (WsCaptureLaunch *self)
{
  g_clear_pointer (&self->launcher, g_strfreev);
  g_clear_pointer (&self->program, g_strfreev);
}

/* torchrun's options that take no value. */
static const char *const torchrun_flags[] = {
  "--standalone", "--no-python", "--no_python", "--run-path", "--run_path",
  "--module",     "-m",          "--redirects", "--tee",
};

static gboolean
is_flag (const char *arg, const char *const *flags, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (arg, flags[i]))
      return TRUE;
  return FALSE;
}

static gboolean
parse_count (const char *text, guint *n)
{
  guint64 v;
  char *end;

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  v = g_ascii_strtoull (text, &end, 10);
  if (*end != '\0' || v == 0 || v > 65535)
    return FALSE;
  *n = (guint) v;
  return TRUE;
}

/* The value of option @name in @argv[i] ("--name=V" or "--name V"). */
static const char *
option_value (char **argv, guint i, const char *name)
{
  gsize len = strlen (name);

  if (strncmp (argv[i], name, len) == 0 && argv[i][len] == '=')
    return argv[i] + len + 1;
  if (g_str_equal (argv[i], name))
    return argv[i + 1];
  return NULL;
}

static char **
slice (char **argv, guint from, guint to)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **out;

  for (guint i = from; i < to && argv[i] != NULL; i++)
    g_strv_builder_add (builder, argv[i]);
  out = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return out;
}

static gboolean
parse_torchrun (char **argv, guint start, WsCaptureLaunch *out)
{
  guint i = start;
  gboolean no_python = FALSE;

  for (; argv[i] != NULL && argv[i][0] == '-'; i++)
    {
      const char *value;

      if (g_str_equal (argv[i], "--no-python") || g_str_equal (argv[i], "--no_python"))
        no_python = TRUE;
      if ((value = option_value (argv, i, "--nproc_per_node")) != NULL ||
          (value = option_value (argv, i, "--nproc-per-node")) != NULL)
        parse_count (value, &out->n_ranks);
      if (strchr (argv[i], '=') == NULL &&
          !is_flag (argv[i], torchrun_flags, G_N_ELEMENTS (torchrun_flags)) && argv[i + 1] != NULL)
        i++;
    }
  if (argv[i] == NULL)
    return FALSE;
  out->launcher = slice (argv, 0, i);
  if (!no_python)
    {
      /* nsys runs the program: torchrun must not put python before it. */
      GStrvBuilder *builder = g_strv_builder_new ();

      g_strv_builder_addv (builder, (const char **) out->launcher);
      g_strv_builder_add (builder, "--no-python");
      g_strfreev (out->launcher);
      out->launcher = g_strv_builder_end (builder);
      g_strv_builder_unref (builder);
      {
        g_auto (GStrv) rest = slice (argv, i, G_MAXUINT);

        builder = g_strv_builder_new ();
        g_strv_builder_add (builder, "python3");
        g_strv_builder_addv (builder, (const char **) rest);
        out->program = g_strv_builder_end (builder);
        g_strv_builder_unref (builder);
      }
    }
  else
    out->program = slice (argv, i, G_MAXUINT);
  out->kind = WS_CAPTURE_LAUNCH_TORCHRUN;
  out->rank_pattern = "%q{RANK}";
  return TRUE;
}

/* mpirun's and srun's options that take no value (the common ones). */
static const char *const mpi_flags[] = {
  "--oversubscribe",
  "--allow-run-as-root",
  "--tag-output",
  "--timestamp-output",
  "--report-bindings",
  "-v",
  "--verbose",
  "--quiet",
  "-q",
  "--exclusive",
  "-l",
  "--label",
  "--bind-to-core",
  "--bind-to-socket",
  "--nolocal",
  "--noprefix",
};

static gboolean
parse_mpi (char **argv, guint start, gboolean srun, WsCaptureLaunch *out)
{
  guint i = start;

  for (; argv[i] != NULL && argv[i][0] == '-'; i++)
    {
      const char *value;

      if ((value = option_value (argv, i, srun ? "--ntasks" : "-np")) != NULL ||
          (value = option_value (argv, i, "-n")) != NULL ||
          (!srun && (value = option_value (argv, i, "--np")) != NULL) ||
          (!srun && (value = option_value (argv, i, "--n")) != NULL))
        parse_count (value, &out->n_ranks);
      if (strchr (argv[i], '=') == NULL &&
          !is_flag (argv[i], mpi_flags, G_N_ELEMENTS (mpi_flags)) && argv[i + 1] != NULL)
        i++;
    }
  if (argv[i] == NULL)
    return FALSE;
  out->launcher = slice (argv, 0, i);
  out->program = slice (argv, i, G_MAXUINT);
  out->kind = srun ? WS_CAPTURE_LAUNCH_SRUN : WS_CAPTURE_LAUNCH_MPIRUN;
  out->rank_pattern = srun ? "%q{SLURM_PROCID}" : "%q{OMPI_COMM_WORLD_RANK}%q{PMI_RANK}";
  return TRUE;
}

/**
 * ws_capture_launch_parse:
 * @cmd: a target's CMD
 * @out: (out caller-allocates): the launcher, the program and the ranks
 *
 * Reads a distributed job's command: `torchrun` (or `python -m
 * torch.distributed.run`) with `--nproc_per_node N`, `mpirun`/`mpiexec`
 * with `-n N` (or `-np`), `srun` with `-n N` (`--ntasks`).
 *
 * Returns: %FALSE with @error set when @cmd is no such job, is more than
 *   one command (pipes, `;`, `&&`), or does not say how many ranks
 */
gboolean
ws_capture_launch_parse (const char *cmd, WsCaptureLaunch *out, GError **error)
{
  g_auto (GStrv) argv = NULL;
  g_autofree char *first = NULL;
  gboolean ok = FALSE;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (cmd != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (strpbrk (cmd, "|;&<>`$(") != NULL || !g_shell_parse_argv (cmd, NULL, &argv, &local))
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "one export per rank needs CMD to be one launcher command (torchrun, mpirun, "
                   "srun), without pipes, redirections or substitutions: %s",
                   cmd);
      return FALSE;
    }
  first = g_path_get_basename (argv[0]);
  if (g_str_equal (first, "torchrun"))
    ok = parse_torchrun (argv, 1, out);
  else if (g_str_has_prefix (first, "python") && argv[1] != NULL && argv[2] != NULL &&
           g_str_equal (argv[1], "-m") && g_str_equal (argv[2], "torch.distributed.run"))
    ok = parse_torchrun (argv, 3, out);
  else if (g_str_equal (first, "mpirun") || g_str_equal (first, "mpiexec"))
    ok = parse_mpi (argv, 1, FALSE, out);
  else if (g_str_equal (first, "srun"))
    ok = parse_mpi (argv, 1, TRUE, out);
  else
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "one export per rank needs a distributed job (torchrun, mpirun, mpiexec or "
                   "srun), not “%s”",
                   argv[0]);
      return FALSE;
    }
  if (!ok)
    {
      ws_capture_launch_clear (out);
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s: no program to run after the launcher's options", cmd);
      return FALSE;
    }
  if (out->n_ranks == 0)
    {
      ws_capture_launch_clear (out);
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID,
                   "%s: the number of ranks is not given (--nproc_per_node N for torchrun, "
                   "-n N for mpirun and srun)",
                   cmd);
      return FALSE;
    }
  return TRUE;
}

static char *
join_quoted (char **argv)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      g_autofree char *quoted = g_shell_quote (argv[i]);

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, quoted);
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_capture_launch_command:
 * @tool: (array zero-terminated=1): what to put before each rank's
 *   program (`nsys profile … --output …/rank%q{RANK}`)
 *
 * Returns: (transfer full): the launcher, @tool, then the program, as one
 *   shell line for `bash -lc`
 */
char *
ws_capture_launch_command (const WsCaptureLaunch *self, char **tool)
{
  g_autofree char *launcher = join_quoted (self->launcher);
  g_autofree char *middle = join_quoted (tool);
  g_autofree char *program = join_quoted (self->program);

  return g_strjoin (" ", launcher, middle, program, NULL);
}

/**
 * ws_capture_launch_on_rank:
 * @tool: (array zero-terminated=1): what runs @rank's program (ncu …)
 *
 * Returns: (transfer full): the job with @tool over @rank alone, the other
 *   ranks run as they are, as one shell line for `bash -lc`
 */
char *
ws_capture_launch_on_rank (const WsCaptureLaunch *self, guint rank, char **tool)
{
  const char *var = self->kind == WS_CAPTURE_LAUNCH_TORCHRUN ? "${RANK:-0}"
                    : self->kind == WS_CAPTURE_LAUNCH_SRUN
                      ? "${SLURM_PROCID:-0}"
                      : "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}";
  g_autofree char *tool_line = join_quoted (tool);
  g_autofree char *script = g_strdup_printf (
    "if [ \"%s\" = %u ]; then exec %s \"$@\"; else exec \"$@\"; fi", var, rank, tool_line);
  char *wrapper[] = { (char *) "bash", (char *) "-c", script, (char *) "ws-one-rank", NULL };

  return ws_capture_launch_command (self, wrapper);
}
