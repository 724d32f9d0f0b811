/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-string-table.h"

G_BEGIN_DECLS

/* A CPU profile: weighted call stacks per thread (py-spy, speedscope,
 * collapsed stacks, nsys CPU sampling) and, for cProfile, a flat table of
 * functions.  Immutable once its reader returned it, ref-counted, shared
 * between windows and threads. */

typedef struct _WsCpuProfile WsCpuProfile;

/* A frame: a function's name, file and line, as the profilers write them
 * (py-spy's `name (file:line)`).  The function table merges frames by name
 * and file. */
typedef struct
{
  guint32 name; /* string id: "inCircleFast" */
  guint32 file; /* string id: "delaunay.py", or WS_STRING_NONE */
  gint32 line;  /* -1 where unknown */
} WsCpuFrame;

typedef struct
{
  guint32 name;      /* string id: "MainThread", "Thread 0x16DF7B000", … */
  gint64 tid;        /* -1 where unknown */
  gint64 global_tid; /* nsys globalTid, or -1 */
} WsCpuThread;

/* One function of a flat profile (cProfile's table). */
typedef struct
{
  guint32 frame;
  gint64 calls;           /* ncalls: all calls */
  gint64 primitive_calls; /* ncalls after the slash: not recursive; = calls when absent */
  double self;            /* tottime, in the profile's unit */
  double total;           /* cumtime */
} WsCpuFunction;

struct _WsCpuProfile
{
  gatomicrefcount ref_count;

  WsStringTable *strings;
  char *path;  /* the file read */
  char *kind;  /* "py-spy", "speedscope-sampled", "speedscope-evented", "collapsed",
                   "cprofile", "nsys-cpu-samples" */
  char *unit;  /* what weights count: "s", "ns" or "samples" */
  char *title; /* the profile's own name, or NULL */

  GArray *frames;  /* WsCpuFrame */
  GArray *threads; /* WsCpuThread */

  /* Distinct stacks: stack s is stack_frames[stack_first[s] .. + stack_depth[s]],
   * root first. */
  GArray *stack_first;  /* guint32 */
  GArray *stack_depth;  /* guint32 */
  GArray *stack_frames; /* guint32: frame ids */

  /* Samples: a stack, its weight, its thread and, where known, its time. */
  GArray *sample_stack;    /* guint32 */
  GArray *sample_weight;   /* double */
  GArray *sample_thread;   /* guint32 */
  GArray *sample_time;     /* gint64 ns on the profile's clock; empty when no times */
  GArray *sample_end;      /* gint64 ns: a traced profile's spans end here (the sample lasts
                            * from its time to its end); empty for a sampled profile */
  gboolean times_absolute; /* sample times are on an nsys session clock */

  GArray *functions; /* WsCpuFunction: a flat profile (cProfile), or empty */
  double flat_total; /* cProfile's "in N seconds", or 0 */
  gint64 flat_calls; /* cProfile's "N function calls" */

  GPtrArray *warnings; /* char * */

  /*< private >*/
  GHashTable *frame_index; /* "name\x1ffile\x1fline" → frame + 1 */
  guint n_long_names;      /* names shortened while building */
  GHashTable *stack_index; /* frames as bytes → stack + 1 */
};

WsCpuProfile *ws_cpu_profile_new (const char *path, const char *kind, const char *unit);
WsCpuProfile *ws_cpu_profile_ref (WsCpuProfile *self);
void ws_cpu_profile_unref (WsCpuProfile *self);

const char *ws_cpu_profile_string (const WsCpuProfile *self, guint32 id);
char *ws_cpu_frame_label (const WsCpuProfile *self, guint32 frame);
const char *ws_cpu_profile_thread_name (const WsCpuProfile *self, guint thread);
gsize ws_cpu_profile_n_samples (const WsCpuProfile *self);
double ws_cpu_profile_total_weight (const WsCpuProfile *self, gint thread);
gboolean ws_cpu_profile_has_stacks (const WsCpuProfile *self);
const char *ws_cpu_profile_profiler (const WsCpuProfile *self);
gint64 ws_cpu_profile_total_ns (const WsCpuProfile *self);

/* For readers: building a profile. */
guint32 ws_cpu_profile_intern_frame (WsCpuProfile *self, const char *name, const char *file,
                                     gint32 line);
guint32 ws_cpu_profile_add_thread (WsCpuProfile *self, const char *name, gint64 tid,
                                   gint64 global_tid);
guint32 ws_cpu_profile_intern_stack (WsCpuProfile *self, const guint32 *frames, guint32 depth);
void ws_cpu_profile_add_sample (WsCpuProfile *self, guint32 stack, double weight, guint32 thread,
                                gint64 time);
void ws_cpu_profile_add_span (WsCpuProfile *self, guint32 stack, guint32 thread, gint64 start,
                              gint64 end);
void ws_cpu_profile_reserve_samples (WsCpuProfile *self, gsize n);
void ws_cpu_profile_add_spans (WsCpuProfile *self, const guint32 *stack, guint32 thread,
                               const gint64 *start, const gint64 *end, gsize n);
void ws_cpu_profile_add_warning (WsCpuProfile *self, const char *format, ...) G_GNUC_PRINTF (2, 3);
void ws_cpu_profile_finish (WsCpuProfile *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCpuProfile, ws_cpu_profile_unref)

G_END_DECLS
