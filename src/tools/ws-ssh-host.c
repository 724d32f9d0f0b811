/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ssh-host"
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-ssh-host.h"
#include "ws-tools-error.h"

/* The hosts of the settings, and what a HOST cell or `--host` names:
 * a host of the settings by its name, otherwise an ssh destination as
 * `[user@]host[:port]`, where host may be an OpenSSH `Host` alias. */

WsSshHost *
ws_ssh_host_new (const char *name, const char *destination, guint port)
{
  WsSshHost *host = g_new0 (WsSshHost, 1);

  host->name = g_strdup (name);
  host->destination = g_strdup (destination);
  host->port = port;
  return host;
}

WsSshHost *
ws_ssh_host_copy (const WsSshHost *host)
{
  WsSshHost *copy;

  g_return_val_if_fail (host != NULL, NULL);

  copy = ws_ssh_host_new (host->name, host->destination, host->port);
  copy->identity = g_strdup (host->identity);
  copy->remote_dir = g_strdup (host->remote_dir);
  copy->nsys = g_strdup (host->nsys);
  copy->ncu = g_strdup (host->ncu);
  return copy;
}

void
ws_ssh_host_free (WsSshHost *host)
{
  if (host == NULL)
    return;
  g_free (host->name);
  g_free (host->destination);
  g_free (host->identity);
  g_free (host->remote_dir);
  g_free (host->nsys);
  g_free (host->ncu);
  g_free (host);
}

/**
 * ws_ssh_host_is_local:
 *
 * Returns: whether a HOST cell means this machine: empty or `-`
 */
gboolean
ws_ssh_host_is_local (const char *spec)
{
  if (spec == NULL)
    return TRUE;
  while (g_ascii_isspace (*spec))
    spec++;
  return spec[0] == '\0' || (spec[0] == '-' && (spec[1] == '\0' || g_ascii_isspace (spec[1])));
}

/**
 * ws_ssh_destination_check:
 * @destination: (nullable): what ssh is to connect to, `[user@]host`
 *
 * The one check of a destination, wherever it comes from (a HOST cell,
 * `--host`, the settings, a capture folder's run.json): it reaches ssh as
 * one argument, so it must not read as an option, nor hold what no host
 * name holds.
 */
gboolean
ws_ssh_destination_check (const char *destination, GError **error)
{
  if (destination == NULL || destination[0] == '\0')
    {
      g_set_error_literal (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                           "no host: give user@host or an ssh Host alias");
      return FALSE;
    }
  if (destination[0] == '-')
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                   "“%s” starts with “-”: ssh would take it for an option", destination);
      return FALSE;
    }
  for (const char *p = destination; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || g_ascii_iscntrl (*p) || strchr ("'\"`$;&|<>\\()*?!#", *p) != NULL)
      {
        g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                     "“%s” is not a host: it holds “%c”", destination, *p);
        return FALSE;
      }
  return TRUE;
}

/**
 * ws_ssh_identity_check:
 * @identity: (nullable): a key file for `ssh -i`, or %NULL for none
 *
 * The one check of a key file, wherever it comes from (the settings, a
 * capture folder's run.json): it reaches ssh as the argument of `-i`, so
 * it must be an existing regular file of the user's, and must not read as
 * an option.
 */
gboolean
ws_ssh_identity_check (const char *identity, GError **error)
{
  g_autofree char *expanded = NULL;
  GStatBuf st;

  if (identity == NULL || identity[0] == '\0')
    return TRUE;
  if (identity[0] == '-')
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                   "“%s” starts with “-”: ssh would take it for an option", identity);
      return FALSE;
    }
  for (const char *p = identity; *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      {
        g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                     "the key file “%s” holds a control character", identity);
        return FALSE;
      }
  /* ssh reads ~/ as the home folder in -i's argument, as a shell would. */
  if (g_str_has_prefix (identity, "~/"))
    expanded = g_build_filename (g_get_home_dir (), identity + 2, NULL);
  if (g_stat (expanded != NULL ? expanded : identity, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID, "the key file “%s”: %s", identity,
                   g_strerror (saved));
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                   "the key file “%s” is not a regular file", identity);
      return FALSE;
    }
  if (st.st_uid != getuid ())
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                   "the key file “%s” belongs to another user", identity);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_ssh_host_parse:
 * @spec: `[user@]host[:port]`, `[user@][v6addr]:port`, or a Host alias
 *
 * Returns: (transfer full): a host named @spec, or %NULL with @error set
 */
WsSshHost *
ws_ssh_host_parse (const char *spec, GError **error)
{
  g_autofree char *text = NULL;
  g_autofree char *destination = NULL;
  guint64 port = 0;
  char *at;
  char *host_part;
  char *colon;

  g_return_val_if_fail (spec != NULL, NULL);

  text = g_strstrip (g_strdup (spec));
  at = strrchr (text, '@');
  host_part = at != NULL ? at + 1 : text;
  if (host_part[0] == '[')
    {
      char *close = strchr (host_part, ']');

      if (close == NULL)
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID, "“%s”: “[” without “]”",
                       spec);
          return NULL;
        }
      colon = close[1] == ':' ? close + 1 : NULL;
      if (close[1] != '\0' && colon == NULL)
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                       "“%s”: only “:PORT” may follow “]”", spec);
          return NULL;
        }
      /* ssh takes the address without its brackets. */
      memmove (host_part, host_part + 1, strlen (host_part));
      *strchr (host_part, ']') = '\0';
      if (colon != NULL)
        colon--;
    }
  else
    {
      colon = strrchr (host_part, ':');
      /* A bare IPv6 address has several colons and no port. */
      if (colon != NULL && strchr (host_part, ':') != colon)
        colon = NULL;
    }
  if (colon != NULL)
    {
      char *end = NULL;

      port = g_ascii_strtoull (colon + 1, &end, 10);
      if (colon[1] == '\0' || end == NULL || *end != '\0' || port == 0 || port > 65535)
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                       "“%s”: the port after “:” must be a number from 1 to 65535", spec);
          return NULL;
        }
      *colon = '\0';
    }
  destination = g_strdup (text);
  if (!ws_ssh_destination_check (destination, error) || (at != NULL && at[1] == '\0'))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID, "“%s”: no host after “@”",
                     spec);
      return NULL;
    }
  {
    g_autofree char *name = g_strstrip (g_strdup (spec));

    return ws_ssh_host_new (name, destination, (guint) port);
  }
}

/**
 * ws_ssh_host_validate:
 *
 * Checks a host of the settings: a name for the HOST column, a
 * destination ssh can take, a port in range.
 */
gboolean
ws_ssh_host_validate (const WsSshHost *host, GError **error)
{
  g_return_val_if_fail (host != NULL, FALSE);

  if (host->name == NULL || ws_ssh_host_is_local (host->name))
    {
      g_set_error_literal (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                           "a host needs a name (empty and “-” mean this machine)");
      return FALSE;
    }
  for (const char *p = host->name; *p != '\0'; p++)
    if (*p == '\t' || *p == '\n' || *p == '\r')
      {
        g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                     "the host name “%s” holds a TAB or a line break", host->name);
        return FALSE;
      }
  if (!ws_ssh_destination_check (host->destination, error))
    {
      g_prefix_error (error, "host “%s”: ", host->name);
      return FALSE;
    }
  if (!ws_ssh_port_check (host->port, error) || !ws_ssh_identity_check (host->identity, error))
    {
      g_prefix_error (error, "host “%s”: ", host->name);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_ssh_port_check:
 * @port: a port, 0 for what ssh's configuration says
 *
 * Returns: whether @port is 0 or from 1 to 65535
 */
gboolean
ws_ssh_port_check (gint64 port, GError **error)
{
  if (port < 0 || port > 65535)
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                   "port %" G_GINT64_FORMAT " is not from 1 to 65535", port);
      return FALSE;
    }
  return TRUE;
}

/**
 * ws_ssh_host_lookup:
 * @known: (element-type WsSshHost) (nullable): the hosts of the settings
 * @spec: a HOST cell or a `--host` value
 *
 * Returns: (transfer full): the known host named @spec, or @spec read as
 *   an ssh destination; %NULL with @error set when it is neither
 */
WsSshHost *
ws_ssh_host_lookup (GPtrArray *known, const char *spec, GError **error)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  name = g_strstrip (g_strdup (spec));
  for (guint i = 0; known != NULL && i < known->len; i++)
    {
      const WsSshHost *host = g_ptr_array_index (known, i);

      if (g_strcmp0 (host->name, name) == 0)
        return ws_ssh_host_copy (host);
    }
  return ws_ssh_host_parse (name, error);
}

/**
 * ws_ssh_host_describe:
 *
 * Returns: (transfer full): `name (user@host:port)`, or the destination
 *   alone when it is the name
 */
char *
ws_ssh_host_describe (const WsSshHost *host)
{
  g_autofree char *where = NULL;

  g_return_val_if_fail (host != NULL, NULL);

  where = host->port != 0 ? g_strdup_printf ("%s:%u", host->destination, host->port)
                          : g_strdup (host->destination);
  if (g_strcmp0 (host->name, where) == 0 || host->name == NULL)
    return g_steal_pointer (&where);
  return g_strdup_printf ("%s (%s)", host->name, where);
}

const char *
ws_ssh_host_remote_dir (const WsSshHost *host)
{
  g_return_val_if_fail (host != NULL, NULL);
  return host->remote_dir != NULL && host->remote_dir[0] != '\0' ? host->remote_dir
                                                                 : WS_SSH_HOST_DEFAULT_DIR;
}

static void
add_string (GVariantBuilder *builder, const char *key, const char *value)
{
  if (value != NULL && value[0] != '\0')
    g_variant_builder_add (builder, "{sv}", key, g_variant_new_string (value));
}

/* Returns: (transfer floating): the host as the settings keep it, a{sv} */
GVariant *
ws_ssh_host_to_variant (const WsSshHost *host)
{
  GVariantBuilder builder;

  g_return_val_if_fail (host != NULL, NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  add_string (&builder, "name", host->name);
  add_string (&builder, "destination", host->destination);
  if (host->port != 0)
    g_variant_builder_add (&builder, "{sv}", "port", g_variant_new_uint32 (host->port));
  add_string (&builder, "identity", host->identity);
  add_string (&builder, "remote-dir", host->remote_dir);
  add_string (&builder, "nsys", host->nsys);
  add_string (&builder, "ncu", host->ncu);
  return g_variant_builder_end (&builder);
}

static char *
lookup_string (GVariant *dict, const char *key)
{
  const char *value = NULL;

  if (!g_variant_lookup (dict, key, "&s", &value) || value[0] == '\0')
    return NULL;
  return g_strdup (value);
}

/* Returns: (transfer full) (nullable): the host of an a{sv}, %NULL when it
 *   has no name */
WsSshHost *
ws_ssh_host_new_from_variant (GVariant *variant)
{
  WsSshHost *host;
  guint32 port = 0;

  g_return_val_if_fail (variant != NULL, NULL);
  g_return_val_if_fail (g_variant_is_of_type (variant, G_VARIANT_TYPE_VARDICT), NULL);

  host = g_new0 (WsSshHost, 1);
  host->name = lookup_string (variant, "name");
  host->destination = lookup_string (variant, "destination");
  if (g_variant_lookup (variant, "port", "u", &port))
    host->port = port;
  host->identity = lookup_string (variant, "identity");
  host->remote_dir = lookup_string (variant, "remote-dir");
  host->nsys = lookup_string (variant, "nsys");
  host->ncu = lookup_string (variant, "ncu");
  if (host->name == NULL)
    g_clear_pointer (&host, ws_ssh_host_free);
  return host;
}

/**
 * ws_ssh_hosts_from_variant:
 * @list: an aa{sv}
 *
 * Returns: (transfer full) (element-type WsSshHost): the hosts with a name
 */
GPtrArray *
ws_ssh_hosts_from_variant (GVariant *list)
{
  GPtrArray *hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_ssh_host_free);
  GVariantIter iter;
  GVariant *child;

  g_return_val_if_fail (list != NULL, hosts);

  g_variant_iter_init (&iter, list);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      WsSshHost *host = ws_ssh_host_new_from_variant (child);

      if (host != NULL)
        g_ptr_array_add (hosts, host);
      g_variant_unref (child);
    }
  return hosts;
}

/* Returns: (transfer floating): the hosts as an aa{sv} */
GVariant *
ws_ssh_hosts_to_variant (GPtrArray *hosts)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; hosts != NULL && i < hosts->len; i++)
    g_variant_builder_add_value (&builder, ws_ssh_host_to_variant (g_ptr_array_index (hosts, i)));
  return g_variant_builder_end (&builder);
}
