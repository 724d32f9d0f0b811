/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of the loader: the files of one load taken together (which
 * belong to a run, ranks, digests, a capture's manifest). */
#define WS_LOADER_ERROR (ws_loader_error_quark ())

typedef enum
{
  WS_LOADER_ERROR_FORMAT,    /* a file or a set of files that cannot be one run */
  WS_LOADER_ERROR_NO_DATA,   /* nothing to show (no such rank, no kernels in any file) */
  WS_LOADER_ERROR_TOO_LARGE, /* over a stated resource bound */
} WsLoaderError;

GQuark ws_loader_error_quark (void);

G_END_DECLS
