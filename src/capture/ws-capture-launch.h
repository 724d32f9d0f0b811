/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  WS_CAPTURE_LAUNCH_TORCHRUN,
  WS_CAPTURE_LAUNCH_MPIRUN, /* mpirun or mpiexec */
  WS_CAPTURE_LAUNCH_SRUN,
} WsCaptureLaunchKind;

/* A distributed job's command, split where a tool goes in. */
typedef struct
{
  WsCaptureLaunchKind kind;
  char **launcher;          /* "torchrun --nproc_per_node 2 --no-python" */
  char **program;           /* "python3 train.py --lr 3" */
  guint n_ranks;            /* on this node */
  const char *rank_pattern; /* what nsys -o expands to the rank: "%q{RANK}" */
} WsCaptureLaunch;

gboolean ws_capture_launch_parse (const char *cmd, WsCaptureLaunch *out, GError **error);
void ws_capture_launch_clear (WsCaptureLaunch *self);
char *ws_capture_launch_command (const WsCaptureLaunch *self, char **tool);
char *ws_capture_launch_on_rank (const WsCaptureLaunch *self, guint rank, char **tool);

G_END_DECLS
