/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GPtrArray *ws_corrupt_corpus_generate (const char *const *fixtures, const char *probe,
                                       const char *dir, GError **error);

G_END_DECLS
