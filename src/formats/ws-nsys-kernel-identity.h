/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean ws_nsys_kernel_identities (const char *export_path, guint n, const char *const *names,
                                    char **mangled, char **grid, char **block, guint *skip,
                                    GError **error);

G_END_DECLS
