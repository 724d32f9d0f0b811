/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "ws-test-util.h"

typedef struct
{
  const char *file;
  const char *version; /* NULL: no metadata table */
  const char *schema;
  guint n_gpus;
} Fixture;

static const Fixture fixtures[] = {
  { "v2021.2_mordred.sqlite", NULL, NULL, 1 },
  { "v2022.2_pipit_saxpy_mpi.sqlite", "2022.2.1.31", "2.9.1", 1 },
  { "v2022.4_rodinia_gaussian.sqlite", "2022.4.2.1", "3.0.0", 7 },
  { "v2024.5_pipit_cloverleaf_4gpu.sqlite", "2024.5.1.113", "3.13.2", 4 },
  { "v2025.3_h100_probe.sqlite", "2025.3.2.0", "3.20.3", 1 },
  { "v2025.3_h100_torch_train.sqlite", "2025.3.2.0", "3.20.3", 1 },
  { "v2025.3_h100_train_bf16.sqlite", "2025.3.2.0", "3.20.3", 1 },
  { "v2025.3_h100_train_fp32.sqlite", "2025.3.2.0", "3.20.3", 1 },
  { "v2026.1_nsysai_mock.sqlite", "2026.1.1.204", "3.24.14", 1 },
  { "v2026.2_nsysai_h100_2gpu.sqlite", "2026.2.1.210", "3.25.0", 0 },
  { "v2026.2_nsysai_mfu_after.sqlite", "2026.2.1.210", "3.25.0", 0 },
  { "v2026.2_nsysai_mfu_before.sqlite", "2026.2.1.210", "3.25.0", 0 },
};

/* `info --format json` on every export: the versions, the GPUs, and each
 * source table's row count equal to SQLite's own count(*). */
static void
test_info_json_counts (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = ws_test_data ("nsys", fixtures[i].file, NULL);
      const char *argv[] = { ws_test_cli (), "info", "--format", "json", path, NULL };
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      JsonObject *root, *events;
      g_autoptr (GList) members = NULL;
      guint checked = 0;

      g_test_message ("%s", fixtures[i].file);
      g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
      json_parser_load_from_data (parser, out, -1, &error);
      g_assert_no_error (error);
      root = json_node_get_object (json_parser_get_root (parser));

      g_assert_cmpstr (json_object_get_string_member (root, "kind"), ==, "nsys-sqlite");
      if (fixtures[i].version == NULL)
        g_assert_true (json_object_get_null_member (root, "nsys_version"));
      else
        {
          g_assert_cmpstr (json_object_get_string_member (root, "nsys_version"), ==,
                           fixtures[i].version);
          g_assert_cmpstr (json_object_get_string_member (root, "schema_version"), ==,
                           fixtures[i].schema);
        }
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "gpus")), ==,
                        fixtures[i].n_gpus);

      events = json_object_get_object_member (root, "events");
      members = json_object_get_members (events);
      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonObject *source = json_object_get_object_member (events, l->data);
          const char *table = json_object_get_string_member (source, "table");
          gint64 rows = json_object_get_int_member (source, "rows");

          /* The NVTX split (ranges, marks, other) sums to the table. */
          if (g_str_has_prefix (l->data, "nvtx-"))
            continue;
          g_assert_cmpint (rows, ==, ws_test_sqlite_count (path, table));
          checked++;
        }
      g_assert_cmpuint (checked, >=, 2);
    }
}

static void
test_info_text (void)
{
  g_autofree char *old = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  g_autofree char *two = ws_test_data ("nsys", "v2026.2_nsysai_h100_2gpu.sqlite", NULL);
  const char *argv_old[] = { ws_test_cli (), "info", old, NULL };
  const char *argv_two[] = { ws_test_cli (), "info", two, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ws_test_run (argv_old, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "no metadata table"));
  g_assert_nonnull (strstr (out, "Quadro RTX 6000 (sm_75, 72 SMs"));
  g_assert_nonnull (strstr (out, "CUPTI_ACTIVITY_KIND_KERNEL"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* No TARGET_INFO_GPU rows: the devices come from the events. */
  g_assert_cmpint (ws_test_run (argv_two, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "2 device(s) used by the events, names not recorded (ids 0 1)"));
  g_assert_nonnull (strstr (out, "16,782"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/info/json-counts-equal-sqlite", test_info_json_counts);
  g_test_add_func ("/cli/info/text", test_info_text);

  return g_test_run ();
}
