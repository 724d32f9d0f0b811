/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include "ws-digest.h"

G_BEGIN_DECLS

/* Shared by the digest's writer and reader (docs/digest.md). */

/* PRAGMA application_id: "WSDG". */
#define WS_DIGEST_APPLICATION_ID 0x57534447

static const char *const ws_digest_unit_names[] = {
  [WS_UNIT_COUNT] = "count",           [WS_UNIT_NS] = "ns",
  [WS_UNIT_BYTES] = "bytes",           [WS_UNIT_PERCENT] = "percent",
  [WS_UNIT_PER_SECOND] = "per_second", [WS_UNIT_BYTES_PER_SECOND] = "bytes_per_second",
  [WS_UNIT_RATIO] = "ratio",           [WS_UNIT_TEXT] = "text",
};

static inline gboolean
ws_digest_unit_from_name (const char *name, WsUnit *unit)
{
  for (guint i = 0; i < G_N_ELEMENTS (ws_digest_unit_names); i++)
    if (name != NULL && strcmp (name, ws_digest_unit_names[i]) == 0)
      {
        *unit = (WsUnit) i;
        return TRUE;
      }
  return FALSE;
}

static inline gboolean
ws_digest_severity_from_name (const char *name, WsSeverity *severity)
{
  for (guint s = WS_SEVERITY_MINOR; s <= WS_SEVERITY_SEVERE; s++)
    if (name != NULL && strcmp (name, ws_severity_to_string ((WsSeverity) s)) == 0)
      {
        *severity = (WsSeverity) s;
        return TRUE;
      }
  return FALSE;
}

G_END_DECLS
