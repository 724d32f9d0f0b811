/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-findings.h"
#include "ws-run-index.h"

G_BEGIN_DECLS

/* Shared by the checks of ws-findings-*.c; not part of the core's API. */

typedef struct
{
  const WsRun *run;
  WsRunIndex *index;
  GHashTable *loop_keys;     /* NVTX name id + 1 → loop key */
  GHashTable *stripped_keys; /* name without digits → loop key */
  GCancellable *cancellable; /* (nullable) */
} WsFindingsCtx;

/* Whether to stop: the checks' loops over every event ask every 2^16
 * events and break out; ws_findings_compute_cancellable() then drops what
 * they made. */
static inline gboolean
ws_findings_stop (const WsFindingsCtx *ctx, gsize i)
{
  return (i & 0xFFFF) == 0xFFFF && g_cancellable_is_cancelled (ctx->cancellable);
}

/* An event to group into loops: a CUDA API call, or a GPU event placed at
 * the call that launched it. */
typedef struct
{
  guint32 thread; /* index into run->threads; G_MAXUINT32 when no call is known */
  guint32 event;  /* index into the check's table */
  gint64 start;   /* ns: the call's time, or the GPU event's */
  gint64 end;
} WsFindingsItem;

typedef struct
{
  guint first; /* index of the first WsFindingsItem, after ws_findings_group() sorted them */
  guint n;
  guint32 thread;
  gint64 start; /* ns */
  gint64 end;
} WsFindingsGroup;

typedef struct
{
  WsFindingsCtx *ctx;
  GHashTable *entries;  /* "PARENT\x1fDOMAIN\x1fPATTERN" → entry index + 1 */
  GHashTable *seen;     /* range index + 1 → entry index + 1: instances counted */
  GHashTable *patterns; /* name string id + 1 → its pattern (char *) */
  GArray *list;         /* WsNvtxEntry, their nvtx owned until finished */
  guint outside;        /* events in no range */
} WsNvtxCollector;

GArray *ws_findings_group (WsFindingsCtx *ctx, GArray *items);

WsNvtxCollector *ws_nvtx_collector_new (WsFindingsCtx *ctx);
void ws_nvtx_collector_free (WsNvtxCollector *self);
void ws_nvtx_collector_add (WsNvtxCollector *self, guint32 thread, gint64 time, gint64 duration);
char *ws_nvtx_collector_place (WsNvtxCollector *self);
void ws_nvtx_collector_finish (WsNvtxCollector *self, WsFinding *finding);

char *ws_findings_place (WsFindingsCtx *ctx, guint32 thread, gint64 time);
char *ws_findings_count_string (double value);
char *ws_findings_percent_string (double value);
GHashTable *ws_findings_names_new (void);
char *ws_findings_names_string (GHashTable *names);
void ws_findings_add_name_evidence (WsFinding *finding, GHashTable *names);
void ws_findings_count_name (GHashTable *names, const char *name);
gint64 ws_findings_median (GArray *values);
void ws_findings_add_api (WsFinding *finding, gssize api);
guint8 *ws_findings_graph_calls (WsFindingsCtx *ctx);
gssize *ws_findings_replay_launches (WsFindingsCtx *ctx, const guint8 *kinds);

void ws_findings_check_alloc (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_transfers (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_sync (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_launch (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_imbalance (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_idle (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_memory_access (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_summaries (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_recapture (WsFindingsCtx *ctx, GPtrArray *findings);
void ws_findings_check_replay_gaps (WsFindingsCtx *ctx, GPtrArray *findings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsNvtxCollector, ws_nvtx_collector_free)

G_END_DECLS
