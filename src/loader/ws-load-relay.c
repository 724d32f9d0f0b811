/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include "ws-load-relay.h"

struct _WsLoadRelay
{
  gatomicrefcount ref_count;
  GMainContext *context;
  GCancellable *cancellable;
  WsProgressFunc func;
  gpointer data;
  GDestroyNotify notify;
  gint finished; /* atomic */
};

/**
 * ws_load_relay_new:
 * @func: (nullable): gets the progress on the caller's thread-default
 *   main context
 * @notify: (nullable): frees @data once nothing is pending
 *
 * Returns: (transfer full): a relay to the calling thread's main context
 */
WsLoadRelay *
ws_load_relay_new (WsProgressFunc func, gpointer data, GDestroyNotify notify,
                   GCancellable *cancellable)
{
  WsLoadRelay *relay = g_new0 (WsLoadRelay, 1);

  g_atomic_ref_count_init (&relay->ref_count);
  relay->context = g_main_context_ref_thread_default ();
  relay->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  relay->func = func;
  relay->data = data;
  relay->notify = notify;
  return relay;
}

WsLoadRelay *
ws_load_relay_ref (WsLoadRelay *relay)
{
  g_atomic_ref_count_inc (&relay->ref_count);
  return relay;
}

void
ws_load_relay_unref (WsLoadRelay *relay)
{
  if (!g_atomic_ref_count_dec (&relay->ref_count))
    return;
  if (relay->notify != NULL)
    relay->notify (relay->data);
  g_main_context_unref (relay->context);
  g_clear_object (&relay->cancellable);
  g_free (relay);
}

/* Nothing more is delivered once the load is over. */
void
ws_load_relay_finish (WsLoadRelay *relay)
{
  g_atomic_int_set (&relay->finished, TRUE);
}

/* The data the relay was made with: for the caller's side of a delivery. */
gpointer
ws_load_relay_get_data (WsLoadRelay *relay)
{
  return relay->data;
}

typedef struct
{
  WsLoadRelay *relay;
  GSourceFunc func;
  gpointer data;
  GDestroyNotify destroy;
} Delivery;

static void
delivery_free (gpointer data)
{
  Delivery *delivery = data;

  if (delivery->destroy != NULL)
    delivery->destroy (delivery->data);
  ws_load_relay_unref (delivery->relay);
  g_free (delivery);
}

static gboolean
deliver (gpointer data)
{
  Delivery *delivery = data;

  if (!g_atomic_int_get (&delivery->relay->finished) &&
      !g_cancellable_is_cancelled (delivery->relay->cancellable))
    delivery->func (delivery->data);
  return G_SOURCE_REMOVE;
}

/**
 * ws_load_relay_invoke:
 *
 * Calls @func with @data on the caller's main context, unless the load is
 * over by then; @destroy frees @data in any case.
 */
void
ws_load_relay_invoke (WsLoadRelay *relay, GSourceFunc func, gpointer data, GDestroyNotify destroy)
{
  Delivery *delivery = g_new0 (Delivery, 1);
  g_autoptr (GSource) source = NULL;

  delivery->relay = ws_load_relay_ref (relay);
  delivery->func = func;
  delivery->data = data;
  delivery->destroy = destroy;
  /* Always through the caller's loop: g_main_context_invoke() would call
   * it right here, on the worker, whenever the worker's thread-default
   * context is the caller's and nobody iterates it at that moment. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, deliver, delivery, delivery_free);
  g_source_attach (source, relay->context);
}

typedef struct
{
  WsLoadRelay *relay;
  double fraction;
  char *what;
} ProgressEvent;

static void
progress_event_free (gpointer data)
{
  ProgressEvent *event = data;

  g_free (event->what);
  g_free (event);
}

static gboolean
deliver_progress (gpointer data)
{
  ProgressEvent *event = data;

  if (event->relay->func != NULL)
    event->relay->func (event->fraction, event->what, event->relay->data);
  return G_SOURCE_REMOVE;
}

/* A WsProgressFunc for workers: @relay is the WsLoadRelay. */
void
ws_load_relay_progress (double fraction, const char *what, gpointer relay)
{
  ProgressEvent *event = g_new0 (ProgressEvent, 1);

  event->relay = relay;
  event->fraction = fraction;
  event->what = g_strdup (what);
  ws_load_relay_invoke (relay, deliver_progress, event, progress_event_free);
}
