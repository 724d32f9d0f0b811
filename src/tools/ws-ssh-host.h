/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where captures go on a host when its settings do not say. */
#define WS_SSH_HOST_DEFAULT_DIR "~/warpscope-captures"

/* A machine that captures run on, reached with ssh. */
typedef struct
{
  char *name;        /* what targets.tsv's HOST column calls it */
  char *destination; /* [user@]host: what ssh connects to, a Host alias included */
  guint port;        /* 0: as ssh's configuration says */
  char *identity;    /* a key file; NULL: the agent and ssh's configuration */
  char *remote_dir;  /* the folder for captures there; NULL: WS_SSH_HOST_DEFAULT_DIR */
  char *nsys;        /* nsys there; NULL: found there */
  char *ncu;
} WsSshHost;

WsSshHost *ws_ssh_host_new (const char *name, const char *destination, guint port);
WsSshHost *ws_ssh_host_copy (const WsSshHost *host);
void ws_ssh_host_free (WsSshHost *host);
WsSshHost *ws_ssh_host_parse (const char *spec, GError **error);
gboolean ws_ssh_destination_check (const char *destination, GError **error);
gboolean ws_ssh_port_check (gint64 port, GError **error);
gboolean ws_ssh_identity_check (const char *identity, GError **error);
gboolean ws_ssh_host_validate (const WsSshHost *host, GError **error);
gboolean ws_ssh_host_is_local (const char *spec);
WsSshHost *ws_ssh_host_lookup (GPtrArray *known, const char *spec, GError **error);
char *ws_ssh_host_describe (const WsSshHost *host);
const char *ws_ssh_host_remote_dir (const WsSshHost *host);

GVariant *ws_ssh_host_to_variant (const WsSshHost *host);
WsSshHost *ws_ssh_host_new_from_variant (GVariant *variant);
GPtrArray *ws_ssh_hosts_from_variant (GVariant *list);
GVariant *ws_ssh_hosts_to_variant (GPtrArray *hosts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSshHost, ws_ssh_host_free)

G_END_DECLS
