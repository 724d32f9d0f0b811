/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *ws_test_unpack_capture (const char *archive, const char *folder, char **tmpdir);

G_END_DECLS
