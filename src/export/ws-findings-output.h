/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "ws-finding.h"
#include "ws-findings-diff.h"

G_BEGIN_DECLS

JsonNode *ws_findings_to_json (GPtrArray *findings, gint64 origin);
void ws_findings_write_markdown (GPtrArray *findings, GString *out);
void ws_findings_write_text (GPtrArray *findings, guint width, GString *out);
void ws_findings_diff_write_text (GArray *diff, guint width, GString *out);
void ws_findings_diff_write_markdown (GArray *diff, GString *out);

G_END_DECLS
