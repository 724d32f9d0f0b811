/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kineto"
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ws-kineto-private.h"
#include "ws-limits.h"

/* Bytes a trace event costs once read, at most: its columns, its strings
 * shared.  What the size bound of ws_limits_check_rows() counts. */
#define BYTES_PER_EVENT 48

/* Events between two looks at the cancellable, the progress and the bound. */
#define EVENTS_PER_BATCH 8192

void
ws_kineto_columns_init (KinetoColumns *c)
{
  c->start = g_array_new (FALSE, FALSE, sizeof (gint64));
  c->end = g_array_new (FALSE, FALSE, sizeof (gint64));
  c->name = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->thread = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->stream = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->correlation = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->config = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->bytes = g_array_new (FALSE, FALSE, sizeof (guint64));
  c->kind = g_array_new (FALSE, FALSE, sizeof (guint8));
}

void
ws_kineto_columns_clear (KinetoColumns *c)
{
  g_clear_pointer (&c->start, g_array_unref);
  g_clear_pointer (&c->end, g_array_unref);
  g_clear_pointer (&c->name, g_array_unref);
  g_clear_pointer (&c->thread, g_array_unref);
  g_clear_pointer (&c->stream, g_array_unref);
  g_clear_pointer (&c->correlation, g_array_unref);
  g_clear_pointer (&c->config, g_array_unref);
  g_clear_pointer (&c->bytes, g_array_unref);
  g_clear_pointer (&c->kind, g_array_unref);
}

/* Whether @len bytes at @key are @word, a string literal. */
#define KEY_IS(key, len, word)                                                                     \
  ((len) == sizeof (word) - 1 && memcmp ((key), (word), sizeof (word) - 1) == 0)

/* Whether the GString @s is @word. */
#define STR_IS(s, word) KEY_IS ((s)->str, (s)->len, word)

/* An integer as JSON writes one; "1.0" and "1e3" are not.  Up to 18
 * digits are read here; longer ones, and anything else, as
 * g_ascii_string_to_signed() reads them. */
gboolean
ws_kineto_parse_int (const char *text, gint64 *out)
{
  const char *p = text;
  guint64 v = 0;
  int n = 0;

  if (*p == '-' || *p == '+')
    p++;
  for (; g_ascii_isdigit (*p) && n < 18; p++, n++)
    v = v * 10 + (guint64) (*p - '0');
  if (n > 0 && *p == '\0')
    {
      *out = *text == '-' ? -(gint64) v : (gint64) v;
      return TRUE;
    }
  return g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, out, NULL);
}

/* Microseconds as Kineto writes them ("4982568704943.269") to integer
 * nanoseconds, from the digits: no double on the way, so that a sum of ns
 * is exact.  A fourth decimal rounds; an exponent (never written by
 * Kineto) goes through a double. */
gboolean
ws_kineto_parse_us (const char *text, gint64 *ns)
{
  const char *p = text;
  gboolean negative = FALSE;
  guint64 whole = 0;
  guint64 frac = 0;
  int digits = 0;

  if (*p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (!g_ascii_isdigit (*p))
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    if (whole < (guint64) WS_TIME_LIMIT / 1000)
      whole = whole * 10 + (guint64) (*p - '0');
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      for (; g_ascii_isdigit (*p); p++, digits++)
        {
          if (digits < 3)
            frac = frac * 10 + (guint64) (*p - '0');
          else if (digits == 3 && *p >= '5')
            frac++;
        }
      for (int d = digits; d < 3; d++)
        frac *= 10;
    }
  if (*p == 'e' || *p == 'E')
    {
      char *end = NULL;
      double v = g_ascii_strtod (text, &end);

      if (end == NULL || *end != '\0' || !(v * 1e3 > -4.6e18 && v * 1e3 < 4.6e18))
        return FALSE;
      *ns = ws_clamp_time ((gint64) (v * 1e3 + (v < 0 ? -0.5 : 0.5)));
      return TRUE;
    }
  if (*p != '\0')
    return FALSE;
  whole = MIN (whole, (guint64) WS_TIME_LIMIT / 1000);
  *ns = ws_clamp_time ((gint64) (whole * 1000 + frac)) * (negative ? -1 : 1);
  return TRUE;
}

/* @s set to @len bytes of @text, in place where they fit (as
 * g_string_truncate() and g_string_append_len() would, without the calls:
 * three strings of every event are set so). */
static inline void
string_set (GString *s, const char *text, gsize len)
{
  if (len < s->allocated_len)
    {
      memcpy (s->str, text, len);
      s->str[len] = '\0';
      s->len = len;
      return;
    }
  g_string_truncate (s, 0);
  g_string_append_len (s, text, len);
}

static void
event_reset (KinetoEvent *e)
{
  string_set (e->ph, "", 0);
  string_set (e->cat, "", 0);
  string_set (e->name, "", 0);
  string_set (e->arg_name, "", 0);
  e->has_pid = e->has_tid = e->has_ts = e->has_dur = FALSE;
  e->pid = e->tid = e->ts = e->dur = 0;
  e->device = e->context = e->stream = e->correlation = -1;
  e->registers = e->shared_memory = e->bytes = 0;
  e->mem_bytes = 0;
  e->mem_device = e->mem_device_type = -1;
  memset (e->grid, 0, sizeof e->grid);
  memset (e->block, 0, sizeof e->block);
}

/* A value that should be an integer; anything else leaves @out as it was. */
static gboolean
read_int (KinetoReader *r, gint64 *out, gboolean *found, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);
  gint64 v;

  if (t == WS_JSON_NUMBER && ws_kineto_parse_int (ws_json_pull_text (r->pull), &v))
    {
      *out = v;
      if (found != NULL)
        *found = TRUE;
      return TRUE;
    }
  return ws_json_pull_skip (r->pull, t, error);
}

static gboolean
read_string (KinetoReader *r, GString *out, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);

  if (t == WS_JSON_STRING)
    {
      string_set (out, ws_json_pull_text (r->pull), ws_json_pull_text_len (r->pull));
      return TRUE;
    }
  return ws_json_pull_skip (r->pull, t, error);
}

static gboolean
read_time (KinetoReader *r, gint64 *out, gboolean *found, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);

  if (t == WS_JSON_NUMBER)
    {
      if (!ws_kineto_parse_us (ws_json_pull_text (r->pull), out))
        return ws_json_pull_fail (r->pull, error, "a time that is not a number of µs (%s)",
                                  ws_json_pull_text (r->pull));
      *found = TRUE;
      return TRUE;
    }
  return ws_json_pull_skip (r->pull, t, error);
}

/* grid and block: [x, y, z]. */
static gboolean
read_dim3 (KinetoReader *r, guint32 *dim, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);
  guint n = 0;

  if (t != WS_JSON_BEGIN_ARRAY)
    return ws_json_pull_skip (r->pull, t, error);
  while ((t = ws_json_pull_next (r->pull, error)) != WS_JSON_END_ARRAY)
    {
      gint64 v;

      if (t == WS_JSON_NUMBER && n < 3 && ws_kineto_parse_int (ws_json_pull_text (r->pull), &v))
        dim[n] = (guint32) CLAMP (v, 0, G_MAXUINT32);
      else if (!ws_json_pull_skip (r->pull, t, error))
        return FALSE;
      n++;
    }
  return TRUE;
}

static gboolean
read_args (KinetoReader *r, GError **error)
{
  KinetoEvent *e = &r->event;
  WsJsonToken t = ws_json_pull_next (r->pull, error);

  if (t != WS_JSON_BEGIN_OBJECT)
    return ws_json_pull_skip (r->pull, t, error);
  while ((t = ws_json_pull_next (r->pull, error)) == WS_JSON_KEY)
    {
      const char *key = ws_json_pull_text (r->pull);
      gsize len = ws_json_pull_text_len (r->pull);
      gboolean ok;

      if (KEY_IS (key, len, "device"))
        ok = read_int (r, &e->device, NULL, error);
      else if (KEY_IS (key, len, "context"))
        ok = read_int (r, &e->context, NULL, error);
      else if (KEY_IS (key, len, "stream"))
        ok = read_int (r, &e->stream, NULL, error);
      else if (KEY_IS (key, len, "correlation"))
        ok = read_int (r, &e->correlation, NULL, error);
      else if (KEY_IS (key, len, "registers per thread"))
        ok = read_int (r, &e->registers, NULL, error);
      else if (KEY_IS (key, len, "shared memory"))
        ok = read_int (r, &e->shared_memory, NULL, error);
      else if (KEY_IS (key, len, "bytes"))
        ok = read_int (r, &e->bytes, NULL, error);
      else if (KEY_IS (key, len, "Bytes"))
        ok = read_int (r, &e->mem_bytes, NULL, error);
      else if (KEY_IS (key, len, "Device Id"))
        ok = read_int (r, &e->mem_device, NULL, error);
      else if (KEY_IS (key, len, "Device Type"))
        ok = read_int (r, &e->mem_device_type, NULL, error);
      else if (KEY_IS (key, len, "name"))
        ok = read_string (r, e->arg_name, error);
      else if (KEY_IS (key, len, "grid"))
        ok = read_dim3 (r, e->grid, error);
      else if (KEY_IS (key, len, "block"))
        ok = read_dim3 (r, e->block, error);
      else
        ok = ws_json_pull_skip (r->pull, ws_json_pull_next (r->pull, error), error);
      if (!ok)
        return FALSE;
    }
  return t == WS_JSON_END_OBJECT;
}

/* Whether dispatch_event() uses nothing of the args of an event of this
 * ph and cat: CPU ops, annotations, flows and the other categories, most
 * of a trace's events and of its bytes. */
static gboolean
args_unused (const KinetoEvent *e)
{
  if (STR_IS (e->ph, "s") || STR_IS (e->ph, "f"))
    return TRUE;
  return STR_IS (e->ph, "X") && !STR_IS (e->cat, "kernel") && !STR_IS (e->cat, "gpu_memcpy") &&
         !STR_IS (e->cat, "gpu_memset") && !STR_IS (e->cat, "cuda_runtime") &&
         !STR_IS (e->cat, "cuda_driver");
}

/* One event object, its opening brace read, into r->event.  Its args
 * are skipped unread where its ph and cat, written before them as Kineto
 * does, say that they are not used (a ph or cat repeated after them is
 * taken without them). */
static gboolean
read_event (KinetoReader *r, GError **error)
{
  KinetoEvent *e = &r->event;
  gboolean has_ph = FALSE, has_cat = FALSE;
  WsJsonToken t;

  event_reset (e);
  while ((t = ws_json_pull_next (r->pull, error)) == WS_JSON_KEY)
    {
      const char *key = ws_json_pull_text (r->pull);
      gsize len = ws_json_pull_text_len (r->pull);
      gboolean ok;

      if (KEY_IS (key, len, "ph"))
        ok = has_ph = read_string (r, e->ph, error);
      else if (KEY_IS (key, len, "cat"))
        ok = has_cat = read_string (r, e->cat, error);
      else if (KEY_IS (key, len, "name"))
        ok = read_string (r, e->name, error);
      else if (KEY_IS (key, len, "pid"))
        ok = read_int (r, &e->pid, &e->has_pid, error);
      else if (KEY_IS (key, len, "tid"))
        ok = read_int (r, &e->tid, &e->has_tid, error);
      else if (KEY_IS (key, len, "ts"))
        ok = read_time (r, &e->ts, &e->has_ts, error);
      else if (KEY_IS (key, len, "dur"))
        ok = read_time (r, &e->dur, &e->has_dur, error);
      else if (KEY_IS (key, len, "args") && !(has_ph && has_cat && args_unused (e)))
        ok = read_args (r, error);
      else
        ok = ws_json_pull_skip (r->pull, ws_json_pull_next (r->pull, error), error);
      if (!ok)
        return FALSE;
    }
  return t == WS_JSON_END_OBJECT;
}

/* ---- where each event goes ---------------------------------------------- */

static gint64
global_tid (gint64 pid, gint64 tid)
{
  return ((pid & 0xffffff) << 24) | (tid & 0xffffff);
}

/* The run's thread of @pid and @tid, added where it is new. */
guint32
ws_kineto_thread_index (KinetoReader *r, gint64 pid, gint64 tid)
{
  gint64 key = global_tid (pid, tid);
  gpointer found;
  WsThread thread = { 0 };
  gint64 *stored;

  /* Events come in runs of one thread. */
  if (key == r->last_thread_key)
    return r->last_thread;
  found = g_hash_table_lookup (r->threads, &key);
  r->last_thread_key = key;
  if (found != NULL)
    return r->last_thread = GPOINTER_TO_UINT (found) - 1;
  thread.global_tid = key;
  thread.pid = (guint32) pid;
  thread.tid = (guint32) tid;
  thread.name = WS_STRING_NONE;
  g_array_append_val (r->run->threads, thread);
  stored = g_new (gint64, 1);
  *stored = key;
  g_hash_table_insert (r->threads, stored, GUINT_TO_POINTER (r->run->threads->len));
  return r->last_thread = r->run->threads->len - 1;
}

/* The run's stream @stream of @device, added where it is new (with
 * @context, the first event's). */
guint32
ws_kineto_stream_index (KinetoReader *r, gint64 device, gint64 stream, gint64 context)
{
  gint64 key = ((device & 0xffffffff) << 32) | (stream & 0xffffffff);
  gpointer found = g_hash_table_lookup (r->streams, &key);
  WsStream s = { 0 };
  gint64 *stored;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  s.device_id = (gint32) device;
  s.context_id = (gint32) MAX (context, 0);
  s.stream_id = (gint32) stream;
  g_array_append_val (r->run->streams, s);
  stored = g_new (gint64, 1);
  *stored = key;
  g_hash_table_insert (r->streams, stored, GUINT_TO_POINTER (r->run->streams->len));
  return r->run->streams->len - 1;
}

static guint32
stream_index (KinetoReader *r, const KinetoEvent *e)
{
  return ws_kineto_stream_index (r, e->device >= 0 ? e->device : e->pid,
                                 e->stream >= 0 ? e->stream : e->tid, e->context);
}

static guint
config_hash (gconstpointer key)
{
  const guint32 *words = key;
  guint h = 5381;

  for (gsize i = 0; i < sizeof (WsLaunchConfig) / sizeof (guint32); i++)
    h = h * 33 + words[i];
  return h;
}

static gboolean
config_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (WsLaunchConfig)) == 0;
}

/* Launch configurations → their index + 1 (keys owned). */
GHashTable *
ws_kineto_configs_new (void)
{
  return g_hash_table_new_full (config_hash, config_equal, g_free, NULL);
}

/* The run's index of @config, added where it is new. */
guint32
ws_kineto_config_index (KinetoReader *r, const WsLaunchConfig *config)
{
  gpointer found = g_hash_table_lookup (r->configs, config);

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_array_append_val (r->run->configs, *config);
  g_hash_table_insert (r->configs, g_memdup2 (config, sizeof *config),
                       GUINT_TO_POINTER (r->run->configs->len));
  return r->run->configs->len - 1;
}

static guint32
config_index (KinetoReader *r, const KinetoEvent *e)
{
  WsLaunchConfig config = { 0 };

  memcpy (config.grid, e->grid, sizeof config.grid);
  memcpy (config.block, e->block, sizeof config.block);
  config.registers = (guint32) CLAMP (e->registers, 0, G_MAXUINT32);
  /* Kineto gives one figure, static and dynamic shared memory together. */
  config.static_smem = (guint32) CLAMP (e->shared_memory, 0, G_MAXUINT32);
  return ws_kineto_config_index (r, &config);
}

/* @name's id in the run's strings.  The names last interned are kept in
 * slots chosen by a hash of their length and first and last eight bytes,
 * and compared whole: most events repeat a name seen recently, which then
 * costs no hash of the whole name and no lookup in the string table. */
static guint32
intern_name (KinetoReader *r, const GString *name)
{
  gsize n = MIN (name->len, 8);
  guint64 head = 0, tail = 0, h;
  KinetoName *slot;
  guint32 id;

  memcpy (&head, name->str, n);
  memcpy (&tail, name->str + name->len - n, n);
  h = (head * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) ^
      (tail * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f)) ^ name->len;
  h ^= h >> 31;
  slot = &r->names[((h * G_GUINT64_CONSTANT (0x94d049bb133111eb)) >> 40) & (KINETO_NAME_SLOTS - 1)];
  if (slot->id1 != 0 && slot->len == name->len &&
      memcmp (ws_run_string (r->run, slot->id1 - 1), name->str, name->len) == 0)
    return slot->id1 - 1;
  id = ws_string_table_intern (r->run->strings, name->str);
  if (id != WS_STRING_NONE)
    {
      slot->id1 = id + 1;
      slot->len = (guint32) MIN (name->len, G_MAXUINT32);
    }
  return id;
}

static void
add_span (KinetoReader *r, KinetoColumns *c, const KinetoEvent *e)
{
  gint64 end = ws_clamp_time (ws_time_add (e->ts, MAX (e->dur, 0)));
  guint32 name = intern_name (r, e->name);

  g_array_append_val (c->start, e->ts);
  g_array_append_val (c->end, end);
  g_array_append_val (c->name, name);
}

static guint8
memop_kind (const char *name)
{
  static const struct
  {
    const char *word;
    guint8 kind;
  } kinds[] = {
    { "HtoD", WS_MEMOP_HTOD }, { "DtoH", WS_MEMOP_DTOH }, { "DtoD", WS_MEMOP_DTOD },
    { "HtoH", WS_MEMOP_HTOH }, { "PtoP", WS_MEMOP_PTOP }, { "Memset", WS_MEMOP_MEMSET },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strstr (name, kinds[i].word) != NULL)
      return kinds[i].kind;
  return WS_MEMOP_UNKNOWN;
}

static void
add_gpu_event (KinetoReader *r, gboolean kernel)
{
  const KinetoEvent *e = &r->event;
  KinetoColumns *c = kernel ? &r->kernels : &r->memops;
  guint32 stream = stream_index (r, e);
  guint32 correlation = (guint32) CLAMP (e->correlation, 0, G_MAXUINT32);

  add_span (r, c, e);
  g_array_append_val (c->stream, stream);
  g_array_append_val (c->correlation, correlation);
  if (kernel)
    {
      guint32 config = config_index (r, e);

      g_array_append_val (c->config, config);
    }
  else
    {
      guint64 bytes = (guint64) MAX (e->bytes, 0);
      guint8 kind = memop_kind (e->name->str);

      g_array_append_val (c->bytes, bytes);
      g_array_append_val (c->kind, kind);
    }
}

static void
add_thread_event (KinetoReader *r, KinetoColumns *c, gboolean correlated)
{
  const KinetoEvent *e = &r->event;
  guint32 thread = ws_kineto_thread_index (r, e->pid, e->tid);

  add_span (r, c, e);
  g_array_append_val (c->thread, thread);
  if (correlated)
    {
      guint32 correlation = (guint32) CLAMP (e->correlation, 0, G_MAXUINT32);

      g_array_append_val (c->correlation, correlation);
    }
}

static void
add_metadata (KinetoReader *r)
{
  const KinetoEvent *e = &r->event;

  if (!e->has_pid || e->arg_name->len == 0)
    return;
  if (g_str_equal (e->name->str, "process_name"))
    g_hash_table_insert (r->process_names, g_memdup2 (&e->pid, sizeof e->pid),
                         g_strdup (e->arg_name->str));
  else if (g_str_equal (e->name->str, "thread_name") && e->has_tid)
    {
      gint64 key = global_tid (e->pid, e->tid);

      /* Kineto may name a thread twice; the first name is the thread's own. */
      if (!g_hash_table_contains (r->thread_names, &key))
        g_hash_table_insert (r->thread_names, g_memdup2 (&key, sizeof key),
                             g_strdup (e->arg_name->str));
    }
}

static void
add_memory (KinetoReader *r)
{
  const KinetoEvent *e = &r->event;
  gint32 device = (gint32) CLAMP (e->mem_device, G_MININT32, G_MAXINT32);

  /* Device Type 1 is CUDA; 0 the host, whose allocations are not a GPU's. */
  if (e->mem_device_type != 1 || e->mem_device < 0)
    {
      r->n_host_memory++;
      return;
    }
  g_array_append_val (r->mem_time, e->ts);
  g_array_append_val (r->mem_bytes, e->mem_bytes);
  g_array_append_val (r->mem_device, device);
}

static void
dispatch_event (KinetoReader *r)
{
  const KinetoEvent *e = &r->event;
  gboolean on_thread = e->has_pid && e->has_tid && e->has_ts;

  if (STR_IS (e->ph, "M"))
    add_metadata (r);
  else if (STR_IS (e->ph, "X") && on_thread)
    {
      gboolean copy = STR_IS (e->cat, "gpu_memcpy");
      gboolean runtime = STR_IS (e->cat, "cuda_runtime");

      if (STR_IS (e->cat, "kernel"))
        add_gpu_event (r, TRUE);
      else if (copy || STR_IS (e->cat, "gpu_memset"))
        {
          add_gpu_event (r, FALSE);
          *(copy ? &r->n_memcpy : &r->n_memset) += 1;
        }
      else if (runtime || STR_IS (e->cat, "cuda_driver"))
        {
          add_thread_event (r, &r->api, TRUE);
          *(runtime ? &r->n_runtime : &r->n_driver) += 1;
        }
      else if (STR_IS (e->cat, "user_annotation"))
        add_thread_event (r, &r->ranges, FALSE);
      else if (STR_IS (e->cat, "cpu_op") || STR_IS (e->cat, "python_function"))
        add_thread_event (r, &r->cpu_ops, FALSE);
      else if (STR_IS (e->cat, "gpu_user_annotation"))
        r->n_gpu_annotations++;
      else
        r->n_other++;
    }
  else if (STR_IS (e->ph, "i") && STR_IS (e->name, "[memory]") && on_thread)
    add_memory (r);
  else if ((STR_IS (e->ph, "s") || STR_IS (e->ph, "f")) && STR_IS (e->cat, "ac2g"))
    r->n_flows++;
  else
    r->n_other++;
}

/* Every 8192 events: the cancellable, the progress, the bound on rows
 * (over the events of every worker, where several read). */
static gboolean
check_batch (KinetoReader *r, GError **error)
{
  gint64 events = r->n_events;

  if (g_cancellable_set_error_if_cancelled (r->cancellable, error))
    return FALSE;
  if (r->batches != NULL)
    {
      events = (gint64) (g_atomic_int_add (r->batches, 1) + 1) * (EVENTS_PER_BATCH);
      __atomic_store_n (&r->offset_now, ws_json_pull_offset (r->pull), __ATOMIC_RELAXED);
    }
  else if (r->progress != NULL && r->file != NULL && r->file_size > 0)
    r->progress (MIN (1.0, (double) g_seekable_tell (r->file) / (double) r->file_size),
                 "traceEvents", r->progress_data);
  return ws_limits_check_rows (r->path, "traceEvents", events, BYTES_PER_EVENT, error);
}

/**
 * ws_kineto_read_some_events:
 * @in_event: the '{' of the first event is read (where an earlier call
 *   stopped)
 * @stop: the byte from which on an event is not read
 * @stopped_at: (out): the byte of the '{' of the event not read, whose '{'
 *   was; -1 where the array ended
 *
 * Reads events of the array of "traceEvents" into @r's columns, up to its
 * end, or up to the first that begins at byte @stop or later.
 */
gboolean
ws_kineto_read_some_events (KinetoReader *r, gboolean in_event, guint64 stop, gint64 *stopped_at,
                            GError **error)
{
  WsJsonToken t = WS_JSON_BEGIN_OBJECT;

  *stopped_at = -1;
  for (;;)
    {
      if (!in_event && (t = ws_json_pull_next (r->pull, error)) == WS_JSON_END_ARRAY)
        return TRUE;
      if (t != WS_JSON_BEGIN_OBJECT)
        return t != WS_JSON_ERROR &&
               ws_json_pull_fail (r->pull, error, "an event that is not an object");
      if (!in_event && ws_json_pull_offset (r->pull) - 1 >= stop)
        {
          *stopped_at = (gint64) ws_json_pull_offset (r->pull) - 1;
          return TRUE;
        }
      in_event = FALSE;
      if (!read_event (r, error))
        return FALSE;
      dispatch_event (r);
      if ((++r->n_events & (EVENTS_PER_BATCH - 1)) == 0 && !check_batch (r, error))
        return FALSE;
    }
}

/**
 * ws_kineto_read_events:
 *
 * Reads the array of "traceEvents", its '[' not yet read, event by event
 * into @r's columns: on several cores where the file is big and plain
 * (ws-kineto-parallel.c), else here.
 */
gboolean
ws_kineto_read_events (KinetoReader *r, GError **error)
{
  WsJsonToken t = ws_json_pull_next (r->pull, error);
  gint64 stopped_at;

  if (t != WS_JSON_BEGIN_ARRAY)
    return t != WS_JSON_ERROR &&
           ws_json_pull_fail (r->pull, error, "\"traceEvents\" is not an array");
  r->has_events = TRUE;
  switch (ws_kineto_read_parallel (r, error))
    {
      case WS_KINETO_READ:
        return TRUE;
      case WS_KINETO_FAILED:
        return FALSE;
      case WS_KINETO_ONE_THREAD:
      default:
        return ws_kineto_read_some_events (r, FALSE, G_MAXUINT64, &stopped_at, error);
    }
}
