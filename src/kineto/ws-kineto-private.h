/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-json-pull.h"
#include "ws-progress.h"
#include "ws-run-build.h"

G_BEGIN_DECLS

/* The fields of one trace event that the reader uses; the others are
 * skipped as they stream past. */
typedef struct
{
  GString *ph;
  GString *cat;
  GString *name;
  GString *arg_name; /* args.name: a process's or thread's name (ph "M") */
  gboolean has_pid, has_tid, has_ts, has_dur;
  gint64 pid, tid;
  gint64 ts, dur; /* ns */
  gint64 device, context, stream, correlation;
  gint64 registers, shared_memory, bytes;
  gint64 mem_bytes, mem_device, mem_device_type; /* [memory]: Bytes, Device Id, Device Type */
  guint32 grid[3], block[3];
} KinetoEvent;

/* A name interned in the run: its id + 1 (0 for none) and its length. */
#define KINETO_NAME_SLOTS 4096
typedef struct
{
  guint32 id1;
  guint32 len;
} KinetoName;

/* The columns being filled, before they are sorted into the run. */
typedef struct
{
  GArray *start, *end;   /* gint64 */
  GArray *name, *thread; /* guint32 */
  GArray *stream, *correlation, *config;
  GArray *bytes; /* guint64 */
  GArray *kind;  /* guint8 */
} KinetoColumns;

typedef struct
{
  WsRun *run;
  const char *path;
  WsJsonPull *pull;
  GCancellable *cancellable;
  WsProgressFunc progress;
  gpointer progress_data;
  GSeekable *file; /* the file as read (compressed or not), for progress; or NULL */
  goffset file_size;
  gboolean plain; /* path is the JSON itself, not gzip: it may be read in pieces */

  /* A worker of a read on several cores (ws-kineto-parallel.c): */
  gint *batches;      /* 8192-event batches read by all the workers, for the bound */
  guint64 offset_now; /* where its tokenizer stands, for the progress (atomic) */

  KinetoEvent event;
  KinetoColumns kernels, memops, api, ranges, cpu_ops;
  GArray *mem_time, *mem_bytes, *mem_device; /* [memory] events on a GPU */

  KinetoName *names;         /* KINETO_NAME_SLOTS: the names last interned */
  GHashTable *threads;       /* (pid << 24 | tid) → thread index + 1 */
  gint64 last_thread_key;    /* the key of the last thread looked up, or -1 */
  guint32 last_thread;       /* its index */
  GHashTable *streams;       /* (device << 32 | stream) → stream index + 1 */
  GHashTable *configs;       /* WsLaunchConfig * → config index + 1 */
  GHashTable *thread_names;  /* global tid → char *, the first name given */
  GHashTable *process_names; /* pid → char * */

  gint64 n_events;
  gint64 n_memcpy, n_memset, n_runtime, n_driver; /* what `info` counts */
  gint64 n_flows;           /* ac2g: launch → GPU arrows, which correlation ids already give */
  gint64 n_gpu_annotations; /* gpu_user_annotation: record_function ranges on GPU streams */
  gint64 n_host_memory;     /* [memory] events of the CPU, left out */
  gint64 n_other;           /* events of other categories */

  gboolean has_events, has_kineto_keys;
  gboolean probe;    /* the header only: stop at "traceEvents" once the base time is read */
  gboolean has_base; /* "baseTimeNanoseconds" was read */
  gboolean stop;     /* the probe has what it needs */
} KinetoReader;

/* What ws_kineto_read_parallel() did. */
typedef enum
{
  WS_KINETO_ONE_THREAD, /* nothing: the events are to be read on this thread */
  WS_KINETO_READ,       /* read them all, the array closed */
  WS_KINETO_FAILED,     /* error set */
} WsKinetoParallel;

void ws_kineto_reader_init (KinetoReader *r, WsRun *run, const char *path,
                            GCancellable *cancellable);
void ws_kineto_reader_clear (KinetoReader *r);
gboolean ws_kineto_read_events (KinetoReader *r, GError **error);
gboolean ws_kineto_read_some_events (KinetoReader *r, gboolean in_event, guint64 stop,
                                     gint64 *stopped_at, GError **error);
WsKinetoParallel ws_kineto_read_parallel (KinetoReader *r, GError **error);
guint32 ws_kineto_thread_index (KinetoReader *r, gint64 pid, gint64 tid);
guint32 ws_kineto_stream_index (KinetoReader *r, gint64 device, gint64 stream, gint64 context);
guint32 ws_kineto_config_index (KinetoReader *r, const WsLaunchConfig *config);
void ws_kineto_columns_init (KinetoColumns *c);
void ws_kineto_columns_clear (KinetoColumns *c);
gboolean ws_kineto_parse_int (const char *text, gint64 *out);
gboolean ws_kineto_parse_us (const char *text, gint64 *ns);
GHashTable *ws_kineto_configs_new (void);
void ws_kineto_build_cpu_profile (KinetoReader *r);

G_END_DECLS
