/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-ssh-connection.h"

G_BEGIN_DECLS

gboolean ws_tool_run (const char *const *argv, guint timeout_s, char **out, char **err,
                      int *exit_status, GError **error);
char *ws_tool_version (const char *path, GError **error);
GPtrArray *ws_tool_list (const char *ncu, const char *what, GError **error);
GPtrArray *ws_tool_query_gpus (void);

/* The same, here (@ssh %NULL) or on a host. */
gboolean ws_tool_run_on (WsSshConnection *ssh, const char *const *argv, guint timeout_s, char **out,
                         char **err, int *exit_status, GError **error);
char *ws_tool_version_on (WsSshConnection *ssh, const char *path, GError **error);
GPtrArray *ws_tool_list_on (WsSshConnection *ssh, const char *ncu, const char *what,
                            GError **error);
GPtrArray *ws_tool_query_gpus_on (WsSshConnection *ssh);

/* What the tools say about themselves and the machine, for run.json and
 * for the choice of ncu set. */
typedef struct
{
  char *nsys_version; /* NULL when nsys did not say */
  char *ncu_version;
  GPtrArray *gpus;     /* "NAME, DRIVER" */
  GPtrArray *sets;     /* ncu --list-sets, or NULL */
  GPtrArray *sections; /* ncu --list-sections, or NULL */
  GPtrArray *warnings; /* why a version is missing */
} WsToolInfo;

WsToolInfo *ws_tool_probe (WsSshConnection *ssh, const char *nsys, const char *ncu);
void ws_tool_probe_async (const char *nsys, const char *ncu, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data);
WsToolInfo *ws_tool_probe_finish (GAsyncResult *result, GError **error);
void ws_tool_info_free (WsToolInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsToolInfo, ws_tool_info_free)

G_END_DECLS
