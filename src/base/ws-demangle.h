/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *ws_demangle (const char *mangled);
char *ws_demangle_short_name (const char *demangled);

G_END_DECLS
