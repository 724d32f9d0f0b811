/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include <errno.h>
#include <unistd.h>

#include "ws-test-util.h"

/* @dir/@sub/@first/…: the path of @first and the names after it in
 * @args, up to NULL, under @dir/@sub. */
char *
ws_test_build_path_valist (const char *dir, const char *sub, const char *first, va_list args)
{
  g_autoptr (GPtrArray) parts = g_ptr_array_new ();

  g_ptr_array_add (parts, (gpointer) dir);
  g_ptr_array_add (parts, (gpointer) sub);
  for (const char *p = first; p != NULL; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

/* A file under tests/data: the real files the tests read (tests/data/THIRD-PARTY.md). */
const char *const ws_test_nsys_exports[] = {
  "v2021.2_mordred.sqlite",
  "v2022.2_pipit_saxpy_mpi.sqlite",
  "v2022.4_rodinia_gaussian.sqlite",
  "v2024.5_pipit_cloverleaf_4gpu.sqlite",
  "v2025.3_h100_probe.sqlite",
  "v2025.3_h100_torch_train.sqlite",
  "v2025.3_h100_train_bf16.sqlite",
  "v2025.3_h100_train_fp32.sqlite",
  "v2026.1_nsysai_mock.sqlite",
  "v2026.2_nsysai_h100_2gpu.sqlite",
  "v2026.2_nsysai_mfu_after.sqlite",
  "v2026.2_nsysai_mfu_before.sqlite",
  NULL,
};

char *
ws_test_data (const char *first, ...)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  va_list args;
  char *path;

  va_start (args, first);
  path =
    ws_test_build_path_valist (srcdir != NULL ? srcdir : SOURCE_DIR "/tests", "data", first, args);
  va_end (args);
  return path;
}

const char *
ws_test_cli (void)
{
  const char *cli = g_getenv ("WARPSCOPE_CLI");

  g_assert_nonnull (cli);
  return cli;
}

/* Runs a real subprocess; returns its exit status (-1 if it died of a signal). */
int
ws_test_run (const char *const *argv, char **out, char **err)
{
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &wait_status,
                &error);
  g_assert_no_error (error);
  if (WIFSIGNALED (wait_status))
    return -1;
  return WEXITSTATUS (wait_status);
}

typedef struct
{
  GMainLoop *loop;
  gboolean timed_out;
  GSubprocess *process;
  GBytes *out;
  GBytes *err;
} Bounded;

static gboolean
kill_on_timeout (gpointer data)
{
  Bounded *bounded = data;

  bounded->timed_out = TRUE;
  g_subprocess_force_exit (bounded->process);
  return G_SOURCE_REMOVE;
}

static void
communicated (GObject *source, GAsyncResult *result, gpointer data)
{
  Bounded *bounded = data;

  g_subprocess_communicate_finish (G_SUBPROCESS (source), result, &bounded->out, &bounded->err,
                                   NULL);
  g_main_loop_quit (bounded->loop);
}

static char *
bytes_to_string (GBytes *bytes)
{
  gsize len = 0;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  return len > 0 ? g_strndup (data, len) : g_strdup ("");
}

static gboolean
heartbeat_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/**
 * ws_test_wait_until:
 * @what: what is awaited, for the failure's message
 *
 * Runs the thread-default main context until @done says so, and fails
 * the test after @seconds.  A heartbeat wakes each blocking iteration, so
 * that a callback that never comes (a child watch, an end of file) ends
 * the test with a message, not with a hang until meson's timeout.
 */
void
ws_test_wait_until (gboolean (*done) (gpointer), gpointer data, guint seconds, const char *what)
{
  g_autoptr (GMainContext) context = g_main_context_ref_thread_default ();
  GSource *heartbeat = g_timeout_source_new (100);
  gint64 deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  g_source_set_callback (heartbeat, heartbeat_cb, NULL, NULL);
  g_source_attach (heartbeat, context);
  while (!done (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("still waiting for %s after %u s", what, seconds);
      g_main_context_iteration (context, TRUE);
    }
  g_source_destroy (heartbeat);
  g_source_unref (heartbeat);
}

static gboolean
flag_set (gpointer data)
{
  return *(const gboolean *) data;
}

/* ws_test_wait_until() for a flag a callback sets. */
void
ws_test_wait_flag (const gboolean *flag, guint seconds, const char *what)
{
  ws_test_wait_until (flag_set, (gpointer) flag, seconds, what);
}

/* Runs a real subprocess with a time bound, telling an exit from a signal
 * from a timeout. */
void
ws_test_run_bounded (const char *const *argv, guint timeout_s, WsTestRun *result)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (GError) error = NULL;
  Bounded bounded = { 0 };
  GSource *timeout;
  gint64 started = g_get_monotonic_time ();

  memset (result, 0, sizeof *result);
  g_main_context_push_thread_default (context);
  bounded.loop = g_main_loop_new (context, FALSE);
  bounded.process = g_subprocess_newv (
    argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);

  timeout = g_timeout_source_new_seconds (timeout_s);
  g_source_set_callback (timeout, kill_on_timeout, &bounded, NULL);
  g_source_attach (timeout, context);
  g_subprocess_communicate_async (bounded.process, NULL, NULL, communicated, &bounded);
  g_main_loop_run (bounded.loop);
  g_subprocess_wait (bounded.process, NULL, NULL);
  g_source_destroy (timeout);
  g_source_unref (timeout);

  result->timed_out = bounded.timed_out;
  result->seconds = (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC;
  if (g_subprocess_get_if_signaled (bounded.process))
    {
      result->status = -1;
      result->signal = g_subprocess_get_term_sig (bounded.process);
    }
  else
    result->status = g_subprocess_get_exit_status (bounded.process);

  result->out = bytes_to_string (bounded.out);
  result->err = bytes_to_string (bounded.err);
  g_clear_pointer (&bounded.out, g_bytes_unref);
  g_clear_pointer (&bounded.err, g_bytes_unref);
  g_main_loop_unref (bounded.loop);
  g_object_unref (bounded.process);
  g_main_context_pop_thread_default (context);
}

void
ws_test_run_clear (WsTestRun *result)
{
  g_clear_pointer (&result->out, g_free);
  g_clear_pointer (&result->err, g_free);
}

/* SELECT count(*) through SQLite itself: ground truth that is not our reader. */
gint64
ws_test_sqlite_count (const char *path, const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM \"%s\"", table);
  g_autofree char *text = ws_test_sqlite_text (path, sql);

  return text != NULL ? g_ascii_strtoll (text, NULL, 10) : -1;
}

char *
ws_test_sqlite_text (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *result = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    result = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return result;
}

/* Runs @sql on the file at @path (a writable copy), failing the test
 * with SQLite's message when it does not run. */
void
ws_test_sqlite_exec (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

char *
ws_test_tmpdir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("warpscope-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
ws_test_rmtree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    {
      g_unlink (dir);
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        ws_test_rmtree (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

/* Copies @path into a new temporary folder as @name; the copy is writable. */
char *
ws_test_copy_to_tmp (const char *path, const char *name)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  char *copy = g_build_filename (dir, name, NULL);
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (copy, contents, len, &error);
  g_assert_no_error (error);
  return copy;
}

char *
ws_test_file_sha256 (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, len);
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char **) a, *(char **) b);
}

/* The names in @dir, sorted. */
GPtrArray *
ws_test_list_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  return names;
}

/* Appends the names, sizes and modification times of everything under
 * @dir to @out: two listings differ when anything there was written. */
void
ws_test_listing (const char *dir, GString *out)
{
  g_autoptr (GPtrArray) names = ws_test_list_dir (dir);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      GStatBuf st;

      g_assert_cmpint (g_lstat (path, &st), ==, 0);
      g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld\n", path,
                              (gint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                              (long) st.st_mtim.tv_nsec);
      if (S_ISDIR (st.st_mode))
        ws_test_listing (path, out);
    }
}

/* tests/stand-ins: the nsys and ncu stand-ins. */
char *
ws_test_stand_ins (void)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");

  return g_build_filename (srcdir != NULL ? srcdir : SOURCE_DIR "/tests", "stand-ins", NULL);
}

/* Puts the stand-ins first on PATH, for this process and its children. */
void
ws_test_use_stand_ins (void)
{
  g_autofree char *dir = ws_test_stand_ins ();
  g_autofree char *path = g_strconcat (dir, ":", g_getenv ("PATH"), NULL);

  g_setenv ("PATH", path, TRUE);
}

/* Whether @pid is a live process: a zombie (ended, not yet reaped by its
 * parent, init in a container) runs nothing and does not count. */
gboolean
ws_test_process_alive (GPid pid)
{
  g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *paren;

  if (kill (pid, 0) != 0)
    return FALSE;
  if (!g_file_get_contents (stat_path, &stat, NULL, NULL))
    return FALSE;
  paren = strrchr (stat, ')');
  return paren == NULL || paren[1] != ' ' || (paren[2] != 'Z' && paren[2] != 'X');
}

/* Whether a process of group @pgid still runs: /proc/PID/stat gives each
 * process's group (field 5) and state (field 3); a zombie that init has
 * not reaped yet runs nothing. */
gboolean
ws_test_group_alive (GPid pgid)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      g_auto (GStrv) fields = NULL;
      const char *paren;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      paren = strrchr (stat, ')');
      if (paren == NULL)
        continue;
      /* After the name: state, ppid, pgrp, … */
      fields = g_strsplit (paren + 2, " ", 4);
      if (g_strv_length (fields) >= 3 && g_ascii_strtoll (fields[2], NULL, 10) == pgid &&
          fields[0][0] != 'Z' && fields[0][0] != 'X')
        return TRUE;
    }
  return FALSE;
}

/* The events of category @category in the Chrome trace at @path. */
guint
ws_test_trace_count (const char *path, const char *category)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonArray *events;
  guint n = 0;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    if (g_strcmp0 (json_object_get_string_member_with_default (
                     json_array_get_object_element (events, i), "cat", ""),
                   category) == 0)
      n++;
  return n;
}

/* The file's contents, or NULL when it cannot be read. */
char *
ws_test_read (const char *path)
{
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return contents;
}

/* Decompresses tests/data/@xz_name (an .xz file) into @dir with the real
 * xz tool; returns the path of the result. */
char *
ws_test_unxz (const char *xz_name, const char *dir)
{
  g_autofree char *src = ws_test_data (xz_name, NULL);
  g_autofree char *base = g_path_get_basename (xz_name);
  char *dest;
  g_autofree char *xz = g_find_program_in_path ("xz");
  const char *argv[] = { xz, "-dc", src, NULL };
  g_autoptr (GError) error = NULL;

  g_assert_true (g_str_has_suffix (base, ".xz"));
  base[strlen (base) - 3] = '\0';
  dest = g_build_filename (dir, base, NULL);
  /* Binary data: read by length, not as a string. */
  {
    g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
    g_autoptr (GBytes) bytes = NULL;

    g_assert_no_error (error);
    g_subprocess_communicate (p, NULL, NULL, &bytes, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (g_file_set_contents (dest, g_bytes_get_data (bytes, NULL),
                                        (gssize) g_bytes_get_size (bytes), &error));
    g_assert_no_error (error);
  }
  return dest;
}

/* The text of tests/data/@xz_name, decompressed. */
char *
ws_test_xz_text (const char *xz_name)
{
  g_autofree char *src = ws_test_data (xz_name, NULL);
  g_autofree char *xz = g_find_program_in_path ("xz");
  const char *argv[] = { xz, "-dc", src, NULL };
  char *out = NULL;

  g_assert_nonnull (xz);
  g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
  return out;
}

/* Unpacks tests/data/@archive (a .tar.xz) into a new temporary folder,
 * which it returns (to be removed by the caller). */
char *
ws_test_unpack (const char *archive)
{
  g_autofree char *path = ws_test_data (archive, NULL);
  g_autofree char *tar = g_find_program_in_path ("tar");
  char *dir = ws_test_tmpdir ();
  const char *argv[] = { tar, "-xJf", path, "-C", dir, NULL };

  g_assert_nonnull (tar);
  g_assert_cmpint (ws_test_run (argv, NULL, NULL), ==, 0);
  return dir;
}

/* Unpacks the GPT-2 capture (tests/data/captures/h100_gpt2_capture.tar.xz,
 * made by `warpscope-cli capture` on an H100) into a new temporary folder
 * (@tmpdir, to be removed by the caller) and returns its target folder. */
char *
ws_test_unpack_gpt2 (char **tmpdir)
{
  *tmpdir = ws_test_unpack ("captures/h100_gpt2_capture.tar.xz");
  return g_build_filename (*tmpdir, "out", "targets-20261125-023446", "GPT2__", NULL);
}

/* The newlines in @text: "a\nb\n" has two. */
guint
ws_test_count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

/**
 * ws_test_cli_expect:
 * @args: warpscope-cli's arguments after its name, NULL-terminated
 * @expected_status: the exit status the run must end with
 * @err: (out) (optional): what it printed on stderr
 *
 * Runs warpscope-cli and asserts its exit status.
 *
 * Returns: (transfer full): what it printed on stdout
 */
char *
ws_test_cli_expect (const char *const *args, int expected_status, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  char *out = NULL;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (ws_test_run ((const char *const *) argv->pdata, &out, err), ==, expected_status);
  return out;
}

/* The file through which a child run by ws_test_trap_child() tells its
 * parent that it skipped, and why. */
#define WS_TEST_SKIP_FILE_ENV "WS_TEST_SKIP_FILE"

/**
 * ws_test_trap_child:
 * @timeout_s: how long the child may run
 *
 * Runs the current test again in a child process (g_test_trap_subprocess)
 * and ends the same way the child did: passed, failed, or skipped with the
 * child's reason.  GLib's own trap takes a child's skip (exit status 77)
 * for a failure; a child that calls ws_test_child_skip() leaves its reason
 * in a file the parent names, so the skip reaches the TAP output as
 * "# SKIP reason".
 */
void
ws_test_trap_child (guint timeout_s)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *file = g_build_filename (dir, "skip-reason", NULL);
  g_autofree char *reason = NULL;

  g_setenv (WS_TEST_SKIP_FILE_ENV, file, TRUE);
  g_test_trap_subprocess (NULL, (guint64) timeout_s * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv (WS_TEST_SKIP_FILE_ENV);
  if (g_file_get_contents (file, &reason, NULL, NULL))
    {
      ws_test_rmtree (dir);
      g_test_skip (reason);
      return;
    }
  ws_test_rmtree (dir);
  g_test_trap_assert_passed ();
}

/**
 * ws_test_child_skip:
 * @reason: why the test cannot run here
 *
 * In a child of ws_test_trap_child(): skips the test, and tells the parent
 * why so that it skips too.
 */
void
ws_test_child_skip (const char *reason)
{
  const char *file = g_getenv (WS_TEST_SKIP_FILE_ENV);

  g_assert_true (g_test_subprocess ());
  g_assert_nonnull (file);
  g_assert_true (g_file_set_contents (file, reason, -1, NULL));
  g_test_skip (reason);
}

struct _WsTestFifoReader
{
  char *path;
  GThread *thread;
  GByteArray *bytes;
  gboolean done; /* atomic */
};

static gpointer
fifo_reader_thread (gpointer data)
{
  WsTestFifoReader *reader = data;
  guint8 buf[65536];
  int fd = g_open (reader->path, O_RDONLY | O_CLOEXEC, 0);

  for (gssize n; fd >= 0 && (n = read (fd, buf, sizeof buf)) != 0;)
    if (n > 0)
      g_byte_array_append (reader->bytes, buf, (guint) n);
    else if (errno != EINTR)
      break;
  if (fd >= 0)
    close (fd);
  g_atomic_int_set (&reader->done, TRUE);
  return NULL;
}

/**
 * ws_test_fifo_reader_start:
 * @fifo: a FIFO
 *
 * Reads @fifo on a thread of its own, as `cat FIFO` would: it waits for a
 * writer, then reads until the writer closes it.
 */
WsTestFifoReader *
ws_test_fifo_reader_start (const char *fifo)
{
  WsTestFifoReader *reader = g_new0 (WsTestFifoReader, 1);

  reader->path = g_strdup (fifo);
  reader->bytes = g_byte_array_new ();
  reader->thread = g_thread_new ("fifo-reader", fifo_reader_thread, reader);
  return reader;
}

/**
 * ws_test_fifo_reader_finish:
 *
 * Returns: (transfer full) (nullable): what the reader read, or %NULL
 *   when no writer came within @seconds (the reader is then let go, or
 *   left behind when the FIFO is gone)
 */
GBytes *
ws_test_fifo_reader_finish (WsTestFifoReader *reader, guint seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  GBytes *bytes;

  while (!g_atomic_int_get (&reader->done) && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  if (!g_atomic_int_get (&reader->done))
    {
      GStatBuf st;
      int fd;

      /* A writer that opens and closes at once lets the reader go. */
      if (g_lstat (reader->path, &st) != 0 || !S_ISFIFO (st.st_mode))
        return NULL;
      fd = g_open (reader->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);
      if (fd >= 0)
        close (fd);
      g_thread_join (reader->thread);
      g_byte_array_unref (reader->bytes);
      g_free (reader->path);
      g_free (reader);
      return NULL;
    }
  g_thread_join (reader->thread);
  bytes = g_byte_array_free_to_bytes (reader->bytes);
  g_free (reader->path);
  g_free (reader);
  return bytes;
}

/**
 * ws_test_make_device:
 * @major: @minor: the device, as in /dev (1 3: null, 1 7: full)
 *
 * Makes a character device node at @path, so that a test can write to a
 * device without touching /dev.
 *
 * Returns: %FALSE when this process may not make one (not root)
 */
gboolean
ws_test_make_device (const char *path, guint major, guint minor)
{
  return mknod (path, S_IFCHR | 0666, makedev (major, minor)) == 0;
}

/* WS_TEST_SAMPLE=N: a matrix of many runs of warpscope-cli takes the cases
 * whose index is a multiple of N, the same ones on every run.  The
 * sanitizer stage of build-aux/warpscope-dev sets it, so that the slowest
 * matrices finish well inside their limit on a loaded machine; stage 1 runs
 * every case.  1 (every case) when unset or not a number above 1. */
guint
ws_test_sample_every (void)
{
  const char *value = g_getenv ("WS_TEST_SAMPLE");
  guint64 every = 1;

  if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 1, 1000, &every, NULL))
    return 1;
  return (guint) every;
}

/* Whether the case of @index is in the sample (every case without one). */
gboolean
ws_test_sampled (guint index)
{
  return index % ws_test_sample_every () == 0;
}

/**
 * ws_test_write_changed:
 * @source: a real file
 * @prefix: text written before it ("" for none)
 * @from: the text of @source changed: its first occurrence
 * @to: what it becomes
 *
 * Writes to @path the text of @source with one change, for a test of what
 * a reader says of a file one edit away from a real one.
 */
void
ws_test_write_changed (const char *source, const char *path, const char *prefix, const char *from,
                       const char *to)
{
  g_autofree char *text = ws_test_read (source);
  g_autoptr (GString) changed = g_string_new (prefix);
  const char *at = strstr (text, from);

  g_assert_nonnull (at);
  g_string_append_len (changed, text, at - text);
  g_string_append (changed, to);
  g_string_append (changed, at + strlen (from));
  g_assert_true (g_file_set_contents (path, changed->str, (gssize) changed->len, NULL));
}
