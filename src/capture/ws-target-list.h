/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The columns of a targets.tsv row, in file order.  HOST, the fifth, is
 * optional: empty or `-` is this machine. */
typedef enum
{
  WS_TARGET_NAME,
  WS_TARGET_CMD,
  WS_TARGET_WORKDIR,
  WS_TARGET_ENVS,
  WS_TARGET_HOST,
  WS_TARGET_N_COLUMNS
} WsTargetColumn;

/* The columns of the workflow's files, which every row has. */
#define WS_TARGET_N_BASIC_COLUMNS 4

/* The header row a file has (docs/formats.md, "targets.tsv": optional, two
 * spellings). */
typedef enum
{
  WS_TARGETS_HEADER_NONE,
  WS_TARGETS_HEADER_NAME_CMD, /* NAME CMD WORKDIR ENVS */
  WS_TARGETS_HEADER_LEGACY,   /* id cmd workdir env */
} WsTargetsHeader;

#define WS_TYPE_TARGET_LIST (ws_target_list_get_type ())
G_DECLARE_FINAL_TYPE (WsTargetList, ws_target_list, WS, TARGET_LIST, GObject)

WsTargetList *ws_target_list_new (void);
WsTargetList *ws_target_list_new_from_file (const char *path, GError **error);
WsTargetList *ws_target_list_new_from_data (const char *data, gsize len, const char *path);

char *ws_target_list_to_data (WsTargetList *self, gsize *len);
gboolean ws_target_list_save (WsTargetList *self, const char *path, GError **error);

const char *ws_target_list_get_path (WsTargetList *self);
void ws_target_list_set_path (WsTargetList *self, const char *path);
char *ws_target_list_get_base_dir (WsTargetList *self);
WsTargetsHeader ws_target_list_get_header (WsTargetList *self);
gboolean ws_target_list_get_crlf (WsTargetList *self);
gboolean ws_target_list_get_modified (WsTargetList *self);
void ws_target_list_set_modified (WsTargetList *self, gboolean modified);

guint ws_target_list_get_n_targets (WsTargetList *self);
const char *ws_target_list_get (WsTargetList *self, guint row, WsTargetColumn column);
guint ws_target_list_get_line (WsTargetList *self, guint row);
guint ws_target_list_get_n_columns (WsTargetList *self, guint row);
int ws_target_list_find (WsTargetList *self, const char *name);
gboolean ws_target_list_is_remote (WsTargetList *self, guint row);
void ws_target_list_set_known_hosts (WsTargetList *self, const char *const *names);
const char *const *ws_target_list_get_known_hosts (WsTargetList *self);
void ws_target_list_set (WsTargetList *self, guint row, WsTargetColumn column, const char *value);
guint ws_target_list_insert (WsTargetList *self, guint position, const char *const *fields);
void ws_target_list_remove (WsTargetList *self, guint row);
guint ws_target_list_duplicate (WsTargetList *self, guint row);
gboolean ws_target_list_move (WsTargetList *self, guint row, int delta);

const char *ws_target_column_name (WsTargetColumn column);
gboolean ws_target_value_is_empty (const char *value);

G_END_DECLS
