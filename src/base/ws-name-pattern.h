/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *ws_name_pattern (const char *name);
gboolean ws_name_is_numbered (const char *name);

G_END_DECLS
