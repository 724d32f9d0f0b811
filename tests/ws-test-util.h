/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <stdarg.h>

G_BEGIN_DECLS

char *ws_test_build_path_valist (const char *dir, const char *sub, const char *first, va_list args);
char *ws_test_data (const char *first, ...) G_GNUC_NULL_TERMINATED;
/* The exports of tests/data/nsys, nsys 2021.2 to 2026.2, NULL-terminated. */
extern const char *const ws_test_nsys_exports[];
const char *ws_test_cli (void);
int ws_test_run (const char *const *argv, char **out, char **err);
char *ws_test_cli_expect (const char *const *args, int expected_status, char **err);

typedef struct
{
  int status;         /* exit status, or -1 */
  int signal;         /* the signal that ended it, or 0 */
  gboolean timed_out; /* killed after the time bound */
  char *out;
  char *err;
  double seconds;
} WsTestRun;

void ws_test_run_bounded (const char *const *argv, guint timeout_s, WsTestRun *result);
void ws_test_run_clear (WsTestRun *result);
gint64 ws_test_sqlite_count (const char *path, const char *table);
char *ws_test_sqlite_text (const char *path, const char *sql);
void ws_test_sqlite_exec (const char *path, const char *sql);
char *ws_test_copy_to_tmp (const char *path, const char *name);
char *ws_test_tmpdir (void);
void ws_test_rmtree (const char *dir);
char *ws_test_file_sha256 (const char *path);
GPtrArray *ws_test_list_dir (const char *dir);
void ws_test_listing (const char *dir, GString *out);
char *ws_test_stand_ins (void);
void ws_test_use_stand_ins (void);
void ws_test_wait_until (gboolean (*done) (gpointer), gpointer data, guint seconds,
                         const char *what);
void ws_test_wait_flag (const gboolean *flag, guint seconds, const char *what);
gboolean ws_test_process_alive (GPid pid);
gboolean ws_test_group_alive (GPid pgid);
guint ws_test_trace_count (const char *path, const char *category);
char *ws_test_read (const char *path);
void ws_test_write_changed (const char *source, const char *path, const char *prefix,
                            const char *from, const char *to);
guint ws_test_count_lines (const char *text);
char *ws_test_unxz (const char *xz_name, const char *dir);
char *ws_test_xz_text (const char *xz_name);
char *ws_test_unpack (const char *archive);
char *ws_test_unpack_gpt2 (char **tmpdir);
void ws_test_trap_child (guint timeout_s);
void ws_test_child_skip (const char *reason);
guint ws_test_sample_every (void);
gboolean ws_test_sampled (guint index);

typedef struct _WsTestFifoReader WsTestFifoReader;

WsTestFifoReader *ws_test_fifo_reader_start (const char *fifo);
GBytes *ws_test_fifo_reader_finish (WsTestFifoReader *reader, guint seconds);
gboolean ws_test_make_device (const char *path, guint major, guint minor);

G_END_DECLS
