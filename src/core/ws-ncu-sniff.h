/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean ws_ncu_sniff (const char *head, gsize len);

G_END_DECLS
