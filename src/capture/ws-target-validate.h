/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-target-list.h"

G_BEGIN_DECLS

/* One problem of one cell, for the editor and for messages. */
typedef struct
{
  guint row;             /* index among the targets */
  WsTargetColumn column; /* the cell it is about */
  char *message;         /* one line, without the file name */
} WsTargetProblem;

GPtrArray *ws_target_list_validate (WsTargetList *self);
GPtrArray *ws_target_list_validate_row (WsTargetList *self, guint row);
char *ws_target_list_format_problem (WsTargetList *self, const WsTargetProblem *problem);
char *ws_target_list_resolve_workdir (WsTargetList *self, guint row);

char **ws_target_envs_parse (const char *envs, GError **error);
gboolean ws_host_value_valid (const char *value, const char *const *known, GError **error);

void ws_target_problem_free (WsTargetProblem *problem);

G_END_DECLS
