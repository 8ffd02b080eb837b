/* test-cli-io.c — brightlens-cli's input and output plumbing: standard
 * input and pipes, compressed input, recognition past the first 4 KB, the
 * readers' own messages, and outputs that never damage a destination or an
 * input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <lzma.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "bl-bsprof-writer.h"
#include "bl-cli-run.h"
#include "bl-rrm-writer.h"

static char *tmpdir;

/* ---- fixtures ------------------------------------------------------------ */

static GBytes *
make_bsprof (void)
{
  BlBsprofHeader h;
  BlBsprofWriter *w;
  GBytes *bytes;

  bl_bsprof_header_init (&h);
  h.memory = TRUE;
  h.lines = TRUE;
  h.target = "IO App";
  h.start_ms = 1700000000000;
  w = bl_bsprof_writer_new (&h);
  bl_bsprof_writer_string (w, 1, "Thread main");
  bl_bsprof_writer_string (w, 2, "pkg:/source/main.brs");
  bl_bsprof_writer_string (w, 3, "main");
  bl_bsprof_writer_string (w, 4, "draw");
  bl_bsprof_writer_module (w, 1, 1);
  bl_bsprof_writer_root (w, 1, 1, 2, 1, 3);
  bl_bsprof_writer_path (w, 2, 1, 2, 2, 10, 4);
  /* 400 more functions, so that exports run to tens of kilobytes */
  for (guint i = 0; i < 400; i++)
    {
      g_autofree char *name = g_strdup_printf ("someRatherLongFunctionName%04u", i);

      bl_bsprof_writer_string (w, 10 + i, name);
      bl_bsprof_writer_path (w, 10 + i, 1, 1, 2, 20 + i, 10 + i);
      bl_bsprof_writer_cpu (w, 10 + i, 1, 1 + i, 2 + i);
    }
  /* enough entries that compressed input spans several reads */
  for (guint i = 0; i < 20000; i++)
    bl_bsprof_writer_cpu (w, 1 + i % 2, 1 + i % 7, 10 + i % 13, 11 + i % 17);
  bl_bsprof_writer_calls (w, 2, 4);
  bl_bsprof_writer_alloc (w, 2, 1, 100, 1000);
  bl_bsprof_writer_end (w, 1700000060000);
  bytes = bl_bsprof_writer_finish (w);
  bl_bsprof_writer_free (w);

  return bytes;
}

static char *
write_file (const char *name,
            const void *data,
            gsize       len)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);

  return path;
}

static char *
write_bytes (const char *name,
             GBytes     *bytes)
{
  return write_file (name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static char *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static GBytes *
compress_gzip (GBytes *bytes)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                             NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (out, NULL, &error);
  g_assert_no_error (error);

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

static GBytes *
compress_zstd (GBytes *bytes)
{
  gsize bound = ZSTD_compressBound (g_bytes_get_size (bytes));
  guint8 *out = g_malloc (bound);
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  size_t n;

  /* with a checksum, as the zstd tool writes by default */
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_checksumFlag, 1);
  n = ZSTD_compress2 (cctx, out, bound, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  ZSTD_freeCCtx (cctx);
  g_assert_false (ZSTD_isError (n));

  return g_bytes_new_take (out, n);
}

static GBytes *
compress_xz (GBytes *bytes)
{
  gsize bound = lzma_stream_buffer_bound (g_bytes_get_size (bytes));
  guint8 *out = g_malloc (bound);
  size_t n = 0;

  g_assert_cmpint (lzma_easy_buffer_encode (6, LZMA_CHECK_CRC64, NULL,
                                            g_bytes_get_data (bytes, NULL),
                                            g_bytes_get_size (bytes), out, &n, bound),
                   ==, LZMA_OK);

  return g_bytes_new_take (out, n);
}

/* Runs `sh -c SCRIPT` with $CLI set to the brightlens-cli under test. */
static void
run_shell (BlCliRun   *run,
           const char *script)
{
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "CLI", BRIGHTLENS_CLI, TRUE);
  g_autoptr(GError) error = NULL;
  int wait_status;

  g_spawn_sync (tmpdir, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                &run->out, &run->err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  run->status = WEXITSTATUS (wait_status);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
    n++;

  return n;
}

/* ---- standard input and pipes -------------------------------------------- */

static void
test_stdin (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *path = write_bytes ("stdin.bsprof", bytes);
  g_autofree char *folded = write_file ("stdin.folded", "main;load;parse 42\nmain;draw 7\n", 31);
  g_auto(BlCliRun) plain = { 0 }, piped = { 0 }, redirected = { 0 }, text = { 0 };
  g_auto(BlCliRun) twice = { 0 }, info = { 0 };

  bl_cli_run (&plain, "export", path, "--format", "folded", "--metric", "cpu", NULL);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_cmpuint (count_lines (plain.out), >, 1);

  /* a pipe is not seekable: today's "Illegal seek" must not come back */
  run_shell (&piped, "cat stdin.bsprof | \"$CLI\" export - --format folded --metric cpu");
  g_assert_cmpstr (piped.err, ==, "");
  g_assert_cmpint (piped.status, ==, 0);
  g_assert_cmpstr (piped.out, ==, plain.out);

  run_shell (&redirected, "\"$CLI\" export - --format folded --metric cpu < stdin.bsprof");
  g_assert_cmpint (redirected.status, ==, 0);
  g_assert_cmpstr (redirected.out, ==, plain.out);

  run_shell (&text, "cat stdin.folded | \"$CLI\" export - --format folded");
  g_assert_cmpint (text.status, ==, 0);
  g_assert_cmpstr (text.out, ==, "main;draw 7\nmain;load;parse 42\n");

  run_shell (&info, "cat stdin.bsprof | \"$CLI\" info - --json");
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "\"IO App\""));

  /* standard input can be read once only */
  run_shell (&twice, "cat stdin.bsprof | \"$CLI\" diff - -");
  g_assert_cmpint (twice.status, ==, 2);
  g_assert_nonnull (strstr (twice.err, "only once"));
}

/* ---- compressed input ---------------------------------------------------- */

typedef GBytes *(*CompressFunc) (GBytes *bytes);

static const struct
{
  const char   *name;
  CompressFunc  compress;
} compressions[] = {
  { "gzip", compress_gzip },
  { "zstd", compress_zstd },
  { "xz", compress_xz },
};

static void
test_compressed (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *path = write_bytes ("plain.bsprof", bytes);
  g_auto(BlCliRun) plain = { 0 };
  const char *folded_text = "main;load;parse 42\nmain;draw 7\n";
  g_autoptr(GBytes) folded = g_bytes_new_static (folded_text, strlen (folded_text));

  bl_cli_run (&plain, "export", path, "--format", "folded", "--metric", "cpu", NULL);
  g_assert_cmpint (plain.status, ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (compressions); i++)
    {
      g_autoptr(GBytes) packed = compressions[i].compress (bytes);
      g_autoptr(GBytes) packed_folded = compressions[i].compress (folded);
      /* no telling extension: recognised by content */
      g_autofree char *name = g_strdup_printf ("packed-%s.data", compressions[i].name);
      g_autofree char *cpath = write_bytes (name, packed);
      g_autofree char *fpath = write_bytes ("packed.txt", packed_folded);
      g_autofree char *script = g_strdup_printf ("cat %s | \"$CLI\" export - --format folded "
                                                 "--metric cpu", name);
      g_auto(BlCliRun) file = { 0 }, piped = { 0 }, text = { 0 };

      g_assert_cmpuint (g_bytes_get_size (packed), <, g_bytes_get_size (bytes) / 2);

      bl_cli_run (&file, "export", cpath, "--format", "folded", "--metric", "cpu", NULL);
      g_assert_cmpstr (file.err, ==, "");
      g_assert_cmpint (file.status, ==, 0);
      g_assert_cmpstr (file.out, ==, plain.out);

      run_shell (&piped, script);
      g_assert_cmpint (piped.status, ==, 0);
      g_assert_cmpstr (piped.out, ==, plain.out);

      bl_cli_run (&text, "export", fpath, "--format", "folded", NULL);
      g_assert_cmpint (text.status, ==, 0);
      g_assert_cmpstr (text.out, ==, "main;draw 7\nmain;load;parse 42\n");

      /* concatenated members, frames or streams (`cat a.gz b.gz`, pigz), and
       * zero padding after them, read as their tools read them */
      {
        g_autoptr(GBytes) first = g_bytes_new_static ("main;a 1\n", 9);
        g_autoptr(GBytes) second = g_bytes_new_static ("main;b 2\n", 9);
        g_autoptr(GBytes) packed_first = compressions[i].compress (first);
        g_autoptr(GBytes) packed_second = compressions[i].compress (second);
        g_autoptr(GByteArray) both = g_byte_array_new ();
        g_autofree char *both_path = NULL;
        g_auto(BlCliRun) joined = { 0 };

        g_byte_array_append (both, g_bytes_get_data (packed_first, NULL),
                             g_bytes_get_size (packed_first));
        g_byte_array_append (both, g_bytes_get_data (packed_second, NULL),
                             g_bytes_get_size (packed_second));
        if (g_str_equal (compressions[i].name, "gzip"))
          {
            static const guint8 zeros[512] = { 0 };

            g_byte_array_append (both, zeros, sizeof zeros);
          }
        both_path = write_file ("joined.bin", both->data, both->len);
        bl_cli_run (&joined, "export", both_path, "--format", "folded", NULL);
        g_assert_cmpstr (joined.err, ==, "");
        g_assert_cmpint (joined.status, ==, 0);
        g_assert_cmpstr (joined.out, ==, "main;a 1\nmain;b 2\n");
      }
    }
}

/* speedscope names an unnamed profile after the file: the compressed
 * file's name less its suffix */
static void
test_compressed_name (void)
{
  g_autofree char *source = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data-files",
                                              "speedscope",
                                              "edge-duplicate-names.speedscope.json", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autofree char *path = NULL;
  g_auto(BlCliRun) run = { 0 };
  gsize len;

  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  bytes = g_bytes_new (contents, len);
  packed = compress_xz (bytes);
  path = write_bytes ("unnamed.speedscope.json.xz", packed);
  bl_cli_run (&run, "export", path, "--format", "folded", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "unnamed.speedscope.json;main;"));
}

static void
test_compressed_damaged (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();

  for (guint i = 0; i < G_N_ELEMENTS (compressions); i++)
    {
      g_autoptr(GBytes) packed = compressions[i].compress (bytes);
      gsize len = g_bytes_get_size (packed);
      g_autofree guint8 *flipped = g_memdup2 (g_bytes_get_data (packed, NULL), len);
      g_autofree char *bad_path = NULL;
      g_autofree char *cut_path = NULL;
      g_auto(BlCliRun) bad = { 0 }, cut = { 0 };

      flipped[len / 2] ^= 0x5A;
      flipped[len / 2 + 1] ^= 0xA5;
      bad_path = write_file ("bad.bin", flipped, len);
      cut_path = write_file ("cut.bin", g_bytes_get_data (packed, NULL), len * 2 / 3);

      bl_cli_run (&bad, "info", bad_path, NULL);
      g_assert_cmpint (bad.status, ==, 1);
      g_assert_cmpstr (bad.out, ==, "");
      g_assert_nonnull (strstr (bad.err, compressions[i].name));
      g_assert_cmpuint (count_lines (bad.err), ==, 1);

      /* cut short: what arrived is shown, as for an uncompressed file cut
       * short, with a warning naming the compression; when no complete
       * block arrived (zstd and xz decode whole blocks), one sentence */
      bl_cli_run (&cut, "info", cut_path, NULL);
      g_assert_nonnull (strstr (cut.err, compressions[i].name));
      g_assert_nonnull (strstr (cut.err, "cut short"));
      if (cut.status == 0)
        g_assert_nonnull (strstr (cut.out, "Incomplete:"));
      else
        {
          g_assert_cmpint (cut.status, ==, 1);
          g_assert_cmpuint (count_lines (cut.err), ==, 1);
        }
      if (g_str_equal (compressions[i].name, "gzip"))
        g_assert_cmpint (cut.status, ==, 0);
    }
}

/* ---- recognition past the first 4 KB ------------------------------------- */

static void
test_recognition_long (void)
{
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) speedscope = g_string_new (NULL);
  g_autoptr(GString) session = g_string_new (NULL);
  g_autoptr(GBytes) rrm = NULL;
  g_autofree char *folded_path = NULL;
  g_autofree char *speedscope_path = NULL;
  g_autofree char *session_path = NULL;
  g_autofree char *expected = NULL;
  BlRrmWriterOptions o;
  g_auto(BlCliRun) folded = { 0 }, folded_pipe = { 0 }, ss = { 0 }, ss_pipe = { 0 };
  g_auto(BlCliRun) rrm_run = { 0 }, rrm_pipe = { 0 };

  /* a stack 30 KB deep on the first line */
  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (line, "%sframe%05u", i ? ";" : "", i);
  expected = g_strdup_printf ("%s 5\nmain;x 3\n", line->str);
  folded_path = write_file ("deep.folded", expected, strlen (expected));
  bl_cli_run (&folded, "export", folded_path, "--format", "folded", NULL);
  g_assert_cmpint (folded.status, ==, 0);
  g_assert_cmpstr (folded.out, ==, expected);
  run_shell (&folded_pipe, "cat deep.folded | \"$CLI\" export - --format folded");
  g_assert_cmpint (folded_pipe.status, ==, 0);
  g_assert_cmpstr (folded_pipe.out, ==, expected);

  /* speedscope with "$schema" after a 40 KB "shared" */
  g_string_append (speedscope, "{\"shared\": {\"frames\": [{\"name\": \"a\"}, {\"name\": \"b\"}");
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (speedscope, ", {\"name\": \"pad%u\"}", i);
  g_string_append (speedscope,
                   "]}, \"profiles\": [{\"type\": \"sampled\", \"name\": \"p\", "
                   "\"unit\": \"none\", \"startValue\": 0, \"endValue\": 3, \"samples\": [[0, 1], [0]], "
                   "\"weights\": [2, 1]}], "
                   "\"$schema\": \"https://www.speedscope.app/file-format-schema.json\"}");
  speedscope_path = write_file ("late-schema.json", speedscope->str, speedscope->len);
  bl_cli_run (&ss, "export", speedscope_path, "--format", "folded", NULL);
  g_assert_cmpstr (ss.err, ==, "");
  g_assert_cmpint (ss.status, ==, 0);
  g_assert_nonnull (strstr (ss.out, "a;b 2\n"));
  run_shell (&ss_pipe, "cat late-schema.json | \"$CLI\" export - --format folded");
  g_assert_cmpint (ss_pipe.status, ==, 0);
  g_assert_cmpstr (ss_pipe.out, ==, ss.out);

  /* the same with a 2 MB "shared": past the sniffer's buffer, a file is
   * looked at by streaming and read again; a pipe is buffered */
  {
    g_autoptr(GString) big = g_string_new (NULL);
    g_autoptr(GBytes) big_bytes = NULL;
    g_autoptr(GBytes) big_packed = NULL;
    g_autofree char *big_path = NULL;
    g_autofree char *packed_path = NULL;
    g_autofree char *cut_path = NULL;
    g_auto(BlCliRun) big_run = { 0 }, big_pipe = { 0 }, big_gz = { 0 }, big_cut = { 0 };
    g_auto(BlCliRun) big_bad = { 0 };

    g_string_append (big, "{\"shared\": {\"frames\": [{\"name\": \"a\"}, {\"name\": \"b\"}");
    for (guint i = 0; i < 100000; i++)
      g_string_append_printf (big, ", {\"name\": \"pad%u\"}", i);
    g_string_append (big, strstr (speedscope->str, "]}, \"profiles\""));
    g_assert_cmpuint (big->len, >, 2 * 1024 * 1024);
    big_path = write_file ("late-schema-big.json", big->str, big->len);
    big_bytes = g_bytes_new (big->str, big->len);
    big_packed = compress_gzip (big_bytes);
    packed_path = write_bytes ("late-schema-big.json.gz", big_packed);

    bl_cli_run (&big_run, "export", big_path, "--format", "folded", NULL);
    g_assert_cmpstr (big_run.err, ==, "");
    g_assert_cmpint (big_run.status, ==, 0);
    g_assert_cmpstr (big_run.out, ==, ss.out);
    bl_cli_run (&big_gz, "export", packed_path, "--format", "folded", NULL);
    g_assert_cmpint (big_gz.status, ==, 0);
    g_assert_cmpstr (big_gz.out, ==, ss.out);
    run_shell (&big_pipe, "cat late-schema-big.json | \"$CLI\" export - --format folded");
    g_assert_cmpint (big_pipe.status, ==, 0);
    g_assert_cmpstr (big_pipe.out, ==, ss.out);

    /* cut before "$schema": the JSON parser says where it ends */
    cut_path = write_file ("late-schema-cut.json", big->str, 1536 * 1024);
    bl_cli_run (&big_cut, "info", cut_path, NULL);
    g_assert_cmpint (big_cut.status, ==, 1);
    g_assert_nonnull (strstr (big_cut.err, "The JSON ends early at line 1"));
    /* invalid far in: its place is named */
    big->str[1536 * 1024] = '}';
    g_free (cut_path);
    cut_path = write_file ("late-schema-bad.json", big->str, big->len);
    bl_cli_run (&big_bad, "info", cut_path, NULL);
    g_assert_cmpint (big_bad.status, ==, 1);
    g_assert_nonnull (strstr (big_bad.err, "Invalid JSON at line 1"));
  }

  /* a session with a 100 KB member before "device" */
  bl_rrm_writer_options_init (&o);
  o.n_samples = 10;
  rrm = bl_rrm_write (&o);
  g_string_append (session, "{\"notes\": \"");
  for (guint i = 0; i < 100 * 1024; i++)
    g_string_append_c (session, 'n');
  g_string_append (session, "\", ");
  g_string_append_len (session, (const char *) g_bytes_get_data (rrm, NULL) + 1,
                       g_bytes_get_size (rrm) - 1);
  g_assert_cmpint (((const char *) g_bytes_get_data (rrm, NULL))[0], ==, '{');
  session_path = write_file ("late-device.json", session->str, session->len);
  bl_cli_run (&rrm_run, "info", session_path, NULL);
  g_assert_cmpint (rrm_run.status, ==, 0);
  g_assert_nonnull (strstr (rrm_run.out, "Roku Resource Monitor session"));
  run_shell (&rrm_pipe, "cat late-device.json | \"$CLI\" info -");
  g_assert_cmpint (rrm_pipe.status, ==, 0);
  g_assert_cmpstr (rrm_pipe.out, ==, rrm_run.out);
}

/* ---- the readers' own messages ------------------------------------------- */

static void
test_precise_messages (void)
{
  static const struct
  {
    const char *name;
    const char *content;
    gsize       len;
    const char *expected;
  } cases[] = {
    { "utf8.json", "{\"a\": \"\xff\", \"device\": {}}", 26, "not valid UTF-8" },
    { "utf16.json", "\xff\xfe{\0\"\0a\0\"\0:\0 \0""1\0}\0", 20, "UTF-16" },
    { "utf16-nobom.json", "{\0}\0", 4, "UTF-16" },
    { "syntax.json", "{\"device\": }", 12, "Invalid JSON at line 1" },
    { "count.folded", "main;a 99999999999999999999999\n", 31, "64 bits" },
  };
  g_autoptr(GString) deep = g_string_new ("{\"x\": ");
  g_autofree char *deep_path = NULL;
  g_auto(BlCliRun) deep_run = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_file (cases[i].name, cases[i].content, cases[i].len);
      g_autofree char *script = g_strdup_printf ("cat %s | \"$CLI\" info -", cases[i].name);
      g_auto(BlCliRun) run = { 0 }, piped = { 0 };

      bl_cli_run (&run, "info", path, NULL);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_cmpuint (count_lines (run.err), ==, 1);
      if (strstr (run.err, cases[i].expected) == NULL)
        g_error ("%s: expected “%s” in: %s", cases[i].name, cases[i].expected, run.err);
      g_assert_null (strstr (run.err, "not a Roku Resource Monitor"));
      g_assert_null (strstr (run.err, "binary file"));

      run_shell (&piped, script);
      g_assert_cmpint (piped.status, ==, 1);
      g_assert_nonnull (strstr (piped.err, cases[i].expected));
      g_assert_null (strstr (piped.err, "seek"));
    }

  for (guint i = 0; i < 200; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 200; i++)
    g_string_append_c (deep, ']');
  g_string_append_c (deep, '}');
  deep_path = write_file ("deep.json", deep->str, deep->len);
  bl_cli_run (&deep_run, "info", deep_path, NULL);
  g_assert_cmpint (deep_run.status, ==, 1);
  g_assert_nonnull (strstr (deep_run.err, "deeper than 128"));
}

/* ---- outputs ------------------------------------------------------------- */

static guint
count_dir_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;

  return n;
}

static void
test_output_atomic (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *dir = g_build_filename (tmpdir, "atomic", NULL);
  g_autofree char *input = NULL;
  g_autofree char *existing = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *script = NULL;
  g_autofree char *after = NULL;
  g_auto(BlCliRun) full = { 0 }, full_new = { 0 }, ok = { 0 }, killed = { 0 };
  struct stat st;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  input = write_bytes ("atomic.bsprof", bytes);
  existing = g_build_filename (dir, "out.json", NULL);
  fresh = g_build_filename (dir, "new.json", NULL);
  g_assert_true (g_file_set_contents (existing, "previous export\n", -1, NULL));
  g_assert_cmpint (g_chmod (existing, 0640), ==, 0);

  /* the file system refuses more than 1 KiB: the write fails midway */
  script = g_strdup_printf ("trap '' XFSZ; ulimit -f 1; "
                            "exec \"$CLI\" export atomic.bsprof --format speedscope -o %s",
                            existing);
  run_shell (&full, script);
  g_assert_cmpint (full.status, ==, 1);
  g_assert_cmpuint (count_lines (full.err), ==, 1);
  after = read_file (existing);
  g_assert_cmpstr (after, ==, "previous export\n");
  g_free (script);

  script = g_strdup_printf ("trap '' XFSZ; ulimit -f 1; "
                            "exec \"$CLI\" export atomic.bsprof --format speedscope -o %s", fresh);
  run_shell (&full_new, script);
  g_assert_cmpint (full_new.status, ==, 1);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  /* no temporary file is left behind */
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);

  /* killed midway (SIGXFSZ's default action ends the process, as a
   * SIGKILL would): the destination is as it was, nothing is left behind */
  g_free (script);
  script = g_strdup_printf ("ulimit -f 1; "
                            "\"$CLI\" export atomic.bsprof --format speedscope -o %s; "
                            "echo status=$?", existing);
  run_shell (&killed, script);
  g_assert_cmpstr (killed.out, ==, "status=153\n");   /* 128 + SIGXFSZ */
  g_free (after);
  after = read_file (existing);
  g_assert_cmpstr (after, ==, "previous export\n");
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);

  /* a successful export replaces the file and keeps its permissions */
  bl_cli_run (&ok, "export", input, "--format", "speedscope", "-o", existing, NULL);
  g_assert_cmpint (ok.status, ==, 0);
  g_free (after);
  after = read_file (existing);
  g_assert_true (g_str_has_prefix (after, "{"));
  g_assert_cmpint (g_stat (existing, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);
}

static void
test_output_targets (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *input = write_bytes ("targets.bsprof", bytes);
  g_autofree char *real = g_build_filename (tmpdir, "real.folded", NULL);
  g_autofree char *link_path = g_build_filename (tmpdir, "link.folded", NULL);
  g_autofree char *dangling = g_build_filename (tmpdir, "dangling.folded", NULL);
  g_autofree char *later = g_build_filename (tmpdir, "later.folded", NULL);
  g_autofree char *input_link = g_build_filename (tmpdir, "input-link.bsprof", NULL);
  g_autofree char *hard = g_build_filename (tmpdir, "hard.bsprof", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *before = read_file (input);
  g_auto(BlCliRun) via_link = { 0 }, via_dangling = { 0 }, devnull = { 0 }, self = { 0 };
  g_auto(BlCliRun) self_link = { 0 }, self_hard = { 0 }, pipe_out = { 0 }, stdout_dev = { 0 };
  struct stat st;

  g_assert_true (g_file_set_contents (real, "old\n", -1, NULL));
  g_assert_cmpint (symlink ("real.folded", link_path), ==, 0);
  g_assert_cmpint (symlink ("later.folded", dangling), ==, 0);

  /* a link stays a link; its target gets the output */
  bl_cli_run (&via_link, "export", input, "--format", "folded", "-o", link_path, NULL);
  g_assert_cmpint (via_link.status, ==, 0);
  g_assert_cmpint (g_lstat (link_path, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  contents = read_file (real);
  g_assert_true (g_str_has_prefix (contents, "Thread main;main "));

  bl_cli_run (&via_dangling, "export", input, "--format", "folded", "-o", dangling, NULL);
  g_assert_cmpint (via_dangling.status, ==, 0);
  g_assert_cmpint (g_lstat (dangling, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_true (g_file_test (later, G_FILE_TEST_IS_REGULAR));

  /* character devices are written directly */
  bl_cli_run (&devnull, "export", input, "--format", "folded", "-o", "/dev/null", NULL);
  g_assert_cmpstr (devnull.err, ==, "");
  g_assert_cmpint (devnull.status, ==, 0);
  run_shell (&stdout_dev, "\"$CLI\" export targets.bsprof --format folded -o /dev/stdout | wc -l");
  g_assert_cmpint (stdout_dev.status, ==, 0);
  g_assert_cmpint (atoi (stdout_dev.out), >, 0);
  run_shell (&pipe_out, "mkfifo fifo && { cat fifo > from-fifo & "
                        "\"$CLI\" export targets.bsprof --format folded -o fifo; wait; }");
  g_assert_cmpint (pipe_out.status, ==, 0);
  g_free (contents);
  contents = read_file (real);
  {
    g_autofree char *from_fifo_path = g_build_filename (tmpdir, "from-fifo", NULL);
    g_autofree char *from_fifo = read_file (from_fifo_path);

    g_assert_cmpstr (from_fifo, ==, contents);
  }

  /* never over an input, by name, link or hard link */
  g_assert_cmpint (symlink ("targets.bsprof", input_link), ==, 0);
  g_assert_cmpint (link (input, hard), ==, 0);
  bl_cli_run (&self, "export", input, "--format", "folded", "-o", input, NULL);
  bl_cli_run (&self_link, "export", input, "--format", "folded", "-o", input_link, NULL);
  bl_cli_run (&self_hard, "export", input, "--format", "speedscope", "-o", hard, NULL);
  g_assert_cmpint (self.status, ==, 1);
  g_assert_cmpint (self_link.status, ==, 1);
  g_assert_cmpint (self_hard.status, ==, 1);
  g_assert_nonnull (strstr (self.err, "never writes over its input"));
  g_assert_cmpuint (count_lines (self_hard.err), ==, 1);
  g_free (contents);
  contents = read_file (input);
  g_assert_cmpmem (contents, g_bytes_get_size (bytes), before, g_bytes_get_size (bytes));
  g_assert_cmpint (g_lstat (input_link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
}

static void
test_output_every_command (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *input = write_bytes ("every.bsprof", bytes);
  g_autofree char *info_out = g_build_filename (tmpdir, "info.txt", NULL);
  g_autofree char *lines_out = g_build_filename (tmpdir, "lines.txt", NULL);
  g_autofree char *check_out = g_build_filename (tmpdir, "check.txt", NULL);
  g_autofree char *session = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *lines_contents = NULL;
  g_autofree char *check_contents = NULL;
  g_auto(BlCliRun) info = { 0 }, info_plain = { 0 }, lines = { 0 }, lines_plain = { 0 };
  g_auto(BlCliRun) check = { 0 }, usage = { 0 };
  BlRrmWriterOptions o;
  g_autoptr(GBytes) rrm = NULL;

  bl_cli_run (&info_plain, "info", input, "--json", NULL);
  bl_cli_run (&info, "info", input, "--json", "-o", info_out, NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_cmpstr (info.out, ==, "");
  contents = read_file (info_out);
  g_assert_cmpstr (contents, ==, info_plain.out);

  bl_cli_run (&lines_plain, "lines", input, NULL);
  bl_cli_run (&lines, "lines", input, "--output", lines_out, NULL);
  g_assert_cmpint (lines.status, ==, 0);
  g_assert_cmpstr (lines.out, ==, "");
  lines_contents = read_file (lines_out);
  g_assert_cmpstr (lines_contents, ==, lines_plain.out);

  /* a failing rule: exit 3, and the report is still written */
  bl_rrm_writer_options_init (&o);
  o.n_samples = 20;
  rrm = bl_rrm_write (&o);
  session = write_bytes ("every.json", rrm);
  bl_cli_run (&check, "check", session, "--max-launch-ms", "1", "-o", check_out, NULL);
  g_assert_cmpint (check.status, ==, 3);
  check_contents = read_file (check_out);
  g_assert_nonnull (strstr (check_contents, "FAIL: 1 of 1 rules failed\n"));

  /* sessions report in JSON and JUnit too */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;
    g_auto(BlCliRun) json = { 0 }, junit = { 0 };
    JsonObject *root;

    bl_cli_run (&json, "check", session, "--max-launch-ms", "1", "--min-fps", "1", "--format",
                "json", NULL);
    g_assert_cmpint (json.status, ==, 3);
    json_parser_load_from_data (parser, json.out, -1, &error);
    g_assert_no_error (error);
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_false (json_object_get_boolean_member (root, "passed"));
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "rules")), ==, 2);

    bl_cli_run (&junit, "check", session, "--max-launch-ms", "1", "--format", "junit", NULL);
    g_assert_cmpint (junit.status, ==, 3);
    g_assert_nonnull (strstr (junit.out, "<testcase classname=\"brightlens.check\" "
                                         "name=\"max-launch-ms\""));
    g_assert_nonnull (strstr (junit.out, "<failure type=\"limit-exceeded\""));
  }

  /* usage lines name the program and the command */
  bl_cli_run (&usage, "lines", "--help", NULL);
  g_assert_cmpint (usage.status, ==, 0);
  g_assert_nonnull (strstr (usage.out, "brightlens-cli lines [OPTION…] FILE"));
}

/* ---- check on profiles --------------------------------------------------- */

static void
test_check_profile (void)
{
  const char *text = "main;parseFeed 30\nmain;parseFeed;json 20\nmain;draw 50\n";
  g_autofree char *path = write_file ("check.folded", text, strlen (text));
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *bsprof = write_bytes ("check.bsprof", bytes);
  g_autofree char *junit_path = g_build_filename (tmpdir, "report.xml", NULL);
  g_autofree char *junit = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(BlCliRun) pass = { 0 }, fail = { 0 }, json = { 0 }, junit_run = { 0 }, xpath = { 0 };
  g_auto(BlCliRun) units = { 0 }, bad_unit = { 0 }, bad_metric = { 0 }, bad_format = { 0 };
  g_auto(BlCliRun) broken = { 0 }, session_rule = { 0 }, too_small = { 0 };
  JsonObject *root;
  JsonArray *rules;

  bl_cli_run (&pass, "check", path, "--max-total", "samples=100", "--max-total",
              "parseFeed:samples=50", "--max-self", "parseFeed:samples=30", NULL);
  g_assert_cmpint (pass.status, ==, 0);
  g_assert_nonnull (strstr (pass.out, "max-total parseFeed:samples: 50 (limit 50) PASS\n"));
  g_assert_nonnull (strstr (pass.out, "PASS: 3 of 3 rules passed\n"));

  /* one rule over its limit, one on a function the profile does not have */
  bl_cli_run (&fail, "check", path, "--max-self", "parseFeed:samples=29", "--max-total",
              "nope:samples=1", "--max-total", "draw:samples=50", NULL);
  g_assert_cmpint (fail.status, ==, 3);
  g_assert_nonnull (strstr (fail.out, "max-self parseFeed:samples: 30 (limit 29) FAIL\n"));
  g_assert_nonnull (strstr (fail.out, "max-total nope:samples: no data (limit 1) FAIL\n"));
  g_assert_nonnull (strstr (fail.out, "FAIL: 2 of 3 rules failed\n"));

  bl_cli_run (&json, "check", path, "--max-self", "parseFeed:samples=29", "--format", "json",
              NULL);
  g_assert_cmpint (json.status, ==, 3);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_false (json_object_get_boolean_member (root, "passed"));
  rules = json_object_get_array_member (root, "rules");
  g_assert_cmpuint (json_array_get_length (rules), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (rules, 0),
                                                    "measured"), ==, 30);

  /* JUnit XML, read back by an XML parser: one test case per rule */
  bl_cli_run (&junit_run, "check", path, "--max-self", "parseFeed:samples=29", "--max-total",
              "samples=100", "--format", "junit", "-o", junit_path, NULL);
  g_assert_cmpint (junit_run.status, ==, 3);
  junit = read_file (junit_path);
  g_assert_true (g_str_has_prefix (junit, "<?xml"));
  run_shell (&xpath, "xmllint --xpath 'concat(count(//testsuite/testcase), \" \", "
                     "count(//testcase/failure), \" \", //testsuites/@failures)' report.xml");
  g_assert_cmpint (xpath.status, ==, 0);
  g_assert_cmpstr (g_strstrip (xpath.out), ==, "2 1 1");

  /* limits with units, on a profile with CPU time (µs) and memory */
  bl_cli_run (&units, "check", bsprof, "--max-total", "cpu=1h", NULL);
  g_assert_cmpint (units.status, ==, 2);
  bl_cli_run (&too_small, "check", bsprof, "--max-total", "cpu=1ns", "--max-live-bytes", "1GiB",
              "--max-self", "main:wall=10s", NULL);
  g_assert_cmpint (too_small.status, ==, 3);
  g_assert_nonnull (strstr (too_small.out, "(limit 0.001 us) FAIL\n"));
  g_assert_nonnull (strstr (too_small.out, "max-live-bytes: 1000 B (limit 1073741824 B) PASS\n"));
  g_assert_nonnull (strstr (too_small.out, "(limit 10000000 us) PASS\n"));

  bl_cli_run (&bad_unit, "check", path, "--max-total", "samples=1ms", NULL);
  g_assert_cmpint (bad_unit.status, ==, 2);
  bl_cli_run (&bad_metric, "check", path, "--max-total", "cycles=1", NULL);
  g_assert_cmpint (bad_metric.status, ==, 2);
  g_assert_nonnull (strstr (bad_metric.err, "unknown metric"));
  bl_cli_run (&bad_format, "check", path, "--max-total", "samples=1", "--format", "xml", NULL);
  g_assert_cmpint (bad_format.status, ==, 2);

  /* fractional weights (speedscope) are compared in the metric's unit */
  {
    const char *frac = "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", "
                       "\"shared\": {\"frames\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}, "
                       "\"profiles\": [{\"type\": \"sampled\", \"name\": \"p\", "
                       "\"unit\": \"none\", \"startValue\": 0, \"endValue\": 3, "
                       "\"samples\": [[0], [0, 1], [0]], \"weights\": [0.4, 1.4, 0.4]}]}";
    g_autofree char *frac_path = write_file ("frac.json", frac, strlen (frac));
    g_auto(BlCliRun) frac_run = { 0 };

    bl_cli_run (&frac_run, "check", frac_path, "--max-total", "b:weight=1.3", "--max-self",
                "a:weight=0.8", NULL);
    g_assert_cmpint (frac_run.status, ==, 3);
    g_assert_nonnull (strstr (frac_run.out, "max-total b:weight: 1.4 (limit 1.3) FAIL\n"));
    g_assert_nonnull (strstr (frac_run.out, "max-self a:weight: 0.8 (limit 0.8) PASS\n"));
  }

  /* a broken input is 1, never 3 */
  bl_cli_run (&broken, "check", "/nonexistent.bsprof", "--max-total", "cpu=1s", NULL);
  g_assert_cmpint (broken.status, ==, 1);
  bl_cli_run (&session_rule, "check", path, "--min-fps", "30", NULL);
  g_assert_cmpint (session_rule.status, ==, 1);
}

/* ---- --json on lines and diff -------------------------------------------- */

static void
test_json_outputs (void)
{
  g_autoptr(GBytes) bytes = make_bsprof ();
  g_autofree char *path = write_bytes ("json.bsprof", bytes);
  const char *text_a = "main;parseFeed 30\nmain;draw 50\n";
  const char *text_b = "main;parseFeed 10\nmain;draw 50\nmain;load 5\n";
  g_autofree char *a = write_file ("a.folded", text_a, strlen (text_a));
  g_autofree char *b = write_file ("b.folded", text_b, strlen (text_b));
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) plain_lines = NULL;
  g_auto(BlCliRun) lines = { 0 }, lines_json = { 0 }, diff = { 0 }, both = { 0 };
  JsonObject *root, *first;
  JsonArray *array;

  bl_cli_run (&lines, "lines", path, "--metric", "cpu", NULL);
  bl_cli_run (&lines_json, "lines", path, "--metric", "cpu", "--json", NULL);
  g_assert_cmpint (lines_json.status, ==, 0);
  json_parser_load_from_data (parser, lines_json.out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "metric"), ==, "cpu");
  array = json_object_get_array_member (root, "lines");
  plain_lines = g_strsplit (g_strchomp (lines.out), "\n", -1);
  g_assert_cmpuint (json_array_get_length (array), ==, g_strv_length (plain_lines));
  g_assert_cmpuint (json_array_get_length (array), >, 1);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *line = json_array_get_object_element (array, i);
      g_autofree char *expected = g_strdup_printf ("%s:%" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                                   json_object_get_string_member (line, "file"),
                                                   json_object_get_int_member (line, "line"),
                                                   json_object_get_int_member (line, "value"));

      g_assert_cmpstr (expected, ==, plain_lines[i]);
    }

  bl_cli_run (&diff, "diff", a, b, "--json", NULL);
  g_assert_cmpint (diff.status, ==, 0);
  json_parser_load_from_data (parser, diff.out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "by"), ==, "self");
  array = json_object_get_array_member (root, "functions");
  g_assert_cmpuint (json_array_get_length (array), ==, 3);
  /* ranked by the size of the change: parseFeed −20 first */
  first = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "name"), ==, "parseFeed");
  g_assert_cmpfloat (json_object_get_double_member (first, "delta"), ==, -20);
  g_assert_cmpfloat (json_object_get_double_member (first, "self_a"), ==, 30);

  bl_cli_run (&both, "diff", a, b, "--json", "--format", "folded", NULL);
  g_assert_cmpint (both.status, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmpdir = g_dir_make_tmp ("bl-cli-io-XXXXXX", NULL);

  g_test_add_func ("/cli/io/stdin", test_stdin);
  g_test_add_func ("/cli/io/compressed", test_compressed);
  g_test_add_func ("/cli/io/compressed-name", test_compressed_name);
  g_test_add_func ("/cli/io/compressed-damaged", test_compressed_damaged);
  g_test_add_func ("/cli/io/recognition-long", test_recognition_long);
  g_test_add_func ("/cli/io/precise-messages", test_precise_messages);
  g_test_add_func ("/cli/io/output-atomic", test_output_atomic);
  g_test_add_func ("/cli/io/output-targets", test_output_targets);
  g_test_add_func ("/cli/io/output-every-command", test_output_every_command);
  g_test_add_func ("/cli/io/check-profile", test_check_profile);
  g_test_add_func ("/cli/io/json-outputs", test_json_outputs);

  ret = g_test_run ();
  g_free (tmpdir);

  return ret;
}
