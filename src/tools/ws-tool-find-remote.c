/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-tools"
#include "config.h"

#include <string.h>

#include "ws-tool-find.h"
#include "ws-ssh-connection.h"
#include "ws-tools-error.h"

/* Finding nsys and ncu on a host, where this machine's file tests do not
 * reach: a script there lists the candidates in the order
 * ws_tool_find_in() looks (PATH, /usr/local/cuda/bin, then each
 * /usr/local/cuda-*, then the Nsight install folders), and the newest of
 * a kind is chosen here, the same way. */

static const char find_script[] =
  "n=$1 c=$2\n"
  "if [ -n \"$c\" ]; then\n"
  "  case $c in */*) p=$c ;; *) p=$(command -v -- \"$c\") || exit 1 ;; esac\n"
  "  [ -x \"$p\" ] && [ ! -d \"$p\" ] && echo \"path $p\" && exit 0\n"
  "  exit 1\n"
  "fi\n"
  "p=$(command -v -- \"$n\" 2>/dev/null) && case $p in /*) echo \"path $p\"; exit 0 ;; esac\n"
  "[ -x \"/usr/local/cuda/bin/$n\" ] && echo \"path /usr/local/cuda/bin/$n\" && exit 0\n"
  "for f in /usr/local/cuda-*/bin/\"$n\"; do [ -x \"$f\" ] && echo \"cuda $f\"; done\n"
  "case $n in\n"
  "  nsys) set -- /opt/nvidia/nsight-systems*/bin/nsys /opt/nvidia/nsight-systems*/*/bin/nsys ;;\n"
  "  ncu) set -- /opt/nvidia/nsight-compute*/ncu /opt/nvidia/nsight-compute*/*/ncu ;;\n"
  "  *) set -- ;;\n"
  "esac\n"
  "for f in \"$@\"; do [ -x \"$f\" ] && [ ! -d \"$f\" ] && echo \"opt $f\"; done\n"
  "exit 0\n";

/**
 * ws_tool_resolve_on:
 * @ssh: (nullable): the host; %NULL for this machine
 * @configured: (nullable): a path or a program name from the host's
 *   settings, or from `--nsys`/`--ncu`
 *
 * ws_tool_resolve() on a host.  Blocks: call it from a worker
 * thread.
 *
 * Returns: (transfer full): the program's path there, or %NULL with
 *   @error naming where it looked
 */
char *
ws_tool_resolve_on (WsSshConnection *ssh, const char *name, const char *configured, GError **error)
{
  const char *args[] = { name, configured != NULL ? configured : "", NULL };
  g_autoptr (GPtrArray) cuda = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) opt = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) local = NULL;
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  char *found = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  if (ssh == NULL)
    return ws_tool_resolve (name, configured, error);
  if (!ws_ssh_connection_script (ssh, find_script, args, 60, NULL, &out, &local))
    {
      if (local->code == WS_TOOLS_ERROR_CONNECTION)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (configured != NULL && configured[0] != '\0')
        {
          g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
                       "%s: %s: no such program there (the %s path of the host's settings)",
                       ws_ssh_connection_get_name (ssh), configured, name);
          return NULL;
        }
    }
  lines = g_strsplit (out != NULL ? out : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL && found == NULL; i++)
    if (g_str_has_prefix (lines[i], "path "))
      found = g_strdup (lines[i] + 5);
    else if (g_str_has_prefix (lines[i], "cuda "))
      g_ptr_array_add (cuda, g_strdup (lines[i] + 5));
    else if (g_str_has_prefix (lines[i], "opt "))
      g_ptr_array_add (opt, g_strdup (lines[i] + 4));
  if (found == NULL)
    found = ws_tool_newest (cuda, "cuda-");
  if (found == NULL)
    found = ws_tool_newest (opt, g_str_equal (name, "nsys") ? "nsight-systems" : "nsight-compute");
  if (found == NULL)
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
                 "%s: %s: not found there on PATH, in /usr/local/cuda/bin or in /opt/nvidia/%s*",
                 ws_ssh_connection_get_name (ssh), name,
                 g_str_equal (name, "nsys") ? "nsight-systems" : "nsight-compute");
  return found;
}
