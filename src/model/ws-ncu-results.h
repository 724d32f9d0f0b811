/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-gauge.h"

G_BEGIN_DECLS

/* The launches that Nsight Compute profiled, read from its CSV exports.
 * ws_ncu_reader_load() fills it; on the loading thread the analyses then
 * add the gauges (ws_gauges_compute_all()) and the nsys match
 * (ws_ncu_match_attach()), and from then on it is immutable, ref-counted,
 * shared by reference between windows and threads.
 *
 * Metrics are columns: one array of values per metric, one value per
 * launch, so that a 2,000-metric raw page of 8 launches costs about
 * 2,000 × 8 doubles, and the overview can scan one metric over all
 * launches.  Every metric of the files is kept, not only the gauge ones. */

typedef struct _WsNcuResults WsNcuResults;

typedef enum
{
  WS_NCU_PAGE_RAW = 1 << 0,     /* --page raw: one row per launch */
  WS_NCU_PAGE_DETAILS = 1 << 1, /* the default page: one row per metric */
} WsNcuPage;

/* How an ncu launch was matched to an nsys kernel (ws-ncu-match.h). */
typedef enum
{
  WS_NCU_MATCH_NONE,       /* not matched yet, or no nsys run */
  WS_NCU_MATCH_EXACT,      /* the same demangled, short or mangled name */
  WS_NCU_MATCH_NORMALIZED, /* equal once casts and namespace qualifiers are dropped */
  WS_NCU_MATCH_BASE,       /* the same function name, and only one nsys kernel has it */
  WS_NCU_MATCH_UNMATCHED,  /* matched against a run, and nothing fitted */
  WS_NCU_MATCH_MANIFEST,   /* the capture's run.json names the kernel its report was made for */
  WS_NCU_MATCH_FUNCTION,   /* equal once return types and parameters are dropped too */
} WsNcuMatchKind;

/* The nsys kernel an ncu report was made for, as a capture's run.json
 * records it (any field may be NULL in older manifests). */
typedef struct
{
  char *demangled;
  char *mangled;
  char *grid; /* "(256, 1, 1)", as ncu writes it */
  char *block;
} WsNcuExpected;

/* One profiled kernel launch: the leading columns of its row(s).  Strings
 * are interned in the results and live as long as they do. */
typedef struct
{
  gint64 id;                  /* the "ID" column: the launch's number in its report */
  guint32 pid;                /* "Process ID" */
  const char *process;        /* "Process Name" */
  const char *host;           /* "Host Name" */
  const char *kernel;         /* "Kernel Name", as ncu printed it */
  const char *kernel_time;    /* 2019 layout: "Kernel Time", or NULL */
  gint32 context;             /* -1 where absent */
  gint32 stream;              /* -1 where absent */
  const char *block;          /* "(256, 1, 1)", or NULL (2019 layout) */
  const char *grid;           /* "(65536, 1, 1)", or NULL */
  gint32 device;              /* -1 where absent */
  const char *cc;             /* compute capability "9.0", or NULL */
  const char *nvtx_push_pop;  /* --nvtx: the push/pop ranges column as written, or NULL */
  const char *nvtx_start_end; /* --nvtx: the start/end ranges column, or NULL */
  guint file;                 /* index into WsNcuResults.files of the first file that had it */
  guint pages;                /* WsNcuPage: the pages it was read from */
  gint64 invocations;      /* nvprof: the launches its values are over (Min, Max, Avg); 0 for ncu */
  const char *device_name; /* nvprof: "Tesla V100-PCIE-32GB", from `Device "… (0)"`; or NULL */
} WsNcuLaunch;

/* One metric column.  Values are normalised to base units: time in ns,
 * sizes in bytes (ncu's K/M/G/T are powers of 1000), rates per second,
 * frequencies in Hz; % and counts stay as they are. */
typedef struct
{
  const char *name;      /* raw page: the column; details page: "Metric Name" */
  const char *section;   /* details page: "Section Name"; NULL on the raw page */
  const char *alias;     /* the raw metric a details display name stands for, or NULL */
  const char *unit;      /* the unit as written, of the first launch that has one ("us") */
  const char *base_unit; /* the unit of @values: "ns", "byte", "byte/s", "Hz", "%", or @unit */
  double *values;        /* one per launch; NaN where missing or not a number */
  const char **text;     /* one per launch: the cell where it is text ("PolicySpread"); or NULL */
  const char **units;    /* one per launch: the unit where it differs from @unit; or NULL */
  const char
    *description; /* nvprof: its "Metric Description" ("Multiprocessor Activity"), or NULL */
  double *min;    /* nvprof: one per launch, the Min over its invocations (base units); or NULL */
  double *max;    /* nvprof: the Max, likewise; or NULL */
  double *total;  /* nvprof events: the Total over the invocations; or NULL */
  /*< private >*/
  gsize n_alloc;
} WsNcuMetric;

/* A rule row of the details page: ncu's own advice for a launch. */
typedef struct
{
  guint launch;
  const char *section;
  const char *name;
  const char *type; /* "OPT", "WRN", "INF" */
  const char *description;
  const char *speedup_type; /* "local", "global", or NULL */
  double speedup;           /* %, NaN where absent */
} WsNcuRule;

/* The nsys kernel a launch was matched to. */
typedef struct
{
  WsNcuMatchKind kind;
  const char *nsys_name; /* the nsys demangled name (interned here), or NULL */
  const char *why;       /* static: why it did not match, or NULL */
  const char *closest;   /* unmatched: the nsys kernel nearest by name (interned), or NULL */
  const char *differs;   /* unmatched: where the closest one differs (interned), or NULL */
} WsNcuMatch;

struct _WsNcuResults
{
  gatomicrefcount ref_count;

  GStringChunk *strings;
  GPtrArray *files;    /* char *: the files read, in order */
  GArray *launches;    /* WsNcuLaunch, in file order */
  GPtrArray *metrics;  /* WsNcuMetric *, in the order first met */
  GHashTable *by_key;  /* name (raw) or "section\x1fname" (details) → WsNcuMetric */
  GHashTable *aliases; /* raw metric name → WsNcuMetric of the details page that stands for it */
  GArray *rules;       /* WsNcuRule */
  GPtrArray *warnings; /* char *: what was odd but not fatal */

  WsGauges *gauges;    /* one per launch: ws_gauges_compute_all() (analysis), or NULL */
  WsNcuMatch *match;   /* one per launch once matched to an nsys run, or NULL */
  GPtrArray *expected; /* per file: WsNcuExpected * from the capture's manifest, or NULL */
  const char **labels; /* per launch: its display name (interned here), or NULL */
  gboolean nvprof;     /* read from nvprof's --metrics/--events output, not from ncu */
  gboolean finished;
};

WsNcuResults *ws_ncu_results_new (void);
WsNcuResults *ws_ncu_results_ref (WsNcuResults *self);
void ws_ncu_results_unref (WsNcuResults *self);

guint ws_ncu_results_n_launches (const WsNcuResults *self);
const WsNcuLaunch *ws_ncu_results_launch (const WsNcuResults *self, guint launch);
const WsGauges *ws_ncu_results_gauges (const WsNcuResults *self, guint launch);
const WsNcuMatch *ws_ncu_results_match (const WsNcuResults *self, guint launch);
const WsNcuMetric *ws_ncu_results_find_metric (const WsNcuResults *self, const char *name);
const WsNcuMetric *ws_ncu_results_find_details_metric (const WsNcuResults *self,
                                                       const char *section, const char *name);
gboolean ws_ncu_results_value (const WsNcuResults *self, guint launch, const char *metric,
                               double *value, const WsNcuMetric **from);
const char *ws_ncu_results_text (const WsNcuResults *self, guint launch, const char *metric);
char *ws_ncu_launch_nvtx_path (const WsNcuLaunch *launch);
gsize ws_ncu_results_memory (const WsNcuResults *self);

gboolean ws_ncu_unit_normalize (const char *unit, double *scale, const char **base_unit);

/* For the reader: building results before ws_ncu_results_finish(). */
const char *ws_ncu_results_intern (WsNcuResults *self, const char *str);
void ws_ncu_results_expect (WsNcuResults *self, guint file, const WsNcuExpected *expected);
const WsNcuExpected *ws_ncu_results_expected (const WsNcuResults *self, guint file);
const char *ws_ncu_results_label (const WsNcuResults *self, guint launch);
guint ws_ncu_results_add_file (WsNcuResults *self, const char *path);
guint ws_ncu_results_add_launch (WsNcuResults *self, const WsNcuLaunch *launch);
WsNcuMetric *ws_ncu_results_add_metric (WsNcuResults *self, const char *section, const char *name,
                                        const char *alias);
void ws_ncu_results_set_cell (WsNcuResults *self, WsNcuMetric *metric, guint launch,
                              const char *cell, const char *unit);
void ws_ncu_results_set_value (WsNcuResults *self, WsNcuMetric *metric, guint launch, double value,
                               const char *unit, const char *base_unit, const char *text);
void ws_ncu_results_set_range (WsNcuResults *self, WsNcuMetric *metric, guint launch, double min,
                               double max, double total);
void ws_ncu_results_add_rule (WsNcuResults *self, const WsNcuRule *rule);
void ws_ncu_results_add_warning (WsNcuResults *self, const char *format, ...) G_GNUC_PRINTF (2, 3);
void ws_ncu_results_finish (WsNcuResults *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNcuResults, ws_ncu_results_unref)

G_END_DECLS
