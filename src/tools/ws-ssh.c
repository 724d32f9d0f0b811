/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ssh"
#include "config.h"

#include <string.h>

#include "ws-ssh.h"
#include "ws-tools-error.h"

/* The words of remote commands.  ssh hands its command to the login shell
 * of the host as one string, so every value must reach that shell quoted;
 * one function (ws_ssh_quote) does it, for POSIX shells (sh, dash, bash,
 * zsh, ksh: the remote login shell must be one of them, as git's remote
 * commands assume).  Every remote command runs inside a small sh wrapper
 * that gives it a process group of its own there, and ends that group
 * when the ssh connection's input closes: when Warpscope cancels, exits,
 * crashes or loses the connection. */

#define SAFE_CHARS "-_./=:,@%+"

/**
 * ws_ssh_quote:
 * @word: any bytes but NUL
 *
 * Quotes @word for a POSIX shell so that it reads as @word and nothing
 * else: a word of plain characters stays as it is; any other goes in
 * single quotes, inside which nothing is special but the single quote,
 * written `'\''`.  Newlines, `$`, backquotes, UTF-8 and bytes that are
 * not UTF-8 are literal inside single quotes.
 *
 * Returns: (transfer full): the quoted word
 */
char *
ws_ssh_quote (const char *word)
{
  GString *out;
  gboolean plain;

  g_return_val_if_fail (word != NULL, NULL);

  plain = word[0] != '\0';
  for (const char *p = word; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || strchr (SAFE_CHARS, *p) != NULL;
  if (plain)
    return g_strdup (word);

  out = g_string_new ("'");
  for (const char *p = word; *p != '\0'; p++)
    if (*p == '\'')
      g_string_append (out, "'\\''");
    else
      g_string_append_c (out, *p);
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/**
 * ws_ssh_join:
 *
 * Returns: (transfer full): the words quoted and joined by spaces: a
 *   command line a POSIX shell splits back into @argv
 */
char *
ws_ssh_join (const char *const *argv)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      g_autofree char *quoted = ws_ssh_quote (argv[i]);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, quoted);
    }
  return g_string_free (out, FALSE);
}

/* The wrapper, run by `sh -c` on the host with the arguments
 *   TOKEN DIR OUT GRACE NSTAT NENV STAT… ENV… PROGRAM ARG…
 * GRACE is in tenths of a second; DIR and OUT may be empty.  The program
 * runs in a group of its own (setsid; its pid is the group's id) with
 * /dev/null as input; a second child reads the wrapper's input, which is
 * the ssh channel's, and sends SIGTERM to the group when it ends.  Once
 * the program is done, what is left of its group gets SIGTERM, then
 * SIGKILL after the grace period, as on this machine.  The wrapper's own
 * lines, on standard error, start with "warpscope-remote:TOKEN". */
static const char wrapper[] =
  "t=$1 d=$2 o=$3 g=$4 ns=$5 ne=$6\n"
  "shift 6\n"
  "m=warpscope-remote:$t\n"
  "r=0\n"
  "if [ -n \"$d\" ] && ! cd -- \"$d\"; then r=126\n"
  "elif ! s=$(command -v setsid); then\n"
  "  echo \"setsid is not installed on $(hostname) (util-linux)\" >&2; r=127\n"
  "else\n"
  "  exec 3<&0\n"
  "  (\n"
  "    i=0; while [ $i -lt $ns ]; do shift; i=$((i+1)); done\n"
  "    i=0; while [ $i -lt $ne ]; do export \"$1\"; shift; i=$((i+1)); done\n"
  "    if [ -n \"$o\" ]; then exec >\"$o\"; fi\n"
  "    exec \"$s\" \"$@\"\n"
  "  ) </dev/null 3<&- &\n"
  "  p=$!\n"
  "  ( while read -r _; do :; done; kill -TERM -$p ) <&3 3<&- >/dev/null 2>&1 &\n"
  "  w=$!\n"
  "  exec 3<&-\n"
  "  trap '' PIPE\n"
  "  wait $p; r=$?\n"
  "  if kill -0 -$p 2>/dev/null; then\n"
  "    kill -TERM -$p 2>/dev/null; n=0\n"
  "    while kill -0 -$p 2>/dev/null && [ $n -lt $g ]; do sleep 0.1; n=$((n+1)); done\n"
  "    kill -KILL -$p 2>/dev/null; n=0\n"
  "    while kill -0 -$p 2>/dev/null && [ $n -lt 20 ]; do sleep 0.1; n=$((n+1)); done\n"
  "  fi\n"
  "  kill $w 2>/dev/null\n"
  "  if [ $r -ne 0 ] && [ -n \"$o\" ] && [ -f \"$o\" ]; then\n"
  "    grep -m 3 -E '^[[:space:]]*(==ERROR==|ERROR)' -- \"$o\" >&2\n"
  "  fi\n"
  "fi\n"
  "i=0\n"
  "while [ $i -lt $ns ]; do\n"
  "  if [ -f \"$1\" ]; then echo \"$m size $i $(wc -c <\"$1\")\" >&2\n"
  "  else echo \"$m size $i -\" >&2; fi\n"
  "  shift; i=$((i+1))\n"
  "done\n"
  "echo \"$m exit $r\" >&2\n"
  "exit $r\n";

/**
 * ws_ssh_new_token:
 *
 * Returns: (transfer full): a word no program prints by chance, for
 *   #WsSshRemoteCommand.token
 */
char *
ws_ssh_new_token (void)
{
  return g_strdup_printf ("%08x%08x", g_random_int (), g_random_int ());
}

/**
 * ws_ssh_remote_command:
 *
 * Builds what ssh sends to the host for @command: `exec sh -c WRAPPER …`
 * with every value quoted by ws_ssh_quote(), so that the program gets each
 * argument and each ENVS value as the literal text it is here.
 *
 * Returns: (transfer full): the remote command line
 */
char *
ws_ssh_remote_command (const WsSshRemoteCommand *command)
{
  g_autoptr (GStrvBuilder) words = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autofree char *grace = NULL;
  g_autofree char *n_stat = NULL;
  g_autofree char *n_env = NULL;
  guint n;

  g_return_val_if_fail (command != NULL && command->argv != NULL && command->argv[0] != NULL, NULL);
  g_return_val_if_fail (command->token != NULL, NULL);

  grace = g_strdup_printf ("%u", (command->grace_ms + 99) / 100);
  n = command->stat_paths != NULL ? g_strv_length ((char **) command->stat_paths) : 0;
  n_stat = g_strdup_printf ("%u", n);
  n = command->env != NULL ? g_strv_length ((char **) command->env) : 0;
  n_env = g_strdup_printf ("%u", n);

  g_strv_builder_add_many (words, "exec", "sh", "-c", wrapper, "warpscope", command->token,
                           command->cwd != NULL ? command->cwd : "",
                           command->stdout_path != NULL ? command->stdout_path : "", grace, n_stat,
                           n_env, NULL);
  if (command->stat_paths != NULL)
    g_strv_builder_addv (words, (const char **) command->stat_paths);
  if (command->env != NULL)
    g_strv_builder_addv (words, (const char **) command->env);
  g_strv_builder_addv (words, (const char **) command->argv);
  argv = g_strv_builder_end (words);
  return ws_ssh_join ((const char *const *) argv);
}

/**
 * ws_ssh_wrapper_line:
 * @end: (inout): what the wrapper said so far
 *
 * Takes a line of a remote command's standard error.
 *
 * Returns: %TRUE when the line is the wrapper's own (not the program's)
 */
gboolean
ws_ssh_wrapper_line (const char *token, const char *line, WsSshRemoteEnd *end)
{
  g_autofree char *prefix = NULL;
  const char *rest;

  g_return_val_if_fail (token != NULL && line != NULL && end != NULL, FALSE);

  prefix = g_strconcat ("warpscope-remote:", token, " ", NULL);
  if (!g_str_has_prefix (line, prefix))
    return FALSE;
  rest = line + strlen (prefix);
  if (g_str_has_prefix (rest, "exit "))
    {
      end->ended = TRUE;
      end->exit_status = (int) g_ascii_strtoll (rest + 5, NULL, 10);
    }
  else if (g_str_has_prefix (rest, "size "))
    {
      char *after = NULL;
      guint64 index = g_ascii_strtoull (rest + 5, &after, 10);
      gint64 size;

      while (after != NULL && *after == ' ')
        after++;
      size = after != NULL && g_ascii_isdigit (*after) ? g_ascii_strtoll (after, NULL, 10) : -1;
      if (end->sizes == NULL)
        end->sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
      if (index < 4096)
        {
          gint64 missing = -1;

          while (end->sizes->len <= index)
            g_array_append_val (end->sizes, missing);
          g_array_index (end->sizes, gint64, index) = size;
        }
    }
  return TRUE;
}

void
ws_ssh_remote_end_clear (WsSshRemoteEnd *end)
{
  g_return_if_fail (end != NULL);

  g_clear_pointer (&end->sizes, g_array_unref);
  end->ended = FALSE;
  end->exit_status = 0;
}

/**
 * ws_ssh_command_argv:
 * @configured: (nullable): a command line such as `ssh -F ~/work/ssh_config`
 *   (split as a shell would, as git splits GIT_SSH_COMMAND); %NULL or
 *   empty for `ssh`
 *
 * Returns: (transfer full): the argv, or %NULL with @error set when the
 *   line does not split
 */
char **
ws_ssh_command_argv (const char *configured, GError **error)
{
  g_auto (GStrv) argv = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (configured != NULL ? configured : ""));
  char *program;

  if (trimmed[0] == '\0')
    argv = g_strsplit ("ssh", " ", -1);
  else if (!g_shell_parse_argv (trimmed, NULL, &argv, &local))
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_INVALID,
                   "the ssh command “%s” (%s or the settings) does not read as a command line: %s",
                   configured, WS_SSH_ENV, local->message);
      return NULL;
    }
  /* `~/x` in an option's value, as a shell would expand it. */
  for (guint i = 0; argv[i] != NULL; i++)
    if (g_str_has_prefix (argv[i], "~/"))
      {
        char *expanded = g_build_filename (g_get_home_dir (), argv[i] + 2, NULL);

        g_free (argv[i]);
        argv[i] = expanded;
      }
  /* Commands run without a search of PATH: the program by its path. */
  program = strchr (argv[0], '/') != NULL ? g_strdup (argv[0]) : g_find_program_in_path (argv[0]);
  if (program == NULL)
    {
      g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TOOL_MISSING,
                   "%s: not found on PATH (the ssh command; OpenSSH's client is the package "
                   "openssh-client)",
                   argv[0]);
      return NULL;
    }
  g_free (argv[0]);
  argv[0] = program;
  return g_steal_pointer (&argv);
}

static gboolean
has (const char *text, const char *what)
{
  return strstr (text, what) != NULL;
}

/* ssh's lines that say what went wrong, without its banner art. */
static char *
ssh_words (const char *ssh_stderr)
{
  g_auto (GStrv) lines = g_strsplit (ssh_stderr != NULL ? ssh_stderr : "", "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (line[0] == '\0' || g_str_has_prefix (line, "@@@") || g_str_has_prefix (line, "@ ") ||
          g_str_has_prefix (line, "Warning: Permanently added"))
        continue;
      if (out->len > 0)
        g_string_append (out, " ");
      g_string_append (out, line);
    }
  return g_string_free (out, FALSE);
}

/**
 * ws_ssh_problem:
 * @host: the host as the user named it
 * @ssh_stderr: what ssh printed
 * @verify_command: the ssh command line that connects to @host, for the
 *   user to run in a terminal
 * @code: (out) (optional): a #WsCaptureError: HOST_KEY or CONNECTION
 *
 * Says in one message why ssh could not connect, and what to do.  Host
 * keys are never accepted here: an unknown or changed key is for the user
 * to check.
 *
 * Returns: (transfer full): the message
 */
char *
ws_ssh_problem (const char *host, const char *ssh_stderr, const char *verify_command, int *code)
{
  g_autofree char *words = ssh_words (ssh_stderr);
  const char *text = ssh_stderr != NULL ? ssh_stderr : "";
  int result = WS_TOOLS_ERROR_CONNECTION;
  char *message;

  if (has (text, "REMOTE HOST IDENTIFICATION HAS CHANGED") || has (text, "has changed and you"))
    {
      result = WS_TOOLS_ERROR_HOST_KEY;
      message = g_strdup_printf (
        "%s: the host key has CHANGED since it was accepted: someone may be intercepting the "
        "connection, or the host was reinstalled. Nothing was run. Ask the host's administrator "
        "for its key fingerprint; if the change is expected, remove the old key as ssh says "
        "(ssh-keygen -R …), then connect once in a terminal to check and accept the new one: %s "
        "(ssh: %s)",
        host, verify_command, words);
    }
  else if (has (text, "Host key verification failed") || has (text, "host key is known") ||
           has (text, "authenticity of host"))
    {
      result = WS_TOOLS_ERROR_HOST_KEY;
      message = g_strdup_printf (
        "%s: the host key is not known, and Warpscope never accepts one by itself. Compare the "
        "key's fingerprint with the one the host's administrator gives, by connecting once in a "
        "terminal, which shows it and asks: %s (ssh: %s)",
        host, verify_command, words);
    }
  else if (has (text, "Permission denied") || has (text, "Too many authentication failures"))
    message = g_strdup_printf (
      "%s: the host did not let us in (ssh: %s). Warpscope cannot type a password or a key's "
      "passphrase: load the key into the agent (ssh-add KEYFILE), or set the host's identity "
      "file; %s in a terminal must work without a question",
      host, words, verify_command);
  else
    message = g_strdup_printf ("%s: cannot connect (ssh: %s)", host,
                               words[0] != '\0' ? words : "no message");
  if (code != NULL)
    *code = result;
  return message;
}
