/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean ws_running_uninstalled (void);
void ws_i18n_init (void);

G_END_DECLS
