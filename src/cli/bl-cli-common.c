/* bl-cli-common.c — loading, output and errors shared by the commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* O_TMPFILE */
#define _GNU_SOURCE

#define G_LOG_DOMAIN "brightlens-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bl-cli.h"
#include "bl-json-text.h"
#include "bl-write-behind.h"

int
bl_cli_usage_error (GOptionContext *context,
                    const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  fprintf (stderr, "brightlens-cli: %s\n\n%s", message, help);

  return BL_CLI_USAGE;
}

/* Every input read so far, so that -o never writes over one of them. */
typedef struct
{
  dev_t  dev;
  ino_t  ino;
  char  *path;
} Input;

static GArray *inputs;
static gboolean stdin_taken;

static void
remember_input (const struct stat *st,
                const char        *path)
{
  Input input = { st->st_dev, st->st_ino, g_strdup (path) };

  if (inputs == NULL)
    inputs = g_array_new (FALSE, FALSE, sizeof (Input));
  g_array_append_val (inputs, input);
}

static const Input *
find_input (const struct stat *st)
{
  for (guint i = 0; inputs != NULL && i < inputs->len; i++)
    {
      const Input *input = &g_array_index (inputs, Input, i);

      if (input->dev == st->st_dev && input->ino == st->st_ino)
        return input;
    }

  return NULL;
}

/**
 * bl_cli_load:
 * @path: a file, or "-" for standard input (a pipe will do)
 * @exit_status: (out): set to %BL_CLI_INVALID_INPUT on failure
 *
 * Loads @path; prints the reader's message on failure and the reader's
 * warning (an incomplete stream, for example) on stderr. Compressed input
 * (gzip, zstd, xz) is recognised by content and decompressed as it is read.
 *
 * Returns: (transfer full) (nullable): the profile or session
 */
static GObject *
load (const char *path,
      int        *exit_status,
      gboolean    allow_recording)
{
  g_autoptr(GError) error = NULL;
  GObject *result;
  struct stat st;

  if (g_str_equal (path, "-"))
    {
      g_autoptr(GInputStream) stream = NULL;
      guint64 total = 0;

      if (stdin_taken)
        {
          fprintf (stderr, "%s\n", _("brightlens-cli: standard input (“-”) can be read only "
                                     "once."));
          *exit_status = BL_CLI_USAGE;
          return NULL;
        }
      stdin_taken = TRUE;

      if (fstat (STDIN_FILENO, &st) == 0)
        {
          remember_input (&st, path);
          if (S_ISREG (st.st_mode))
            total = st.st_size;
        }
      stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);
      result = bl_format_load_stream (stream, total, NULL, NULL, NULL, &error);
    }
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);

      if (g_file_is_native (file) && g_stat (path, &st) == 0)
        remember_input (&st, path);
      result = bl_format_load_file (file, NULL, NULL, NULL, &error);
    }

  if (result == NULL)
    {
      fprintf (stderr, "brightlens-cli: %s: %s\n", path, error->message);
      *exit_status = BL_CLI_INVALID_INPUT;
      return NULL;
    }

  if (BL_IS_PROFILE (result) && bl_profile_get_warning (BL_PROFILE (result)) != NULL)
    fprintf (stderr, _("brightlens-cli: warning: %s: %s\n"),
             path, bl_profile_get_warning (BL_PROFILE (result)));

  /* only `info` summarises a whole recording; the rest take one of its files */
  if (BL_IS_RECORDING (result) && !allow_recording)
    {
      fprintf (stderr, _("brightlens-cli: %s is a recording; give one of its files "
                         "(profile.bsprof, session.json or trace.perfetto-trace).\n"), path);
      g_object_unref (result);
      *exit_status = BL_CLI_INVALID_INPUT;
      return NULL;
    }

  *exit_status = BL_CLI_OK;

  return result;
}

GObject *
bl_cli_load (const char *path,
             int        *exit_status)
{
  return load (path, exit_status, FALSE);
}

/* bl_cli_load(), and a recording's folder or manifest gives a BlRecording. */
GObject *
bl_cli_load_any (const char *path,
                 int        *exit_status)
{
  return load (path, exit_status, TRUE);
}

/* An output file being written: a temporary file in the destination's
 * folder that replaces the destination only once it is complete. */
typedef struct
{
  int       fd;
  char     *target;     /* the file to replace (links resolved) */
  char     *temp;       /* the temporary file's name; NULL while it has none (O_TMPFILE) */
  gboolean  done;
} Pending;

static void
pending_free (gpointer data)
{
  Pending *pending = data;

  /* a failed or abandoned export leaves the destination as it was */
  if (!pending->done && pending->temp != NULL)
    g_unlink (pending->temp);
  if (pending->fd >= 0)
    close (pending->fd);
  g_free (pending->target);
  g_free (pending->temp);
  g_free (pending);
}

static void set_errno_error (GError     **error,
                             int          saved_errno,
                             const char  *format,
                             ...) G_GNUC_PRINTF (3, 4);

/* "WHAT: REASON." with WHAT from @format */
static void
set_errno_error (GError     **error,
                 int          saved_errno,
                 const char  *format,
                 ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s: %s.",
               what, g_strerror (saved_errno));
}

/* Follows @path's symbolic links (also dangling ones: a link to a file
 * not yet written is written through) to the file they name. */
static char *
resolve_links (const char  *path,
               GError     **error)
{
  g_autofree char *current = g_canonicalize_filename (path, NULL);

  for (guint hops = 0; hops < 40; hops++)
    {
      g_autofree char *dir = NULL;
      g_autofree char *target = NULL;
      GError *link_error = NULL;
      struct stat st;

      if (g_lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&current);

      if (!(target = g_file_read_link (current, &link_error)))
        {
          g_propagate_error (error, link_error);
          return NULL;
        }
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_canonicalize_filename (target, dir);
    }

  set_errno_error (error, ELOOP, _("Cannot follow the links of %s"), path);

  return NULL;
}

/* A unique hidden name beside @target: ".NAME.XXXXXX". */
static char *
temp_name_for (const char *target)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);

  return g_strdup_printf ("%s/.%s.%06X", dir, base, g_random_int_range (0, 0x1000000));
}

static int
open_temp (const char  *target,
           char       **temp,
           GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *template = NULL;
  int fd;

#ifdef O_TMPFILE
  /* an unnamed file vanishes by itself if we are killed before the end */
  fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd >= 0)
    {
      *temp = NULL;
      return fd;
    }
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT)
    {
      set_errno_error (error, errno, _("Cannot write in %s"), dir);
      return -1;
    }
#endif

  template = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  fd = g_mkstemp_full (template, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      set_errno_error (error, errno, _("Cannot write in %s"), dir);
      return -1;
    }
  /* mkstemp makes the file 0600; give it what a new file would get */
  {
    mode_t mask = umask (0);

    umask (mask);
    fchmod (fd, 0666 & ~mask);
  }
  *temp = g_steal_pointer (&template);

  return fd;
}

/* Writing a big export into the page cache takes the kernel about as long
 * as making it: a thread of its own writes while the command goes on. */
static GOutputStream *
write_behind (GOutputStream *fd_stream)
{
  GOutputStream *out = bl_write_behind_new (fd_stream, TRUE);

  g_object_unref (fd_stream);

  return out;
}

/**
 * bl_cli_open_output:
 * @path: (nullable): a file to write, or %NULL or "-" for standard output
 *
 * Regular files are written to a temporary file in the same folder, which
 * bl_cli_close_output() renames over the destination: a failed or killed
 * export leaves the destination as it was. Symbolic links are written
 * through to the file they name; character devices (/dev/null,
 * /dev/stdout), pipes and FIFOs are written directly. A destination that is
 * one of the inputs is refused.
 */
GOutputStream *
bl_cli_open_output (const char  *path,
                    GError     **error)
{
  g_autofree char *target = NULL;
  g_autofree char *temp = NULL;
  GOutputStream *out;
  Pending *pending;
  struct stat st;
  gboolean exists;
  int fd;

  if (path == NULL || g_strcmp0 (path, "-") == 0)
    return write_behind (g_unix_output_stream_new (STDOUT_FILENO, FALSE));

  /* the kernel follows the links (also /dev/stdout's /proc ones) */
  exists = g_stat (path, &st) == 0;
  if (exists && find_input (&st) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("The output %s is the input %s; Brightlens never writes over its "
                     "input."), path, find_input (&st)->path);
      return NULL;
    }

  if (exists && S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   _("The output %s is a folder."), path);
      return NULL;
    }

  if (exists && !S_ISREG (st.st_mode))
    {
      /* a device, pipe or socket: nothing to replace */
      fd = g_open (path, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0);
      if (fd < 0)
        {
          set_errno_error (error, errno, _("Cannot write to %s"), path);
          return NULL;
        }
      return write_behind (g_unix_output_stream_new (fd, TRUE));
    }

  /* a regular file, or none yet: replace the file the links lead to */
  if (!(target = resolve_links (path, error)))
    return NULL;
  if ((fd = open_temp (target, &temp, error)) < 0)
    return NULL;
  if (exists)
    fchmod (fd, st.st_mode & 07777);

  pending = g_new0 (Pending, 1);
  pending->fd = fd;
  pending->target = g_steal_pointer (&target);
  pending->temp = g_steal_pointer (&temp);

  out = write_behind (g_unix_output_stream_new (fd, FALSE));
  /* bl_cli_close_output() syncs it */
  bl_write_behind_start_writeback (BL_WRITE_BEHIND (out), fd);
  g_object_set_data_full (G_OBJECT (out), "bl-cli-pending", pending, pending_free);

  return out;
}

/**
 * bl_cli_close_output:
 *
 * Finishes an output: for a file, flushes it to disk and puts it in the
 * destination's place. On failure the destination is left as it was.
 */
gboolean
bl_cli_close_output (GOutputStream  *out,
                     GError        **error)
{
  Pending *pending = g_object_get_data (G_OBJECT (out), "bl-cli-pending");

  if (!g_output_stream_close (out, NULL, error))
    return FALSE;
  if (pending == NULL)
    return TRUE;

  if (fsync (pending->fd) != 0)
    {
      set_errno_error (error, errno, _("Cannot write %s"), pending->target);
      return FALSE;
    }

  if (pending->temp == NULL)
    {
      g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", pending->fd);

      /* give the unnamed file a hidden name, then move it into place */
      for (guint tries = 0; pending->temp == NULL; tries++)
        {
          g_autofree char *name = temp_name_for (pending->target);

          if (linkat (AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
            pending->temp = g_steal_pointer (&name);
          else if (errno != EEXIST || tries > 100)
            {
              set_errno_error (error, errno, _("Cannot write %s"), pending->target);
              return FALSE;
            }
        }
    }

  if (g_rename (pending->temp, pending->target) != 0)
    {
      set_errno_error (error, errno, _("Cannot write %s"), pending->target);
      return FALSE;
    }
  pending->done = TRUE;

  return TRUE;
}

/* -o on the commands that print with printf: standard output itself goes
 * to the output file, which is put in place by bl_cli_finish_stdout(). */
static GOutputStream *redirected;

gboolean
bl_cli_redirect_stdout (const char  *path,
                        GError     **error)
{
  Pending *pending;
  int fd;

  if (path == NULL || g_str_equal (path, "-"))
    return TRUE;

  g_assert (redirected == NULL);
  if (!(redirected = bl_cli_open_output (path, error)))
    return FALSE;

  pending = g_object_get_data (G_OBJECT (redirected), "bl-cli-pending");
  fd = pending != NULL ? pending->fd
                       : g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (
                           bl_write_behind_get_base (BL_WRITE_BEHIND (redirected))));
  fflush (stdout);
  if (dup2 (fd, STDOUT_FILENO) < 0)
    {
      set_errno_error (error, errno, _("Cannot write to %s"), path);
      g_clear_object (&redirected);
      return FALSE;
    }

  return TRUE;
}

/**
 * bl_cli_finish_stdout:
 * @status: the command's exit status so far
 *
 * Flushes standard output and, after -o, puts the output file in place
 * when the command printed its result (@status is %BL_CLI_OK or
 * %BL_CLI_CHECK_FAILED); otherwise the destination is left as it was.
 *
 * Returns: @status, or %BL_CLI_INVALID_INPUT if the output cannot be written
 */
int
bl_cli_finish_stdout (int status)
{
  g_autoptr(GOutputStream) out = g_steal_pointer (&redirected);
  g_autoptr(GError) error = NULL;

  if (fflush (stdout) != 0 || ferror (stdout))
    {
      fprintf (stderr, _("brightlens-cli: cannot write the output: %s.\n"), g_strerror (errno));
      return BL_CLI_INVALID_INPUT;
    }

  if (out == NULL || (status != BL_CLI_OK && status != BL_CLI_CHECK_FAILED))
    return status;

  if (!bl_cli_close_output (out, &error))
    {
      fprintf (stderr, "brightlens-cli: %s\n", error->message);
      return BL_CLI_INVALID_INPUT;
    }

  return status;
}

void
bl_cli_print_json (JsonNode *node)
{
  g_autofree char *text = bl_json_to_text (node, NULL);

  printf ("%s\n", text);
}

/**
 * bl_cli_parse_metric:
 * @name: (nullable): a metric name from the command line
 *
 * Returns: the metric, the profile's default when @name is %NULL, or
 *   %BL_METRIC_INVALID with @exit_status set to %BL_CLI_USAGE
 */
BlMetricId
bl_cli_parse_metric (const char *name,
                     BlProfile  *profile,
                     int        *exit_status)
{
  BlMetricId metric;

  *exit_status = BL_CLI_OK;

  if (name == NULL)
    return bl_profile_get_default_metric (profile);

  metric = bl_metric_from_name (name);
  if (metric == BL_METRIC_INVALID)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint m = 0; m < BL_N_METRICS; m++)
        g_string_append_printf (names, "%s%s", m ? ", " : "", bl_metric_get_name (m));
      fprintf (stderr, _("brightlens-cli: unknown metric “%s”; the metrics are %s.\n"),
               name, names->str);
      *exit_status = BL_CLI_USAGE;
    }

  return metric;
}
