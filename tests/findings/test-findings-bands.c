/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-findings-bands.h"
#include "ws-findings.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* The severity bands are one table (ws-findings-bands.c): each check's
 * rule text prints the bounds of its row, and each finding's severity is
 * its measure's band in that row, on real exports. */

/* Where each row is raised, and the evidence that holds its measure: the
 * worst loop's when the finding spans several (the loop that set the
 * severity), else the finding's own. */
typedef struct
{
  WsFindingsBandsId id;
  const char *nsys;      /* an export of tests/data/nsys, or NULL */
  const char *nvprof;    /* else a log of tests/data/nvprof, or NULL */
  const char *worst_key; /* (nullable) */
  const char *key;
  const char *graphs; /* else an export of issue 39's CUDA graph captures, whole */
} Case;

/* tests/data/captures/h200_graphs_capture.tar.xz, unpacked once. */
static char *graphs_dir;

static const Case cases[] = {
  { WS_FINDINGS_BANDS_ALLOC_SHARE, "v2025.3_h100_probe.sqlite", NULL, "worst_time_share_pct",
    "time_share_pct" },
  { WS_FINDINGS_BANDS_TRANSFERS, "v2025.3_h100_probe.sqlite", NULL, "worst_time_share_pct",
    "time_share_pct" },
  { WS_FINDINGS_BANDS_TRANSFERS, "v2024.5_pipit_cloverleaf_4gpu.sqlite", NULL,
    "worst_time_share_pct", "time_share_pct" },
  { WS_FINDINGS_BANDS_SYNC, "v2025.3_h100_probe.sqlite", NULL, "worst_gpu_idle_after_pct",
    "gpu_idle_after_pct" },
  { WS_FINDINGS_BANDS_SYNC, "v2024.5_pipit_cloverleaf_4gpu.sqlite", NULL,
    "worst_gpu_idle_after_pct", "gpu_idle_after_pct" },
  { WS_FINDINGS_BANDS_LAUNCH, "v2025.3_h100_probe.sqlite", NULL, NULL, "gpu_busy_pct" },
  { WS_FINDINGS_BANDS_LAUNCH, "v2026.2_nsysai_mfu_before.sqlite", NULL, NULL, "gpu_busy_pct" },
  { WS_FINDINGS_BANDS_IMBALANCE, "v2025.3_h100_probe.sqlite", NULL, NULL, "ratio" },
  { WS_FINDINGS_BANDS_IDLE, "v2025.3_h100_probe.sqlite", NULL, NULL, "idle_pct" },
  { WS_FINDINGS_BANDS_IDLE, "v2026.2_nsysai_mfu_before.sqlite", NULL, NULL, "idle_pct" },
  { WS_FINDINGS_BANDS_IDLE, "v2022.2_pipit_saxpy_mpi.sqlite", NULL, NULL, "idle_pct" },
  { WS_FINDINGS_BANDS_MEMORY_ACCESS, "v2025.3_h100_probe.sqlite", NULL, NULL, "gpu_time_pct" },
  { WS_FINDINGS_BANDS_SUMMARY_TRANSFERS, NULL, "summary_written_small_copies.txt", NULL,
    "gpu_time_share_pct" },
  { WS_FINDINGS_BANDS_SUMMARY_LAUNCH, NULL, "summary_written_small_copies.txt", NULL,
    "tiny_share_pct" },
  { WS_FINDINGS_BANDS_RECAPTURE, NULL, NULL, NULL, "setup_share_pct",
    "node/decode_recapture/nsys/decode_recapture.sqlite" },
  { WS_FINDINGS_BANDS_REPLAY_GAPS, NULL, NULL, NULL, "idle_share_pct",
    "graph/decode_graph/nsys/decode_graph.sqlite" },
};

static WsRun *
load_case (const Case *c)
{
  g_autofree char *path = NULL;
  const char *paths[2] = { NULL, NULL };

  if (c->nsys != NULL)
    return ws_test_load_nsys (c->nsys);
  if (c->graphs != NULL)
    {
      if (graphs_dir == NULL)
        graphs_dir = ws_test_unpack ("captures/h200_graphs_capture.tar.xz");
      path = g_build_filename (graphs_dir, c->graphs, NULL);
      paths[0] = path;
      return ws_test_load_paths (paths);
    }
  path = ws_test_data ("nvprof", c->nvprof, NULL);
  paths[0] = path;
  return ws_test_load_paths (paths);
}

static double
evidence (const WsFinding *finding, const char *key)
{
  const WsEvidence *e = ws_finding_get_evidence (finding, key);

  g_assert_nonnull (e);
  return e->value;
}

/* The numbers a rule text prints, in order. */
static GArray *
rule_numbers (const char *rule)
{
  GArray *numbers = g_array_new (FALSE, FALSE, sizeof (double));

  for (const char *p = rule; *p != '\0';)
    if (g_ascii_isdigit (*p))
      {
        char *end;
        double v = g_ascii_strtod (p, &end);

        g_array_append_val (numbers, v);
        p = end;
      }
    else
      p++;
  return numbers;
}

static gboolean
has_number (GArray *numbers, double v)
{
  for (guint i = 0; i < numbers->len; i++)
    if (fabs (g_array_index (numbers, double, i) - v) < 1e-9)
      return TRUE;
  return FALSE;
}

static gboolean
has_bound (const WsBand *band)
{
  return band->edge == WS_BAND_FROM || band->edge == WS_BAND_ABOVE || band->edge == WS_BAND_BELOW;
}

/* The finding of row @id's check among @findings: the summary checks'
 * rules say so, the others' do not. */
static WsFinding *
find_for_row (GPtrArray *findings, WsFindingsBandsId id)
{
  gboolean summary =
    id == WS_FINDINGS_BANDS_SUMMARY_TRANSFERS || id == WS_FINDINGS_BANDS_SUMMARY_LAUNCH;

  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      if (g_str_equal (f->id, ws_findings_bands[id].finding) &&
          g_str_has_prefix (f->rule, "From a summary table") == summary)
        return f;
    }
  return NULL;
}

/* Every bound of a row is printed in its check's rule text; the one
 * bound written in words ("half") is checked as such.  Both rows of the
 * allocation check print in its one rule. */
static void
test_rule_prints_the_table (void)
{
  gboolean seen[WS_FINDINGS_N_BANDS] = { FALSE };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr (WsRun) run = load_case (c);
      g_autoptr (GPtrArray) findings = ws_findings_compute (run);
      WsFinding *f = find_for_row (findings, c->id);
      g_autoptr (GArray) numbers = NULL;
      WsFindingsBandsId rows[2] = { c->id, c->id };

      g_assert_nonnull (f);
      numbers = rule_numbers (f->rule);
      if (c->id == WS_FINDINGS_BANDS_ALLOC_SHARE)
        rows[1] = WS_FINDINGS_BANDS_ALLOC_RATE;
      for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
        {
          const WsFindingsBands *b = &ws_findings_bands[rows[r]];
          const WsBand *bands[] = { &b->severe, &b->medium, &b->minor };

          seen[rows[r]] = TRUE;
          for (guint k = 0; k < G_N_ELEMENTS (bands); k++)
            {
              if (!has_bound (bands[k]))
                continue;
              if (rows[r] == WS_FINDINGS_BANDS_SUMMARY_LAUNCH && bands[k] == &b->medium)
                {
                  g_assert_cmpfloat (bands[k]->bound, ==, 50);
                  g_assert_nonnull (strstr (f->rule, "half of the launches"));
                  continue;
                }
              if (!has_number (numbers, bands[k]->bound))
                g_error ("%s: the rule “%s” lacks the bound %g", b->finding, f->rule,
                         bands[k]->bound);
            }
        }
    }
  for (guint id = 0; id < WS_FINDINGS_N_BANDS; id++)
    g_assert_true (seen[id]);
}

/* Each finding's severity is the band its measure falls in. */
static void
test_severity_follows_the_band (void)
{
  guint severities = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr (WsRun) run = load_case (c);
      g_autoptr (GPtrArray) findings = ws_findings_compute (run);
      WsFinding *f = find_for_row (findings, c->id);
      const char *key = c->key;
      WsSeverity severity = (WsSeverity) -1;
      double measure;

      g_assert_nonnull (f);
      if (c->worst_key != NULL && ws_finding_get_evidence (f, c->worst_key) != NULL)
        key = c->worst_key;
      measure = evidence (f, key);
      /* The allocation check is severe by its rate alone. */
      if (c->id == WS_FINDINGS_BANDS_ALLOC_SHARE)
        {
          const char *rate_key = ws_finding_get_evidence (f, "worst_rate_per_s") != NULL
                                   ? "worst_rate_per_s"
                                   : "rate_per_s";

          if (!ws_findings_bands_judge (WS_FINDINGS_BANDS_ALLOC_RATE, evidence (f, rate_key),
                                        &severity))
            g_assert_true (ws_findings_bands_judge (c->id, measure, &severity));
        }
      else
        g_assert_true (ws_findings_bands_judge (c->id, measure, &severity));
      g_test_message ("%s on %s: %s %g → severity %d", f->id,
                      c->nsys     ? c->nsys
                      : c->nvprof ? c->nvprof
                                  : c->graphs,
                      key, measure, f->severity);
      g_assert_cmpint (f->severity, ==, severity);
      severities |= 1u << f->severity;
    }
  /* The cases cover every severity. */
  g_assert_cmpuint (severities, ==, 7);
}

/* Edges: a bound reads as the table says (above, from, below). */
static void
test_judge_edges (void)
{
  WsSeverity s = WS_SEVERITY_MINOR;

  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_SYNC, 30, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_MEDIUM);
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_SYNC, 30.01, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_SEVERE);
  g_assert_false (ws_findings_bands_judge (WS_FINDINGS_BANDS_SYNC, 4.99, &s));
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_IDLE, 50, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_SEVERE);
  g_assert_false (ws_findings_bands_judge (WS_FINDINGS_BANDS_IMBALANCE, 0.8, &s));
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_LAUNCH, 99, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_MINOR);
  g_assert_false (ws_findings_bands_judge (WS_FINDINGS_BANDS_ALLOC_RATE, 100, &s));
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_SUMMARY_LAUNCH, 1e9, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_MEDIUM);
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_RECAPTURE, 30, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_SEVERE);
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_RECAPTURE, 0.1, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_MINOR);
  g_assert_false (ws_findings_bands_judge (WS_FINDINGS_BANDS_REPLAY_GAPS, 9.99, &s));
  g_assert_true (ws_findings_bands_judge (WS_FINDINGS_BANDS_REPLAY_GAPS, 25, &s));
  g_assert_cmpint (s, ==, WS_SEVERITY_MEDIUM);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/findings-bands/rule-prints-the-table", test_rule_prints_the_table);
  g_test_add_func ("/findings-bands/severity-follows-the-band", test_severity_follows_the_band);
  g_test_add_func ("/findings-bands/judge-edges", test_judge_edges);
  status = g_test_run ();
  if (graphs_dir != NULL)
    ws_test_rmtree (graphs_dir);
  g_free (graphs_dir);
  return status;
}
