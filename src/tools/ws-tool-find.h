/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-ssh-connection.h"

G_BEGIN_DECLS

/* Where set, the only folders ws_tool_find() looks in (as PATH). */
#define WS_TOOL_PATH_ENV "WARPSCOPE_TOOL_PATH"

/* Where nsys and ncu are: PATH, /usr/local/cuda/bin, /opt/nvidia (the
 * newest version first), or the path the settings give. */
char *ws_tool_find (const char *name);
char *ws_tool_find_in (const char *name, const char *path_env, const char *root);
char *ws_tool_resolve (const char *name, const char *configured, GError **error);
char *ws_tool_newest (GPtrArray *paths, const char *prefix);

/* The same on a host (ws-tool-find-remote.c); %NULL for this machine. */
char *ws_tool_resolve_on (WsSshConnection *ssh, const char *name, const char *configured,
                          GError **error);

G_END_DECLS
