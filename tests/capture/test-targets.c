/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "ws-capture-error.h"
#include "ws-target-autosave.h"
#include "ws-target-list.h"
#include "ws-target-validate.h"
#include "ws-test-util.h"

static const char *const fixtures[] = {
  "commented_chinese.tsv", "header_basic.tsv",   "invalid_rows.tsv",
  "legacy_header.tsv",     "no_header_crlf.tsv", "with_hosts.tsv",
};

static WsTargetList *
load (const char *name)
{
  g_autofree char *path = ws_test_data ("targets", name, NULL);
  g_autoptr (GError) error = NULL;
  WsTargetList *list = ws_target_list_new_from_file (path, &error);

  g_assert_no_error (error);
  return list;
}

/* Reading and writing back any form gives the same bytes, through memory
 * and through an atomic save to disk. */
static void
test_round_trip (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = ws_test_data ("targets", fixtures[i], NULL);
      g_autofree char *original = NULL;
      g_autofree char *written = NULL;
      g_autofree char *copy = ws_test_copy_to_tmp (path, fixtures[i]);
      g_autofree char *dir = g_path_get_dirname (copy);
      g_autofree char *copy_sum = NULL;
      g_autoptr (WsTargetList) list = load (fixtures[i]);
      g_autoptr (GError) error = NULL;
      gsize original_len, written_len;

      g_test_message ("%s", fixtures[i]);
      g_assert_true (g_file_get_contents (path, &original, &original_len, NULL));
      written = ws_target_list_to_data (list, &written_len);
      g_assert_cmpmem (written, written_len, original, original_len);
      g_assert_false (ws_target_list_get_modified (list));

      /* A save of the unedited list rewrites the file identically. */
      g_object_unref (list);
      list = ws_target_list_new_from_file (copy, &error);
      g_assert_no_error (error);
      g_assert_true (ws_target_list_save (list, copy, &error));
      g_assert_no_error (error);
      copy_sum = ws_test_file_sha256 (copy);
      {
        g_autofree char *original_sum = ws_test_file_sha256 (path);

        g_assert_cmpstr (copy_sum, ==, original_sum);
      }
      ws_test_rmtree (dir);
    }
}

/* What each form holds, read by hand from the files. */
static void
test_forms (void)
{
  g_autoptr (WsTargetList) basic = load ("header_basic.tsv");
  g_autoptr (WsTargetList) chinese = load ("commented_chinese.tsv");
  g_autoptr (WsTargetList) legacy = load ("legacy_header.tsv");
  g_autoptr (WsTargetList) crlf = load ("no_header_crlf.tsv");

  g_assert_cmpint (ws_target_list_get_header (basic), ==, WS_TARGETS_HEADER_NAME_CMD);
  g_assert_cmpuint (ws_target_list_get_n_targets (basic), ==, 2);
  g_assert_cmpstr (ws_target_list_get (basic, 0, WS_TARGET_CMD), ==,
                   "python infer.py --bs 8 --seq 128");
  g_assert_cmpstr (ws_target_list_get (basic, 1, WS_TARGET_ENVS), ==,
                   "CUDA_VISIBLE_DEVICES=0,OMP_NUM_THREADS=4");
  g_assert_cmpuint (ws_target_list_get_line (basic, 1), ==, 3);

  /* The commented-out header is a comment: no header row. */
  g_assert_cmpint (ws_target_list_get_header (chinese), ==, WS_TARGETS_HEADER_NONE);
  g_assert_cmpuint (ws_target_list_get_n_targets (chinese), ==, 2);
  g_assert_cmpstr (ws_target_list_get (chinese, 0, WS_TARGET_NAME), ==, "柴犬推理");
  g_assert_cmpstr (ws_target_list_get (chinese, 0, WS_TARGET_WORKDIR), ==, ".");
  g_assert_cmpstr (ws_target_list_get (chinese, 1, WS_TARGET_NAME), ==, "gemm");
  g_assert_cmpstr (ws_target_list_get (chinese, 1, WS_TARGET_WORKDIR), ==, "");
  g_assert_cmpstr (ws_target_list_get (chinese, 1, WS_TARGET_ENVS), ==, "");
  g_assert_cmpuint (ws_target_list_get_line (chinese, 0), ==, 4);

  g_assert_cmpint (ws_target_list_get_header (legacy), ==, WS_TARGETS_HEADER_LEGACY);
  g_assert_cmpuint (ws_target_list_get_n_targets (legacy), ==, 1);
  g_assert_cmpstr (ws_target_list_get (legacy, 0, WS_TARGET_ENVS), ==, "A=1,B=2");

  g_assert_cmpint (ws_target_list_get_header (crlf), ==, WS_TARGETS_HEADER_NONE);
  g_assert_true (ws_target_list_get_crlf (crlf));
  g_assert_cmpuint (ws_target_list_get_n_targets (crlf), ==, 2);
  g_assert_cmpstr (ws_target_list_get (crlf, 0, WS_TARGET_CMD), ==, "python a.py | tee log.txt");
  /* The CR belongs to the line end, not to the last cell. */
  g_assert_cmpstr (ws_target_list_get (crlf, 0, WS_TARGET_ENVS), ==, "X=1");
  g_assert_cmpstr (ws_target_list_get (crlf, 1, WS_TARGET_CMD), ==, "cd sub && make run");
}

static gboolean
has_problem (GPtrArray *problems, guint row, WsTargetColumn column, const char *text)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const WsTargetProblem *problem = g_ptr_array_index (problems, i);

      if (problem->row == row && problem->column == column &&
          strstr (problem->message, text) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* invalid_rows.tsv: the rows its README says the editor must flag, and
 * nothing else (WORKDIR `-` is the file's folder, `A=1=2` is valid). */
static void
test_validate_invalid_rows (void)
{
  g_autoptr (WsTargetList) list = load ("invalid_rows.tsv");
  g_autoptr (GPtrArray) problems = ws_target_list_validate (list);
  g_autofree char *path = ws_test_data ("targets", "invalid_rows.tsv", NULL);
  g_autofree char *message = NULL;
  g_autofree char *prefix = NULL;

  g_assert_cmpuint (problems->len, ==, 4);
  g_assert_true (has_problem (problems, 0, WS_TARGET_ENVS, "“NOEQUALS” is not NAME=VALUE"));
  g_assert_true (has_problem (problems, 0, WS_TARGET_ENVS, "“=empty” has no variable name"));
  g_assert_false (has_problem (problems, 0, WS_TARGET_ENVS, "A=1=2"));
  g_assert_true (has_problem (problems, 1, WS_TARGET_CMD, "empty"));
  g_assert_true (has_problem (problems, 2, WS_TARGET_NAME, "line 5"));
  g_assert_true (has_problem (problems, 3, WS_TARGET_NAME, "line 4"));

  /* The message names the file, the line, the column and the target. */
  message = ws_target_list_format_problem (list, g_ptr_array_index (problems, 1));
  prefix = g_strdup_printf ("%s:3: CMD of “missing_cmd”: ", path);
  g_assert_true (g_str_has_prefix (message, prefix));
}

static void
test_envs_parse (void)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envs = ws_target_envs_parse ("A=1=2, B=x y,_C=", &error);
  g_auto (GStrv) none = ws_target_envs_parse ("-", &error);
  g_auto (GStrv) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (envs), ==, 3);
  /* A gets "1=2": the value is everything after the first '='. */
  g_assert_cmpstr (g_environ_getenv (envs, "A"), ==, "1=2");
  g_assert_cmpstr (g_environ_getenv (envs, "B"), ==, "x y");
  g_assert_cmpstr (g_environ_getenv (envs, "_C"), ==, "");
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  bad = ws_target_envs_parse ("1A=x", &error);
  g_assert_null (bad);
  g_assert_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID);
}

/* WORKDIR is relative to the targets file's folder, not to the current
 * folder; a folder that exists makes the problem go. */
static void
test_validate_workdir (void)
{
  g_autofree char *path = ws_test_data ("targets", "header_basic.tsv", NULL);
  g_autofree char *copy = ws_test_copy_to_tmp (path, "targets.tsv");
  g_autofree char *dir = g_path_get_dirname (copy);
  g_autofree char *models = g_build_filename (dir, "models", NULL);
  g_autofree char *cv = g_build_filename (dir, "cv", NULL);
  g_autofree char *resolved = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTargetList) list = ws_target_list_new_from_file (copy, &error);
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) after = NULL;

  g_assert_no_error (error);
  before = ws_target_list_validate (list);
  g_assert_cmpuint (before->len, ==, 2);
  g_assert_true (has_problem (before, 0, WS_TARGET_WORKDIR, "no such folder"));
  g_assert_true (has_problem (before, 1, WS_TARGET_WORKDIR, "no such folder"));

  g_assert_cmpint (g_mkdir (models, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (cv, 0755), ==, 0);
  after = ws_target_list_validate (list);
  g_assert_cmpuint (after->len, ==, 0);

  resolved = ws_target_list_resolve_workdir (list, 0);
  g_assert_cmpstr (resolved, ==, models);
  ws_target_list_set (list, 0, WS_TARGET_WORKDIR, "-");
  g_free (resolved);
  resolved = ws_target_list_resolve_workdir (list, 0);
  g_assert_cmpstr (resolved, ==, dir);
  ws_target_list_set (list, 0, WS_TARGET_WORKDIR, "~/x");
  g_free (resolved);
  resolved = ws_target_list_resolve_workdir (list, 0);
  {
    g_autofree char *home_x = g_build_filename (g_get_home_dir (), "x", NULL);

    g_assert_cmpstr (resolved, ==, home_x);
  }
  ws_test_rmtree (dir);
}

/* Edits leave the comments and the other rows' bytes where they were; the
 * expected files are the fixture's text with the edits made by hand. */
static void
test_edits_keep_comments (void)
{
  g_autoptr (WsTargetList) list = load ("commented_chinese.tsv");
  const char *new_row[] = { "new", "./run.sh", "-", "A=1" };
  const char *comments = "# NAME\tCMD\tWORKDIR\tENVS\n"
                         "# 示例：以 TAB 分隔；可留空 WORKDIR/ENVS（用空字段或 '-'）\n"
                         "# yolo_infer\tpython ../yolo_infer.py --nvtx\t.\t-\n";
  const char *chinese_row = "柴犬推理\tpython ../clip/infer.py --image ../data/柴犬2.jpg "
                            "--device 1 --nvtx\t.\t-\n";
  g_autofree char *expected = NULL;
  g_autofree char *data = NULL;

  ws_target_list_set (list, 1, WS_TARGET_WORKDIR, "build");
  g_assert_true (ws_target_list_get_modified (list));
  expected =
    g_strconcat (comments, chinese_row, "gemm\t../../SGEMM_CUDA/build/sgemm_all\tbuild\t\n", NULL);
  data = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (data, ==, expected);

  /* A row inserted first goes below the comments, above the first row. */
  g_assert_cmpuint (ws_target_list_insert (list, 0, new_row), ==, 0);
  g_free (expected);
  g_free (data);
  expected = g_strconcat (comments, "new\t./run.sh\t-\tA=1\n", chinese_row,
                          "gemm\t../../SGEMM_CUDA/build/sgemm_all\tbuild\t\n", NULL);
  data = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (data, ==, expected);

  /* Moving swaps the rows; the comment lines stay put. */
  g_assert_true (ws_target_list_move (list, 2, -1));
  g_assert_false (ws_target_list_move (list, 0, -1));
  g_free (expected);
  g_free (data);
  expected = g_strconcat (comments, "new\t./run.sh\t-\tA=1\n",
                          "gemm\t../../SGEMM_CUDA/build/sgemm_all\tbuild\t\n", chinese_row, NULL);
  data = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (data, ==, expected);

  ws_target_list_remove (list, 0);
  ws_target_list_remove (list, 0);
  g_free (expected);
  g_free (data);
  expected = g_strconcat (comments, chinese_row, NULL);
  data = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (data, ==, expected);
}

/* A file with CRLF line ends gets CRLF on new rows; cells never take a TAB
 * or a line break. */
static void
test_edits_keep_line_ends (void)
{
  g_autoptr (WsTargetList) list = load ("no_header_crlf.tsv");
  const char *row[] = { "third", "echo a\tb\nc", "", "" };
  g_autofree char *data = NULL;

  ws_target_list_insert (list, 2, row);
  data = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (data, ==,
                   "no_header\tpython a.py | tee log.txt\t/tmp\tX=1\r\n"
                   "second\tcd sub && make run\t-\t-\r\n"
                   "third\techo a b c\t\t\r\n");
}

static void
test_duplicate_and_new (void)
{
  g_autoptr (WsTargetList) list = ws_target_list_new ();
  const char *row[] = { "a", "true", "", "" };
  g_autofree char *data = NULL;
  g_autoptr (GPtrArray) problems = NULL;

  g_assert_false (ws_target_list_get_modified (list));
  ws_target_list_insert (list, 0, row);
  g_assert_cmpuint (ws_target_list_duplicate (list, 0), ==, 1);
  g_assert_cmpuint (ws_target_list_duplicate (list, 0), ==, 1);
  g_assert_cmpstr (ws_target_list_get (list, 1, WS_TARGET_NAME), ==, "a_copy2");
  g_assert_cmpstr (ws_target_list_get (list, 2, WS_TARGET_NAME), ==, "a_copy");
  data = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (data, ==,
                   "NAME\tCMD\tWORKDIR\tENVS\na\ttrue\t\t\na_copy2\ttrue\t\t\na_copy\ttrue\t\t\n");
  problems = ws_target_list_validate (list);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* A last line without a line end gets one before a new row follows it. */
static void
test_append_after_unterminated_line (void)
{
  const char *text = "NAME\tCMD\tWORKDIR\tENVS\r\nlast\ttrue\t-\t-";
  g_autoptr (WsTargetList) list = ws_target_list_new_from_data (text, strlen (text), NULL);
  const char *row[] = { "next", "false", "-", "-" };
  g_autofree char *before = ws_target_list_to_data (list, NULL);
  g_autofree char *after = NULL;

  g_assert_cmpstr (before, ==, text);
  ws_target_list_insert (list, 1, row);
  after = ws_target_list_to_data (list, NULL);
  g_assert_cmpstr (after, ==,
                   "NAME\tCMD\tWORKDIR\tENVS\r\nlast\ttrue\t-\t-\r\nnext\tfalse\t-\t-\r\n");
}

static void
test_not_text (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "binary.tsv", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTargetList) list = NULL;

  g_assert_true (g_file_set_contents (path, "a\tb\0\xff\xfe", 6, NULL));
  list = ws_target_list_new_from_file (path, &error);
  g_assert_null (list);
  g_assert_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, path));
  ws_test_rmtree (dir);
}

/* Unsaved edits kept beside nothing the user owns: found again while they
 * differ from the file, gone once they do not. */
static void
test_autosave (void)
{
  g_autofree char *fixture = ws_test_data ("targets", "header_basic.tsv", NULL);
  g_autofree char *path = ws_test_copy_to_tmp (fixture, "targets.tsv");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *autosave = ws_target_autosave_path (path);
  g_autofree char *untitled = ws_target_autosave_path (NULL);
  g_autofree char *state =
    g_build_filename (g_get_user_state_dir (), "warpscope", "autosave", NULL);
  g_autofree char *found = NULL;
  g_autofree char *edited = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTargetList) list = ws_target_list_new_from_file (path, &error);
  g_autoptr (WsTargetList) reopened = NULL;
  gsize len = 0;
  gint64 mtime = 0;

  g_assert_true (g_str_has_prefix (autosave, state));
  g_assert_cmpstr (autosave, !=, untitled);
  g_assert_null (ws_target_autosave_find (list, NULL, NULL));

  ws_target_list_set (list, 0, WS_TARGET_CMD, "python infer.py --bs 16");
  g_assert_true (ws_target_autosave_write (list, &error));
  g_assert_no_error (error);
  edited = ws_target_list_to_data (list, NULL);

  /* The file on disk is unchanged: the edits are found for it. */
  reopened = ws_target_list_new_from_file (path, &error);
  found = ws_target_autosave_find (reopened, &len, &mtime);
  g_assert_cmpstr (found, ==, edited);
  g_assert_cmpuint (len, ==, strlen (edited));
  g_assert_cmpint (mtime, >, 0);

  /* Saved: the autosave equals the file, holds nothing, and goes. */
  g_assert_true (ws_target_list_save (list, path, &error));
  g_object_unref (reopened);
  reopened = ws_target_list_new_from_file (path, &error);
  g_assert_null (ws_target_autosave_find (reopened, NULL, NULL));
  g_assert_false (g_file_test (autosave, G_FILE_TEST_EXISTS));
  ws_test_rmtree (dir);
}

/* HOST, the optional fifth column: read, validated, and written only
 * where a row has one (the header gains it when a row first does). */
static void
test_host_column (void)
{
  g_autoptr (WsTargetList) hosts = load ("with_hosts.tsv");
  g_autoptr (WsTargetList) basic = load ("header_basic.tsv");
  g_autoptr (GPtrArray) problems = NULL;
  g_autofree char *data = NULL;
  g_autofree char *workdir = NULL;
  const char *const known[] = { "gpu1", "the big one", NULL };

  g_assert_cmpint (ws_target_list_get_header (hosts), ==, WS_TARGETS_HEADER_NAME_CMD);
  g_assert_cmpuint (ws_target_list_get_n_targets (hosts), ==, 4);
  g_assert_cmpstr (ws_target_list_get (hosts, 0, WS_TARGET_HOST), ==, "-");
  g_assert_cmpstr (ws_target_list_get (hosts, 1, WS_TARGET_HOST), ==, "gpu1");
  g_assert_cmpstr (ws_target_list_get (hosts, 2, WS_TARGET_HOST), ==, "user@10.0.0.5:2222");
  g_assert_cmpstr (ws_target_list_get (hosts, 3, WS_TARGET_HOST), ==, "");
  g_assert_false (ws_target_list_is_remote (hosts, 0));
  g_assert_true (ws_target_list_is_remote (hosts, 1));
  g_assert_false (ws_target_list_is_remote (hosts, 3));
  /* A folder on the host is not looked for here, nor made absolute. */
  workdir = ws_target_list_resolve_workdir (hosts, 1);
  g_assert_cmpstr (workdir, ==, "~/proj");
  problems = ws_target_list_validate (hosts);
  g_assert_cmpuint (problems->len, ==, 0);
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* Not an ssh destination; a known host's name may be anything. */
  ws_target_list_set (hosts, 1, WS_TARGET_HOST, "the big one");
  problems = ws_target_list_validate (hosts);
  g_assert_true (has_problem (problems, 1, WS_TARGET_HOST, "“the big one” is not a host"));
  g_clear_pointer (&problems, g_ptr_array_unref);
  ws_target_list_set_known_hosts (hosts, known);
  problems = ws_target_list_validate (hosts);
  g_assert_cmpuint (problems->len, ==, 0);
  g_clear_pointer (&problems, g_ptr_array_unref);
  ws_target_list_set (hosts, 1, WS_TARGET_HOST, "-oProxyCommand=touch x");
  ws_target_list_set (hosts, 2, WS_TARGET_HOST, "user@gpu:99999");
  problems = ws_target_list_validate (hosts);
  g_assert_true (has_problem (problems, 1, WS_TARGET_HOST, "starts with “-”"));
  g_assert_true (has_problem (problems, 2, WS_TARGET_HOST, "from 1 to 65535"));
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* A four-column file: an edited row stays four columns until it gets a
   * HOST; then the header names HOST too, and the other row stays as it
   * was. */
  ws_target_list_set (basic, 0, WS_TARGET_CMD, "python infer.py");
  data = ws_target_list_to_data (basic, NULL);
  g_assert_cmpstr (
    data, ==,
    "NAME\tCMD\tWORKDIR\tENVS\n"
    "bert_inf\tpython infer.py\t./models\tCUDA_VISIBLE_DEVICES=0\n"
    "resnet_train\tpython train.py --epochs 1\t./cv\tCUDA_VISIBLE_DEVICES=0,OMP_NUM_THREADS=4\n");
  g_free (data);
  ws_target_list_set (basic, 0, WS_TARGET_HOST, "gpu1");
  data = ws_target_list_to_data (basic, NULL);
  g_assert_cmpstr (
    data, ==,
    "NAME\tCMD\tWORKDIR\tENVS\tHOST\n"
    "bert_inf\tpython infer.py\t./models\tCUDA_VISIBLE_DEVICES=0\tgpu1\n"
    "resnet_train\tpython train.py --epochs 1\t./cv\tCUDA_VISIBLE_DEVICES=0,OMP_NUM_THREADS=4\n");
  g_assert_cmpint (ws_target_list_get_header (basic), ==, WS_TARGETS_HEADER_NAME_CMD);
  /* A duplicate keeps the HOST. */
  ws_target_list_duplicate (basic, 0);
  g_assert_cmpstr (ws_target_list_get (basic, 1, WS_TARGET_HOST), ==, "gpu1");
  g_free (data);

  /* A sixth column is flagged, on HOST. */
  {
    const char *text = "a\ttrue\t-\t-\tgpu1\textra\n";
    g_autoptr (WsTargetList) extra = ws_target_list_new_from_data (text, strlen (text), NULL);

    problems = ws_target_list_validate (extra);
    g_assert_true (has_problem (problems, 0, WS_TARGET_HOST, "a row has 4 or 5"));
    data = ws_target_list_to_data (extra, NULL);
    g_assert_cmpstr (data, ==, text);
  }
}

int
main (int argc, char **argv)
{
  g_autofree char *state = NULL;
  int status;

  /* Autosaves of these tests go to a folder of their own. */
  state = ws_test_tmpdir ();
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/targets/round-trip/every-fixture-byte-for-byte", test_round_trip);
  g_test_add_func ("/targets/read/every-form", test_forms);
  g_test_add_func ("/targets/validate/invalid-rows-fixture", test_validate_invalid_rows);
  g_test_add_func ("/targets/validate/workdir-relative-to-file", test_validate_workdir);
  g_test_add_func ("/targets/envs/parse", test_envs_parse);
  g_test_add_func ("/targets/edit/keeps-comments", test_edits_keep_comments);
  g_test_add_func ("/targets/edit/keeps-line-ends", test_edits_keep_line_ends);
  g_test_add_func ("/targets/edit/duplicate-and-new", test_duplicate_and_new);
  g_test_add_func ("/targets/edit/append-after-unterminated-line",
                   test_append_after_unterminated_line);
  g_test_add_func ("/targets/read/not-text", test_not_text);
  g_test_add_func ("/targets/host/fifth-column", test_host_column);
  g_test_add_func ("/targets/autosave/found-until-saved", test_autosave);

  status = g_test_run ();
  ws_test_rmtree (state);
  return status;
}
