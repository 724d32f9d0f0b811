/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the targets file (targets.tsv): parsing, validation,
 * the ENVS and folder-name rules every row goes through before a capture,
 * and writing it back, which must give the input again byte for byte. */
#include "config.h"

#include <string.h>

#include "ws-capture-plan.h"
#include "ws-target-list.h"
#include "ws-target-validate.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr (WsTargetList) list =
    ws_target_list_new_from_data ((const char *) data, size, "/fuzz/targets.tsv");
  g_autoptr (GPtrArray) problems = ws_target_list_validate (list);
  g_autofree char *written = NULL;
  gsize len = 0;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    g_free (ws_target_list_format_problem (list, g_ptr_array_index (problems, i)));
  for (guint row = 0; row < ws_target_list_get_n_targets (list); row++)
    {
      g_auto (GStrv) envs =
        ws_target_envs_parse (ws_target_list_get (list, row, WS_TARGET_ENVS), NULL);
      g_autofree char *safe = ws_capture_safe_name (ws_target_list_get (list, row, WS_TARGET_NAME));

      /* A folder name never leaves the output folder. */
      if (safe != NULL &&
          (strchr (safe, '/') != NULL || g_str_equal (safe, "..") || g_str_equal (safe, ".")))
        __builtin_trap ();
    }
  /* An unedited file writes back as it was read: any file that
   * ws_target_list_new_from_file() accepts (UTF-8 text without NUL). */
  written = ws_target_list_to_data (list, &len);
  if (!g_utf8_validate_len ((const char *) data, size, NULL) || memchr (data, '\0', size) != NULL)
    return 0;
  if (len != size || (size > 0 && memcmp (written, data, size) != 0))
    __builtin_trap ();
  return 0;
}
