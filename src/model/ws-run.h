/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-cpu-profile.h"
#include "ws-string-table.h"
#include "ws-summary.h"

#define WS_RUN_ANY_PID G_MAXUINT32
/* A kernel or memory operation that ran outside any CUDA graph replay. */
#define WS_REPLAY_NONE G_MAXUINT32

G_BEGIN_DECLS

/* One opened run, immutable once loaded and shared by reference between
 * windows and threads.  Column-oriented: each event kind is a set of arrays
 * of the same length, so that millions of events stay compact and scans
 * stay in cache.  Times are int64 nanoseconds on the capture's session
 * clock, exactly as nsys stores them; the display origin is @origin.
 *
 * The struct is public so that summaries and renderers can scan the arrays
 * directly.  Only the code that builds a run writes to it: the readers
 * (formats), the loader, and the few analyses that derive a new run from
 * one (ws-run-derive.h); they include ws-run-build.h, which holds every
 * function that changes a run, and tests/check-layers.py fails when any
 * other file includes it or assigns to a run's field. */

typedef struct _WsRun WsRun;
typedef struct _WsNcuResults WsNcuResults;
typedef struct _WsRanks WsRanks;
typedef struct _WsDigest WsDigest;

/* Memory operation kinds: the values of ENUM_CUDA_MEMCPY_OPER, plus memset. */
typedef enum
{
  WS_MEMOP_UNKNOWN = 0,
  WS_MEMOP_HTOD = 1,
  WS_MEMOP_DTOH = 2,
  WS_MEMOP_HTOA = 3,
  WS_MEMOP_ATOH = 4,
  WS_MEMOP_ATOA = 5,
  WS_MEMOP_ATOD = 6,
  WS_MEMOP_DTOA = 7,
  WS_MEMOP_DTOD = 8,
  WS_MEMOP_HTOH = 9,
  WS_MEMOP_PTOP = 10,
  WS_MEMOP_UVM_HTOD = 11,
  WS_MEMOP_UVM_DTOH = 12,
  WS_MEMOP_UVM_DTOD = 13,
  WS_MEMOP_MEMSET = 64,
} WsMemopKind;

typedef enum
{
  WS_NVTX_PUSH_POP,
  WS_NVTX_START_END,
} WsNvtxStyle;

/* A GPU stream: where kernels and memory operations run. */
typedef struct
{
  gint64 global_pid;
  guint32 pid;
  gint32 device_id;
  gint32 context_id;
  gint32 stream_id;
} WsStream;

/* A CPU thread, from globalTid = (hw<<56)|(vm<<48)|(pid<<24)|tid. */
typedef struct
{
  gint64 global_tid;
  guint32 pid;
  guint32 tid;
  guint32 name; /* string id, or WS_STRING_NONE */
} WsThread;

/* A distinct kernel launch configuration; kernels refer to it by index. */
typedef struct
{
  guint32 grid[3];
  guint32 block[3];
  guint32 registers;    /* per thread */
  guint32 static_smem;  /* bytes per block */
  guint32 dynamic_smem; /* bytes per block */
} WsLaunchConfig;

typedef struct
{
  gint64 id;    /* domainId in the export */
  guint32 name; /* string id; the default domain has "" */
} WsNvtxDomain;

typedef struct
{
  gint id;
  char *name;
  char *bus_location;
  char *chip;
  char *uuid; /* "836b3a21-…", or NULL */
  gint sm_count;
  gint cc_major;
  gint cc_minor;
  gint64 memory_bytes;
} WsGpu;

typedef struct
{
  guint32 pid;
  char *name;
} WsProcess;

/* One GPU metric (a row of TARGET_INFO_GPU_METRICS) and where its samples are. */
typedef struct
{
  gint64 type_id; /* which GPU (metrics source) */
  guint32 metric_id;
  guint32 name; /* string id: "SMs Active [Throughput %]", ... */
  gsize first;  /* index of its first sample in WsMetricSamples */
  gsize n;      /* number of its samples, sorted by time */
} WsGpuMetric;

/* A source table and how many rows it had: what `info` prints. */
typedef struct
{
  const char *what; /* "kernels", "memcpy", ... (static) */
  char *table;      /* the table's name in the file */
  gint64 rows;      /* SELECT count(*) */
} WsSourceCount;

/* The optional kernel columns a run holds (WsKernels.columns).  Exports
 * before nsys 2022.1 have no mangledName, some tools' none of shortName;
 * after a WS_LOAD_LEAN load only start, end and one of the name arrays are
 * set (none with WS_LOAD_NO_KERNEL_NAMES; with WS_LOAD_LAUNCHES stream, one
 * per process, and correlation too), and the other arrays are NULL. */
typedef enum
{
  WS_KERNEL_COL_DEMANGLED = 1 << 0, /* demangled: demangledName (or shortName alone) */
  WS_KERNEL_COL_SHORT = 1 << 1,     /* short_name: shortName */
  WS_KERNEL_COL_MANGLED = 1 << 2,   /* mangled: mangledName */
  WS_KERNEL_COL_LAUNCH = 1 << 3,    /* stream, correlation and config */
} WsKernelColumns;

typedef struct
{
  gsize n;
  guint columns; /* WsKernelColumns */
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;   /* ns */
  guint32 *demangled;
  guint32 *short_name;
  guint32 *mangled;     /* WS_STRING_NONE where the export has no mangled names */
  guint32 *stream;      /* index into WsRun.streams */
  guint32 *correlation; /* CUPTI correlation id, matches the API call */
  guint32 *config;      /* index into WsRun.configs */
  guint32 *replay;      /* index into WsRun.replays, WS_REPLAY_NONE outside a graph; NULL when
                         * the run has no kernel inside a replay */
} WsKernels;

typedef struct
{
  gsize n;
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;
  guint64 *bytes;
  guint8 *kind;     /* WsMemopKind */
  guint8 *src_kind; /* ENUM_CUDA_MEM_KIND, 255 unknown */
  guint8 *dst_kind;
  guint32 *stream;
  guint32 *correlation;
  guint32 *replay; /* as WsKernels.replay */
} WsMemops;

/* CUDA graph replays: each launch of an executable graph (cudaGraphLaunch)
 * as one span of GPU work on the stream it was launched into, from the
 * first node's start to the last node's end (docs/cuda-graphs.md).  Read
 * from the graph-level trace (nsys --cuda-graph-trace=graph:
 * CUPTI_ACTIVITY_KIND_GRAPH_TRACE, whose kernels are in no table), or built
 * from the kernels and memory operations of one launch where those are
 * recorded (node tracing, PyTorch profiler traces): then @nodes counts
 * them and their WsKernels.replay names the replay. */
typedef struct
{
  gsize n;
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;
  guint32 *stream;      /* index into WsRun.streams: where it was launched */
  guint32 *correlation; /* the launch call's (cudaGraphLaunch) */
  guint32 *graph;       /* the executable graph's id (graphExecId), 0 when unknown */
  guint32 *nodes;       /* its kernels and memory operations in the run; 0 when only the
                         * replay was recorded */
} WsGraphReplays;

typedef struct
{
  gsize n;
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;
  guint32 *name;   /* string id of the name as exported (cudaMalloc_v3020) */
  guint32 *thread; /* index into WsRun.threads */
  guint32 *correlation;
  gint32 *return_value;
} WsApiCalls;

typedef struct
{
  gsize n;
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;
  guint32 *name;
  guint32 *thread; /* the thread that opened the range */
  guint32 *color;  /* ARGB, 0 when the range has none */
  guint16 *domain; /* index into WsRun.domains */
  guint16 *depth;  /* row within its thread, assigned at load */
  guint8 *style;   /* WsNvtxStyle */
} WsNvtxRanges;

typedef struct
{
  gsize n;
  gint64 *time; /* ns, sorted ascending */
  guint32 *name;
  guint32 *thread;
  guint32 *color;
  guint16 *domain;
} WsNvtxMarks;

/* OS runtime library calls that nsys traced (OSRT_API, eventClass 27):
 * poll, read, pthread_cond_wait, …  Where a gloo all-reduce waits. */
typedef struct
{
  gsize n;
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;
  guint32 *name;   /* string id: "poll" */
  guint32 *thread; /* index into WsRun.threads */
} WsOsrtCalls;

/* The samples of a CPU profile whose times are on the run's clock (nsys
 * CPU sampling) as timeline events, built by ws_run_finish(): each stands
 * for the stretch until its thread's next sample, at most one sampling
 * period (the smallest median gap of a busy thread), so that a stretch of them shades as the thread's CPU
 * time.  Only samples inside the run's span are kept. */
typedef struct
{
  gsize n;
  gint64 *start; /* ns, sorted ascending */
  gint64 *end;
  guint32 *name;         /* string id of the innermost frame's function */
  guint32 *thread;       /* index into WsRun.threads */
  guint32 *sample;       /* index of the sample in @profile */
  WsCpuProfile *profile; /* one of WsRun.cpu_profiles, or NULL */
  gsize outside;         /* samples of @profile outside the run's span, left out */
} WsCpuSamples;

typedef struct
{
  gsize n;
  gint64 *time;  /* ns, sorted ascending */
  gint64 *bytes; /* positive for an allocation, negative for a free */
  gint32 *device;
  guint8 *mem_kind;
} WsMemUsage;

typedef struct
{
  gsize n;
  gint64 *time; /* ns; grouped by metric, sorted by time inside a metric */
  float *value;
} WsMetricSamples;

/* How a capture folder was made: its run.json, as Warpscope's launcher
 * wrote it (WsProvenance.capture). */
typedef struct
{
  char *name; /* the target's row */
  char *cmd;
  char *workdir;
  char *envs;
  char *targets_file;  /* where the row was, or NULL */
  int line;            /* its line there, 0 when unknown */
  char *status;        /* "done", "failed", "cancelled", … */
  char *started;       /* ISO 8601, as written */
  GPtrArray *commands; /* char *: each step's commands as shell lines, in order */
  char *nsys_path;     /* the tools the capture ran, or NULL */
  char *nsys_version;
  char *ncu_path;
  char *ncu_version;
  GPtrArray *gpus; /* char *: "NVIDIA H200, 580.159.04" */
} WsCaptureRecord;

void ws_capture_record_free (WsCaptureRecord *record);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCaptureRecord, ws_capture_record_free)

typedef struct
{
  GPtrArray *files;     /* char *: every file this run was read from */
  char *kind;           /* "nsys-sqlite", "nsys-stats-csv", "ncu-csv", "capture-folder",
                         * "kineto-json" */
  char *product;        /* "NVIDIA Nsight Systems", or NULL */
  char *nsys_version;   /* "2025.3.2.0", or NULL when the file has no metadata */
  char *schema_version; /* "3.20.3", or NULL */
  char *metadata_table; /* "META_DATA_EXPORT", "EXPORT_META_DATA" or NULL */
  char *export_time;    /* as written by nsys, or NULL */
  char *host;
  char *driver_version;
  char *os;
  gint64 session_start_utc_ns; /* 0 when unknown */
  GArray *gpus;                /* WsGpu */
  GArray *processes;           /* WsProcess: the processes that used CUDA or NVTX */
  GPtrArray *warnings;         /* char *: what was odd but not fatal */
  char *capture_command;       /* from a capture folder's run.json, or NULL */
  char **capture_env;          /* NULL-terminated, or NULL */
  WsCaptureRecord *capture;    /* a capture folder's run.json, or NULL */
  char *target_command;        /* the command nsys launched, as the export records it, or NULL */
  char **target_env;           /* NAME=value of its environment (META_DATA_CAPTURE), or NULL */
  char *thread_rank_name;      /* "MPI Rank 0": how nsys named an MPI rank's thread, or NULL */
  /* A distributed job's rank as the trace records it (Kineto's
   * distributedInfo), for a ranks loader: -1 and NULL when unknown. */
  gint dist_rank;
  gint dist_world_size;
  char *dist_backend; /* "nccl", "gloo", … */
  /* char *: for a run read from several views of it (an nsys export and a
   * PyTorch profiler trace), what each file gave, one line per file */
  GPtrArray *contributions;
} WsProvenance;

struct _WsRun
{
  gatomicrefcount ref_count;

  WsStringTable *strings;
  WsProvenance prov;

  GArray *streams; /* WsStream */
  GArray *threads; /* WsThread */
  GArray *configs; /* WsLaunchConfig */
  GArray *domains; /* WsNvtxDomain; index 0 is the default domain */
  GArray *metrics; /* WsGpuMetric */
  GArray *sources; /* WsSourceCount */

  WsKernels kernels;
  WsMemops memops;
  WsGraphReplays replays;
  WsApiCalls api;
  WsNvtxRanges nvtx;
  WsNvtxMarks marks;
  WsOsrtCalls osrt;
  WsCpuSamples cpu_samples;
  WsMemUsage mem_usage;
  WsMetricSamples metric_samples;

  gint64 origin;   /* ns: the earliest event, the display origin */
  gint64 end_time; /* ns: the latest end of any event */

  gboolean has_kernel_table; /* the export had CUPTI_ACTIVITY_KIND_KERNEL */
  gboolean has_nvtx_table;
  gboolean has_runtime_table;
  gboolean has_memory_tables;
  gboolean has_osrt_table;
  gboolean has_graph_trace; /* the export had CUPTI_ACTIVITY_KIND_GRAPH_TRACE: graphs traced
                             * whole, their kernels in no table */

  WsSummary *summaries[WS_N_SUMMARY_KINDS]; /* derived at load; see ws_run_get_summary() */
  GHashTable *display_names; /* demangled name id → display name id, set by ws_run_finish() */

  WsRanks *ranks;          /* the ranks of a job (ws-ranks.h), or NULL for one process */
  WsDigest *digest;        /* the job digest the run was opened from (ws-digest.h): no events,
                            * its summaries and findings merged from the ranks', or NULL */
  GPtrArray *cpu_profiles; /* WsCpuProfile *: nsys CPU samples, py-spy, cProfile, … */

  WsNcuResults *ncu; /* profiled launches from ncu CSVs, or NULL */
  WsRun *base;       /* a slice (ws-run-slice.h): the run whose strings it shares */
};

WsRun *ws_run_ref (WsRun *self);
void ws_run_unref (WsRun *self);

const char *ws_run_string (const WsRun *self, guint32 id);
gboolean ws_run_has_kernel_names (const WsRun *self, WsNameForm form);
WsNameForm ws_run_kernel_name_form (const WsRun *self, WsNameForm form);
guint32 ws_run_kernel_name_id (const WsRun *self, gsize i, WsNameForm form);
const char *ws_run_kernel_name (const WsRun *self, gsize i, WsNameForm form);
const WsStream *ws_run_kernel_stream (const WsRun *self, gsize i);
const WsLaunchConfig *ws_run_kernel_config (const WsRun *self, gsize i);
const WsThread *ws_run_thread (const WsRun *self, guint32 index);
guint32 ws_run_thread_pid (const WsRun *self, guint32 thread);
const char *ws_run_process_name (const WsRun *self, guint32 pid);
const char *ws_run_gpu_name (const WsRun *self, gint32 device);
GArray *ws_run_devices_used (const WsRun *self, guint32 pid);
const char *ws_run_nvtx_domain_name (const WsRun *self, guint16 domain);
const char *ws_run_display_name (const WsRun *self);
guint32 ws_run_kernel_display_id (const WsRun *self, guint32 demangled);
const char *ws_run_kernel_display (const WsRun *self, const char *demangled);
gsize ws_run_n_events (const WsRun *self);
gsize ws_run_memory (const WsRun *self);
const WsSourceCount *ws_run_source_count (const WsRun *self, const char *what);
const WsSummary *ws_run_get_summary (const WsRun *run, WsSummaryKind kind);
gboolean ws_run_has_summary_events (const WsRun *run, WsSummaryKind kind);
gboolean ws_run_has_summary_data (const WsRun *run, WsSummaryKind kind);
gboolean ws_run_is_cpu_only (const WsRun *run);
gboolean ws_run_nvtx_instance (const WsRun *run, const char *name, guint n, gint64 *start,
                               gint64 *end);
WsRun *ws_run_new_from_ncu (WsNcuResults *ncu);

/* What a CUDA API call does with graphs, by its name (docs/cuda-graphs.md). */
typedef enum
{
  WS_GRAPH_CALL_NONE,
  WS_GRAPH_CALL_LAUNCH,        /* cudaGraphLaunch, cuGraphLaunch: one replay */
  WS_GRAPH_CALL_INSTANTIATE,   /* cudaGraphInstantiate*, cuGraphInstantiate* */
  WS_GRAPH_CALL_BEGIN_CAPTURE, /* cudaStreamBeginCapture*, cuStreamBeginCapture* */
  WS_GRAPH_CALL_END_CAPTURE,   /* cudaStreamEndCapture, cuStreamEndCapture */
} WsGraphCall;

WsGraphCall ws_graph_call_kind (const char *name);
gboolean ws_run_kernel_in_graph (const WsRun *self, gsize kernel);
const WsStream *ws_run_replay_stream (const WsRun *self, gsize replay);
gint64 ws_run_replays_outside_kernels (const WsRun *self, guint *n);

char *ws_launch_config_describe (const WsLaunchConfig *config);
const char *ws_memop_kind_label (guint kind);
const char *ws_mem_kind_label (guint kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRun, ws_run_unref)

G_END_DECLS
