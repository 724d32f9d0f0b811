/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A fixture of tests/data with ncu CSVs and the nsys export of the same
 * program beside them. */
typedef struct
{
  char *name;       /* for messages: "bert_inf" */
  char *sqlite;     /* the nsys export */
  GPtrArray *paths; /* what to load: the export and the ncu CSVs, or a capture folder;
                       NULL-terminated */
  char *tmpdir;     /* an unpacked archive to remove, or NULL */
} WsTestNcuFixture;

GPtrArray *ws_test_ncu_fixtures (void);

G_END_DECLS
