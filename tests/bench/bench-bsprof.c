/* bench-bsprof.c — decode speed and memory of the .bsprof reader
 *
 * Writes (with the test writer) a profile of about 256 MB with memory
 * operations and line data, decodes it, and compares the time with a bare
 * pass that only decodes the varints of the same bytes — every varint field
 * of every entry, nothing looked up: the floor for this format. A plain
 * loop that reads every byte as a varint is printed beside it. Prints MB/s,
 * entries/s, peak RSS and the ratios.
 *
 * Usage: bench-bsprof [SIZE_MB] [FILE]   (defaults: 256, a temporary file)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bl-bsprof-writer.h"
#include "bl-model.h"

#define N_THREADS   12
#define N_FUNCS     3000
#define N_FILES     120
#define N_PATHS     60000

static guint64
peak_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static guint64
current_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  if ((line = strstr (status, "VmRSS:")))
    return g_ascii_strtoull (line + 6, NULL, 10);
  return 0;
}

static void
write_profile (const char *path,
               guint64     target_bytes,
               guint64    *entries)
{
  FILE *file = fopen (path, "wb");
  GRand *rand = g_rand_new_with_seed (42);
  BlBsprofHeader h;
  BlBsprofWriter *w;
  guint32 *path_caller = g_new0 (guint32, N_PATHS + 1);
  guint32 *path_line = g_new0 (guint32, N_PATHS + 1);
  guint64 *live = g_new0 (guint64, 1 << 16);
  guint32 *live_pe = g_new0 (guint32, 1 << 16);
  guint64 next_addr = 0x10000;
  guint32 *first_child, *next_sibling;
  guint32 current;
  char name[128];

  g_assert (file != NULL);
  bl_bsprof_header_init (&h);
  h.lines = TRUE;
  h.memory = TRUE;
  h.target = "Benchmark Channel";
  w = bl_bsprof_writer_new_file (&h, file);

  /* strings: threads 1..N_THREADS, files, functions */
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_snprintf (name, sizeof name, t == 0 ? "Thread main" : "Task%u", t);
      bl_bsprof_writer_string (w, 1 + t, name);
      bl_bsprof_writer_module (w, 1 + t, 1 + t);
    }
  for (guint f = 0; f < N_FILES; f++)
    {
      g_snprintf (name, sizeof name, "pkg:/components/Module%03u.brs", f);
      bl_bsprof_writer_string (w, 100 + f, name);
    }
  for (guint f = 0; f < N_FUNCS; f++)
    {
      g_snprintf (name, sizeof name, "handleEvent_%u", f);
      bl_bsprof_writer_string (w, 1000 + f, name);
    }

  /* path elements: roots per thread, then random chains */
  for (guint32 id = 1; id <= N_PATHS; id++)
    {
      guint32 func = g_rand_int_range (rand, 0, N_FUNCS);
      guint32 file_id = 100 + func % N_FILES;

      path_line[id] = 1 + (func * 37) % 2000;
      if (id <= N_THREADS * 4)
        {
          bl_bsprof_writer_root (w, id, 1 + (id - 1) % N_THREADS, file_id, path_line[id], 1000 + func);
          path_caller[id] = 0;
        }
      else
        {
          guint32 caller = g_rand_int_range (rand, MAX (1, (gint32) id - 5000), id);

          bl_bsprof_writer_path (w, id, caller, g_rand_int_range (rand, 1, 30), file_id,
                                 path_line[id], 1000 + func);
          path_caller[id] = caller;
        }
    }

  /* Child lists, to walk the call tree. */
  first_child = g_new0 (guint32, N_PATHS + 1);
  next_sibling = g_new0 (guint32, N_PATHS + 1);
  for (guint32 id = N_PATHS; id > N_THREADS * 4; id--)
    {
      next_sibling[id] = first_child[path_caller[id]];
      first_child[path_caller[id]] = id;
    }

  /* The measurement stream is what sampling a running program produces:
   * the current call path moves a step at a time through the tree (a call,
   * a return, or the same function again), each function spends its time on
   * a handful of lines, and most allocations are freed soon after, with a
   * slow leak of about one block in a hundred. */
  current = 1;
  while (bl_bsprof_writer_get_size (w) < target_bytes)
    {
      for (guint i = 0; i < 10000; i++)
        {
          guint32 pe = current;
          guint kind = g_rand_int_range (rand, 0, 10);
          guint32 offset = 1 + (pe * 7 + g_rand_int_range (rand, 0, 5)) % 30;
          guint step = g_rand_int_range (rand, 0, 100);

          if (step < 12 && first_child[current] != 0)
            {
              guint32 c = first_child[current];
              guint skip = g_rand_int_range (rand, 0, 4);

              while (skip-- > 0 && next_sibling[c] != 0)
                c = next_sibling[c];
              current = c;
            }
          else if (step < 24 && path_caller[current] != 0)
            current = path_caller[current];
          else if (step == 99)
            current = 1 + g_rand_int_range (rand, 0, N_THREADS * 4);

          if (kind < 5)
            bl_bsprof_writer_cpu (w, pe, offset, g_rand_int_range (rand, 1, 5000),
                                  g_rand_int_range (rand, 1, 9000));
          else if (kind < 6)
            bl_bsprof_writer_calls (w, pe, g_rand_int_range (rand, 1, 20));
          else
            {
              guint slot = g_rand_int_range (rand, 0, 4096);

              if (live[slot] != 0)
                {
                  if (g_rand_int_range (rand, 0, 100) > 0)
                    bl_bsprof_writer_free_op (w, pe, offset, live[slot], FALSE);
                  live[slot] = 0;
                }
              else
                {
                  live[slot] = next_addr;
                  live_pe[slot] = pe;
                  next_addr += 16 * g_rand_int_range (rand, 1, 64);
                  bl_bsprof_writer_alloc (w, pe, offset, live[slot],
                                          g_rand_int_range (rand, 8, 4096));
                }
            }
        }
    }

  bl_bsprof_writer_end (w, h.start_ms + 3600 * 1000);
  *entries = bl_bsprof_writer_get_entries (w);
  bl_bsprof_writer_free (w);
  fclose (file);
  g_rand_free (rand);
  g_free (path_caller);
  g_free (path_line);
  g_free (live);
  g_free (live_pe);
  g_free (first_child);
  g_free (next_sibling);
}

/* A plain varint loop over every byte of the file in the same chunks, doing
 * nothing with the values; strings are read as if they were varints. */
static guint64
bytewise_varint_pass (const char *path)
{
  FILE *file = fopen (path, "rb");
  guint8 *buf = g_malloc (4 * 1024 * 1024);
  guint64 sum = 0, value = 0;
  guint shift = 0;
  size_t n;

  while ((n = fread (buf, 1, 4 * 1024 * 1024, file)) > 0)
    {
      for (size_t i = 0; i < n; i++)
        {
          guint8 b = buf[i];

          value |= (guint64) (b & 0x7f) << (shift & 63);
          shift += 7;
          if (!(b & 0x80))
            {
              sum += value;
              value = 0;
              shift = 0;
            }
        }
    }

  fclose (file);
  g_free (buf);

  return sum;
}

static inline const guint8 *
skip_varint (const guint8 *p,
             guint64      *value)
{
  guint64 v = 0;
  guint shift = 0;

  while (*p & 0x80)
    {
      v |= (guint64) (*p++ & 0x7f) << (shift & 63);
      shift += 7;
    }
  *value = v | ((guint64) *p++ << (shift & 63));

  return p;
}

/* The floor for this format: read the same bytes in the same chunks and
 * decode every varint field of every entry, as the format lays them out
 * (strings skipped), without looking anything up or summing anything into a
 * model. The writer's file is well formed, so this pass trusts it. */
static guint64
varint_pass (const char *path)
{
  FILE *file = fopen (path, "rb");
  gsize cap = 8 * 1024 * 1024;
  guint8 *buf = g_malloc (cap + 16);
  gsize len, pos = 0;
  guint64 sum = 0, v, header_size = 0, tag;
  gboolean lines;

  len = fread (buf, 1, cap, file);

  /* header: magic, versions, size, ratios, flags, start, strings */
  pos = 8;
  for (guint i = 0; i < 4; i++)
    {
      pos = skip_varint (buf + pos, &v) - buf;
      header_size = v;
    }
  pos += 8;
  pos = skip_varint (buf + pos, &v) - buf;
  lines = v != 0;
  pos = header_size;

  for (;;)
    {
      const guint8 *p;

      /* keep at least one whole entry (< 64 KiB here) in the window */
      if (len - pos < 65536 && !feof (file))
        {
          memmove (buf, buf + pos, len - pos);
          len -= pos;
          pos = 0;
          len += fread (buf + len, 1, cap - len, file);
        }

      p = skip_varint (buf + pos, &tag);
      if (tag == 0)
        break;
      switch (tag & 7)
        {
        case 0:
          p = (const guint8 *) memchr (p, 0, buf + len - p) + 1;
          break;
        case 1:
          p = skip_varint (p, &v);
          sum += v;
          break;
        case 2:
          p = skip_varint (p, &v);
          if (v != 0 && lines)
            p = skip_varint (p, &v);
          else if (v == 0)
            p = skip_varint (p, &v);
          for (guint i = 0; i < 3; i++)
            {
              p = skip_varint (p, &v);
              sum += v;
            }
          break;
        case 3:
          if (lines)
            p = skip_varint (p, &v);
          p = skip_varint (p, &v);
          sum += v;
          if (((tag >> 3) & 3) == 0)
            {
              p = skip_varint (p, &v);
              sum += v;
            }
          break;
        case 4:
          if (lines)
            p = skip_varint (p, &v);
          p = skip_varint (p, &v);
          sum += v;
          p = skip_varint (p, &v);
          sum += v;
          break;
        case 5:
          p = skip_varint (p, &v);
          sum += v;
          break;
        default:
          g_error ("bench file has an entry of type %u", (guint) (tag & 7));
        }
      sum += tag;
      pos = p - buf;
    }

  fclose (file);
  g_free (buf);

  return sum;
}

static gsize
model_bytes (BlProfile *profile)
{
  BlMetricId metrics[BL_N_METRICS];
  guint n_metrics = bl_profile_list_metrics (profile, metrics);
  gsize nodes = bl_profile_get_n_nodes (profile);
  gsize lines = bl_profile_get_n_lines (profile);
  gsize funcs = bl_profile_get_n_functions (profile);

  return nodes * (sizeof (BlNode) + 4 + n_metrics * 16) +
         lines * (sizeof (BlLine) + n_metrics * 8) +
         funcs * (sizeof (BlFunction) + n_metrics * 16);
}

int
main (int    argc,
      char **argv)
{
  guint64 size_mb = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 256;
  g_autofree char *tmp = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlProfile) profile = NULL;
  BlBsprofStats stats = { 0, };
  guint64 written_entries = 0, file_size, rss_before, sum;
  double t_decode = G_MAXDOUBLE, t_bare = G_MAXDOUBLE, t_bytewise = G_MAXDOUBLE, t0;
  GStatBuf st;

  if (argc > 2)
    path = g_strdup (argv[2]);
  else
    {
      tmp = g_dir_make_tmp ("bench-bsprof-XXXXXX", NULL);
      path = g_build_filename (tmp, "bench.bsprof", NULL);
    }

  if (g_stat (path, &st) != 0)
    {
      printf ("writing %" G_GUINT64_FORMAT " MB profile to %s…\n", size_mb, path);
      write_profile (path, size_mb * 1000 * 1000, &written_entries);
      g_stat (path, &st);
    }
  file_size = st.st_size;

  /* Warm the page cache for every pass alike, then time the passes in
   * turn, so that each sees the machine in the same state, and keep the
   * best time of each (the machine's speed drifts while it runs). */
  sum = bytewise_varint_pass (path);
  rss_before = current_rss_kib ();
  file = g_file_new_for_path (path);
  for (guint i = 0; i < 3; i++)
    {
      t0 = g_get_monotonic_time ();
      sum += varint_pass (path);
      t_bare = MIN (t_bare, (g_get_monotonic_time () - t0) / 1e6);

      g_clear_object (&profile);
      g_clear_object (&stream);
      stream = g_file_read (file, NULL, &error);
      g_assert_no_error (error);
      t0 = g_get_monotonic_time ();
      profile = bl_bsprof_read_stream (G_INPUT_STREAM (stream), file_size, NULL, NULL, NULL,
                                       &stats, &error);
      t_decode = MIN (t_decode, (g_get_monotonic_time () - t0) / 1e6);
      g_assert_no_error (error);

      t0 = g_get_monotonic_time ();
      sum += bytewise_varint_pass (path);
      t_bytewise = MIN (t_bytewise, (g_get_monotonic_time () - t0) / 1e6);
    }

  printf ("file:            %.1f MB, %" G_GUINT64_FORMAT " entries\n",
          file_size / 1e6, stats.entries);
  printf ("model:           %u nodes, %u lines, %u functions, ~%.1f MB\n",
          bl_profile_get_n_nodes (profile), bl_profile_get_n_lines (profile),
          bl_profile_get_n_functions (profile), model_bytes (profile) / 1e6);
  printf ("decode:          %.3f s, %.1f MB/s, %.1f M entries/s\n",
          t_decode, file_size / 1e6 / t_decode, stats.entries / 1e6 / t_decode);
  printf ("varint pass:     %.3f s, %.1f MB/s: every varint field of every entry, "
          "nothing looked up (checksum %" G_GUINT64_FORMAT ")\n",
          t_bare, file_size / 1e6 / t_bare, sum & 0xffff);
  printf ("bytewise pass:   %.3f s, %.1f MB/s: every byte as a varint, strings too\n",
          t_bytewise, file_size / 1e6 / t_bytewise);
  printf ("ratio:           %.2f to the varint pass (target <= 2.5); %.2f to the bytewise pass\n",
          t_decode / t_bare, t_decode / t_bytewise);
  printf ("peak RSS:        %.1f MB (before decoding %.1f MB; target <= %.1f MB = file/2 + model)\n",
          peak_rss_kib () / 1024.0, rss_before / 1024.0,
          file_size / 2e6 + model_bytes (profile) / 1e6);

  if (tmp != NULL)
    {
      g_unlink (path);
      g_rmdir (tmp);
    }

  return 0;
}
