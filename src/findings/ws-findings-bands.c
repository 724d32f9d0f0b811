/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include "ws-findings-bands.h"
#include "ws-findings.h"

/* Definitions of the measures: docs/NOTES.md, "Findings". */
const WsFindingsBands ws_findings_bands[WS_FINDINGS_N_BANDS] = {
  /* A free and an allocation per cycle: a rate this high is severe at any
   * share of the loop's time. */
  [WS_FINDINGS_BANDS_ALLOC_RATE] = { WS_FINDING_ALLOC_IN_LOOP,
                                     "allocation calls per second in the cycles",
                                     { WS_BAND_ABOVE, 100 },
                                     { WS_BAND_NONE, 0 },
                                     { WS_BAND_NONE, 0 } },
  [WS_FINDINGS_BANDS_ALLOC_SHARE] = { WS_FINDING_ALLOC_IN_LOOP,
                                      "% of the loop's time in the allocation calls",
                                      { WS_BAND_ABOVE, 30 },
                                      { WS_BAND_FROM, 10 },
                                      { WS_BAND_FROM, 5 } },
  /* Frequent copies are a finding at any share. */
  [WS_FINDINGS_BANDS_TRANSFERS] = { WS_FINDING_SMALL_TRANSFERS,
                                    "% of the loop's time in the copy calls",
                                    { WS_BAND_ABOVE, 30 },
                                    { WS_BAND_FROM, 10 },
                                    { WS_BAND_ANY, 0 } },
  [WS_FINDINGS_BANDS_SYNC] = { WS_FINDING_OVER_SYNC,
                               "% of the loop's time the GPU idles right after the syncs",
                               { WS_BAND_ABOVE, 30 },
                               { WS_BAND_FROM, 10 },
                               { WS_BAND_FROM, 5 } },
  [WS_FINDINGS_BANDS_LAUNCH] = { WS_FINDING_LAUNCH_OVERHEAD,
                                 "% of the loops' time the GPU is busy",
                                 { WS_BAND_BELOW, 25 },
                                 { WS_BAND_BELOW, 50 },
                                 { WS_BAND_ANY, 0 } },
  /* The minor bound also decides which phases count as imbalanced. */
  [WS_FINDINGS_BANDS_IMBALANCE] = { WS_FINDING_LOAD_IMBALANCE,
                                    "shortest/longest GPU time among the streams",
                                    { WS_BAND_BELOW, 0.5 },
                                    { WS_BAND_BELOW, 0.7 },
                                    { WS_BAND_BELOW, 0.8 } },
  [WS_FINDINGS_BANDS_IDLE] = { WS_FINDING_GPU_IDLE,
                               "% of a GPU's span with nothing running",
                               { WS_BAND_FROM, 50 },
                               { WS_BAND_FROM, 20 },
                               { WS_BAND_FROM, 10 } },
  [WS_FINDINGS_BANDS_MEMORY_ACCESS] = { WS_FINDING_MEMORY_ACCESS,
                                        "% of the kernel time in scattered kernels",
                                        { WS_BAND_FROM, 30 },
                                        { WS_BAND_FROM, 10 },
                                        { WS_BAND_FROM, 2 } },
  [WS_FINDINGS_BANDS_SUMMARY_TRANSFERS] = { WS_FINDING_SMALL_TRANSFERS,
                                            "% of the summary's GPU time in small copies",
                                            { WS_BAND_ABOVE, 30 },
                                            { WS_BAND_FROM, 10 },
                                            { WS_BAND_ANY, 0 } },
  /* Without events, how idle the GPU was is unknown: never severe. */
  [WS_FINDINGS_BANDS_SUMMARY_LAUNCH] = { WS_FINDING_LAUNCH_OVERHEAD,
                                         "% of the summary's launches of short kernels",
                                         { WS_BAND_NONE, 0 },
                                         { WS_BAND_FROM, 50 },
                                         { WS_BAND_ANY, 0 } },
  /* Raised at any share once most steps instantiate a graph (the count
   * rule is in ws-findings-recapture.c). */
  [WS_FINDINGS_BANDS_RECAPTURE] = { WS_FINDING_GRAPH_RECAPTURE,
                                    "% of the steps' time capturing and instantiating graphs",
                                    { WS_BAND_FROM, 30 },
                                    { WS_BAND_FROM, 10 },
                                    { WS_BAND_ANY, 0 } },
  [WS_FINDINGS_BANDS_REPLAY_GAPS] = { WS_FINDING_REPLAY_GAPS,
                                      "% of the replays' period with the GPU idle between them",
                                      { WS_BAND_FROM, 50 },
                                      { WS_BAND_FROM, 25 },
                                      { WS_BAND_FROM, 10 } },
};

static gboolean
in_band (const WsBand *band, double measure)
{
  switch (band->edge)
    {
      case WS_BAND_FROM:
        return measure >= band->bound;
      case WS_BAND_ABOVE:
        return measure > band->bound;
      case WS_BAND_BELOW:
        return measure < band->bound;
      case WS_BAND_ANY:
        return TRUE;
      case WS_BAND_NONE:
      default:
        return FALSE;
    }
}

/**
 * ws_findings_bands_judge:
 *
 * Sets @severity to the band of row @id that @measure falls in, trying
 * severe first.  Returns FALSE, leaving @severity, when it falls in none:
 * the check raises nothing for it.
 */
gboolean
ws_findings_bands_judge (WsFindingsBandsId id, double measure, WsSeverity *severity)
{
  const WsFindingsBands *bands;

  g_return_val_if_fail (id < WS_FINDINGS_N_BANDS, FALSE);
  bands = &ws_findings_bands[id];
  if (in_band (&bands->severe, measure))
    *severity = WS_SEVERITY_SEVERE;
  else if (in_band (&bands->medium, measure))
    *severity = WS_SEVERITY_MEDIUM;
  else if (in_band (&bands->minor, measure))
    *severity = WS_SEVERITY_MINOR;
  else
    return FALSE;
  return TRUE;
}
