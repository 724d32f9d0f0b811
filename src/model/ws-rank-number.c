/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ranks"
#include "config.h"

#include <string.h>

#include "ws-ranks.h"

/* What gives a process its rank number and its job: its export's file
 * name, the environment and command line the export records. */

/* A file's name without its folder and its export extensions. */
char *
ws_rank_number_file_stem (const char *path)
{
  static const char *const exts[] = { ".xz", ".gz", ".sqlite", ".nsys-rep", ".qdrep", ".json" };
  char *base = g_path_get_basename (path);
  gboolean again = TRUE;

  while (again)
    {
      again = FALSE;
      for (gsize i = 0; i < G_N_ELEMENTS (exts); i++)
        if (g_str_has_suffix (base, exts[i]) && strlen (base) > strlen (exts[i]))
          {
            base[strlen (base) - strlen (exts[i])] = '\0';
            again = TRUE;
          }
    }
  return base;
}

static gboolean
parse_number (const char *digits, gsize len, guint *value)
{
  guint64 v = 0;

  if (len == 0 || len > 7)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isdigit (digits[i]))
        return FALSE;
      v = v * 10 + (guint) (digits[i] - '0');
    }
  *value = (guint) v;
  return TRUE;
}

static gsize
count_digits (const char *p)
{
  gsize n = 0;

  while (g_ascii_isdigit (p[n]))
    n++;
  return n;
}

/**
 * ws_rank_number_from_name:
 * @how: (out) (optional) (transfer full): the part of the name that gave it
 *
 * The rank number a file's name carries: `rank3`, `rank_3`, `Rank-03`,
 * `_r3`, `.3.` (`report.3.sqlite`), or a name that is a number or ends
 * with one after `_` or `-`, as `nsys profile -o report_%q{RANK}` writes
 * it.
 */
gboolean
ws_rank_number_from_name (const char *path, guint *rank, char **how)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *stem = ws_rank_number_file_stem (path);
  g_autofree char *lower = g_ascii_strdown (stem, -1);
  guint value;
  gsize len;

  g_return_val_if_fail (path != NULL && rank != NULL, FALSE);

  for (const char *p = strstr (lower, "rank"); p != NULL; p = strstr (p + 1, "rank"))
    {
      const char *d = p + 4;

      if (p > lower && g_ascii_isalpha (p[-1]))
        continue;
      if (*d == '_' || *d == '-' || *d == '.')
        d++;
      len = count_digits (d);
      if (len > 0 && !g_ascii_isalpha (d[len]) && parse_number (d, len, &value))
        {
          *rank = value;
          if (how != NULL)
            *how = g_strndup (stem + (p - lower), (d - p) + len);
          return TRUE;
        }
    }
  for (const char *p = lower; *p != '\0'; p++)
    {
      if ((*p != '_' && *p != '-' && *p != '.') || p[1] != 'r')
        continue;
      len = count_digits (p + 2);
      if (len > 0 && !g_ascii_isalnum (p[2 + len]) && parse_number (p + 2, len, &value))
        {
          *rank = value;
          if (how != NULL)
            *how = g_strndup (stem + (p - lower), 2 + len);
          return TRUE;
        }
    }
  /* ".3." in the whole name, extensions included: "job.3.nsys-rep". */
  for (const char *p = strchr (base, '.'); p != NULL; p = strchr (p + 1, '.'))
    {
      len = count_digits (p + 1);
      if (len > 0 && p[1 + len] == '.' && parse_number (p + 1, len, &value))
        {
          *rank = value;
          if (how != NULL)
            *how = g_strndup (p, len + 2);
          return TRUE;
        }
    }
  len = count_digits (stem);
  if (len > 0 && stem[len] == '\0' && parse_number (stem, len, &value))
    {
      *rank = value;
      if (how != NULL)
        *how = g_strdup (stem);
      return TRUE;
    }
  len = strlen (stem);
  {
    gsize digits = 0;

    while (digits < len && g_ascii_isdigit (stem[len - 1 - digits]))
      digits++;
    if (digits > 0 && digits < len &&
        (stem[len - 1 - digits] == '_' || stem[len - 1 - digits] == '-') &&
        parse_number (stem + len - digits, digits, &value))
      {
        *rank = value;
        if (how != NULL)
          *how = g_strdup (stem + len - digits - 1);
        return TRUE;
      }
  }
  return FALSE;
}

static const char *
env_get (char *const *env, const char *name)
{
  gsize len = strlen (name);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    if (strncmp (env[i], name, len) == 0 && env[i][len] == '=')
      return env[i] + len + 1;
  return NULL;
}

/* The variables that launchers set to a process's rank, most telling first. */
static const char *const rank_vars[] = {
  "RANK",         "OMPI_COMM_WORLD_RANK", "PMIX_RANK",   "PMI_RANK",
  "SLURM_PROCID", "MV2_COMM_WORLD_RANK",  "PALS_RANKID", "MPI_RANKID",
};

/* The variables that name a process's job, most telling first. */
static const char *const job_vars[] = {
  "TORCHELASTIC_RUN_ID",     "SLURM_JOB_ID", "SLURM_JOBID", "PMI_JOBID",
  "OMPI_MCA_ess_base_jobid", "PBS_JOBID",    "LSB_JOBID",   "FLUX_JOB_ID",
  "OMPI_MCA_orte_ess_jobid",
};

static const char *const size_vars[] = {
  "WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", "MV2_COMM_WORLD_SIZE",
};

/**
 * ws_rank_number_from_env:
 * @env: (array zero-terminated=1) (nullable): NAME=value pairs
 * @how: (out) (optional) (transfer full): "RANK=3"
 *
 * The rank number a launcher gave a process: torchrun's `RANK`, Open MPI's
 * `OMPI_COMM_WORLD_RANK`, `PMIX_RANK`, `PMI_RANK`, Slurm's `SLURM_PROCID`,
 * MVAPICH's and Cray PALS's.
 */
gboolean
ws_rank_number_from_env (char *const *env, guint *rank, char **how)
{
  g_return_val_if_fail (rank != NULL, FALSE);

  for (gsize i = 0; i < G_N_ELEMENTS (rank_vars); i++)
    {
      const char *value = env_get (env, rank_vars[i]);

      if (value != NULL && parse_number (value, strlen (value), rank))
        {
          if (how != NULL)
            *how = g_strdup_printf ("%s=%s", rank_vars[i], value);
          return TRUE;
        }
    }
  return FALSE;
}

/* The size of the job its launcher gave a process, or 0. */
gint
ws_rank_number_world_size (char *const *env)
{
  guint size;

  for (gsize i = 0; i < G_N_ELEMENTS (size_vars); i++)
    {
      const char *value = env_get (env, size_vars[i]);

      if (value != NULL && parse_number (value, strlen (value), &size) && size > 0)
        return (gint) size;
    }
  return 0;
}

/**
 * ws_rank_number_from_command:
 * @how: (out) (optional) (transfer full): "--rank 3"
 *
 * A rank given on the command line: `--rank 3`, `--rank=3`, `--local_rank 3`
 * (`--local-rank`), as training scripts take it.
 */
gboolean
ws_rank_number_from_command (const char *command, guint *rank, char **how)
{
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (GMatchInfo) match = NULL;

  g_return_val_if_fail (rank != NULL, FALSE);

  if (command == NULL)
    return FALSE;
  regex =
    g_regex_new ("(?:^|\\s)(--?(?:local[_-])?rank(?:=|\\s+)([0-9]{1,7}))(?:\\s|$)", 0, 0, NULL);
  if (!g_regex_match (regex, command, 0, &match))
    return FALSE;
  {
    g_autofree char *digits = g_match_info_fetch (match, 2);

    if (!parse_number (digits, strlen (digits), rank))
      return FALSE;
  }
  if (how != NULL)
    *how = g_match_info_fetch (match, 1);
  return TRUE;
}

/**
 * ws_rank_number_job:
 *
 * What names a process's job: torchrun's run id, the batch system's job
 * id, the MPI launcher's, or else the rendezvous address.
 *
 * Returns: (transfer full) (nullable): "NAME=value", or %NULL
 */
char *
ws_rank_number_job (char *const *env)
{
  const char *addr, *port;

  for (gsize i = 0; i < G_N_ELEMENTS (job_vars); i++)
    {
      const char *value = env_get (env, job_vars[i]);

      if (value != NULL && *value != '\0')
        return g_strdup_printf ("%s=%s", job_vars[i], value);
    }
  addr = env_get (env, "MASTER_ADDR");
  port = env_get (env, "MASTER_PORT");
  if (addr != NULL && port != NULL)
    return g_strdup_printf ("MASTER_ADDR:PORT=%s:%s", addr, port);
  return NULL;
}

/**
 * ws_rank_number_from_thread_name:
 * @name: (nullable): "MPI Rank 3", as nsys's MPI tracing names a thread
 * @how: (out) (optional) (transfer full): the name
 */
gboolean
ws_rank_number_from_thread_name (const char *name, guint *rank, char **how)
{
  const char *digits;

  g_return_val_if_fail (rank != NULL, FALSE);

  if (name == NULL || !g_str_has_prefix (name, "MPI Rank "))
    return FALSE;
  digits = name + strlen ("MPI Rank ");
  if (!parse_number (digits, strlen (digits), rank))
    return FALSE;
  if (how != NULL)
    *how = g_strdup (name);
  return TRUE;
}

static gboolean
names_one_of (const char *entry, const char *const *names, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      gsize len = strlen (names[i]);

      if (strncmp (entry, names[i], len) == 0 && entry[len] == '=')
        return TRUE;
    }
  return FALSE;
}

/**
 * ws_rank_number_env_keeps:
 * @entry: "NAME=value"
 *
 * Whether the numbering of ranks reads this variable (a rank, a job size,
 * a job): what a job digest keeps of a process's environment, the rest
 * (tokens, paths) staying in the export.
 */
gboolean
ws_rank_number_env_keeps (const char *entry)
{
  static const char *const rendezvous[] = { "MASTER_ADDR", "MASTER_PORT" };

  g_return_val_if_fail (entry != NULL, FALSE);

  return names_one_of (entry, rank_vars, G_N_ELEMENTS (rank_vars)) ||
         names_one_of (entry, size_vars, G_N_ELEMENTS (size_vars)) ||
         names_one_of (entry, job_vars, G_N_ELEMENTS (job_vars)) ||
         names_one_of (entry, rendezvous, G_N_ELEMENTS (rendezvous));
}
