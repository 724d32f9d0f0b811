/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-cpu-profile.h"

G_BEGIN_DECLS

/* A flame graph: the call tree of a CPU profile's samples (one thread, or
 * all merged; optionally a time range), with each function's self and
 * total weight.  Children are ordered heaviest first, so that the widest
 * frames stand at the left.  Immutable, ref-counted. */

typedef struct _WsFlameGraph WsFlameGraph;

#define WS_FLAME_ROOT_FRAME G_MAXUINT32
#define WS_FLAME_NO_NODE G_MAXUINT32

typedef struct
{
  guint32 frame;        /* index into the profile's frames; WS_FLAME_ROOT_FRAME at the root */
  guint32 parent;       /* WS_FLAME_NO_NODE at the root */
  guint32 first_child;  /* WS_FLAME_NO_NODE for a leaf */
  guint32 next_sibling; /* the next lighter sibling, or WS_FLAME_NO_NODE */
  guint32 depth;        /* the root is 0 */
  double total;         /* weight of the samples through this node */
  double self;          /* weight of the samples that end here */
} WsFlameNode;

/* A function (name and file), over the whole graph. */
typedef struct
{
  guint32 frame;          /* the first frame of this function */
  double self;            /* weight of samples whose leaf is this function */
  double total;           /* weight of samples with this function anywhere (once each) */
  gint64 calls;           /* from a flat profile; -1 where unknown */
  gint64 primitive_calls; /* -1 where unknown */
} WsFlameFunction;

struct _WsFlameGraph
{
  gatomicrefcount ref_count;
  WsCpuProfile *profile;
  gint thread;       /* -1: all threads merged */
  GArray *nodes;     /* WsFlameNode; node 0 is the root */
  GArray *functions; /* WsFlameFunction, by total, heaviest first */
  guint max_depth;
  double total;       /* the root's total */
  double sample_unit; /* the weight of one sample when all weigh the same, else 0 */
};

WsFlameGraph *ws_flame_graph_new (WsCpuProfile *profile, gint thread, gint64 from, gint64 to);
WsFlameGraph *ws_flame_graph_ref (WsFlameGraph *self);
void ws_flame_graph_unref (WsFlameGraph *self);

const WsFlameNode *ws_flame_graph_node (const WsFlameGraph *self, guint32 node);
char *ws_flame_graph_node_label (const WsFlameGraph *self, guint32 node);
char *ws_flame_graph_function_label (const WsFlameGraph *self, const WsFlameFunction *function);
double ws_flame_graph_match_share (const WsFlameGraph *self, const char *query, gboolean *matches);
gboolean ws_flame_graph_node_matches (const WsFlameGraph *self, guint32 node, const char *query);
void ws_flame_graph_write_collapsed (const WsFlameGraph *self, GString *out);
char *ws_flame_format_weight (const WsFlameGraph *self, double weight);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsFlameGraph, ws_flame_graph_unref)

G_END_DECLS
