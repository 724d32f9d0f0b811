/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-findings-setup.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-gpu-busy.h"

/* What the checks raise in the set-up a steady state leaves out. */

/**
 * ws_findings_setup_line:
 *
 * One line on what the steady state leaves out: "Set-up before step 1:
 * 2.65 s, the GPU busy 0.8% of it; there: GPU idle (severe), …".
 *
 * Returns: (transfer full): the line, without a line end
 */
char *
ws_findings_setup_line (const WsRun *run, const WsSteps *steps)
{
  g_autoptr (WsRun) setup = ws_steps_setup_run (run, steps);
  g_autoptr (GPtrArray) findings = NULL;
  g_autoptr (GString) there = g_string_new (NULL);
  g_autofree char *wall = NULL;
  g_autofree char *steady = ws_steps_describe_steady (steps);
  gint64 span, busy;
  guint first = 0;

  for (guint i = 0; i < steps->steps->len; i++)
    if (!g_array_index (steps->steps, WsStep, i).warmup)
      {
        first = g_array_index (steps->steps, WsStep, i).number;
        break;
      }
  span = setup->end_time > run->origin ? setup->end_time - run->origin : 0;
  busy = ws_gpu_busy_during (run, WS_PID_ANY, run->origin, run->origin + span);
  wall = ws_format_duration ((double) span);
  findings = ws_findings_compute (setup);
  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *f = g_ptr_array_index (findings, i);

      if (i > 0)
        /* TRANSLATORS: between two findings of the set-up: "GPU idle (severe), …" */
        g_string_append (there, _ (", "));
      /* TRANSLATORS: a finding of the set-up and its severity: "GPU idle (severe)" */
      g_string_append_printf (there, _ ("%s (%s)"), f->title, ws_severity_label (f->severity));
    }
  /* TRANSLATORS: the steady state, then the set-up left out: the first steady step, the
   * set-up's wall time, the GPU's busy share in it, and what the checks raise there */
  return g_strdup_printf (
    _ ("Steady state: %s. Set-up before step %u (%s, the GPU busy %.1f%% of it) is left out%s%s."),
    steady, first, wall, span > 0 ? 100.0 * (double) busy / (double) span : 0.0,
    there->len > 0 ? _ ("; there: ") : "", there->str);
}
