/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-digest.h"

G_BEGIN_DECLS

char *ws_digest_export_find (const WsDigest *digest, const WsDigestRank *rank, const char *folder,
                             char **refused);

G_END_DECLS
