/* make-seeds-formats.c — writes the mpatrol and Business Rules! fuzz seeds
 * with the test writers
 *
 * Usage: make-seeds-formats DIR   (writes DIR/mpatrol/… and DIR/br/…)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "bl-br-writer.h"
#include "bl-mpatrol-writer.h"

static void
save (GBytes     *bytes,
      const char *dir,
      const char *sub,
      const char *name)
{
  g_autofree char *folder = g_build_filename (dir, sub, NULL);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (folder, 0755);
  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                            &error))
    g_error ("%s", error->message);
  g_bytes_unref (bytes);
}

static BlMpatrolWriter *
mpatrol_app (guint bin_size)
{
  BlMpatrolWriter *w = bl_mpatrol_writer_new ();
  guint64 d1, d2, s_main, s_f, main_site;

  bl_mpatrol_writer_set_bin_size (w, bin_size);
  d1 = bl_mpatrol_writer_add_data (w);
  d2 = bl_mpatrol_writer_add_data (w);
  bl_mpatrol_writer_data_op (w, d1, FALSE, 24);
  bl_mpatrol_writer_data_op (w, d1, FALSE, 3000);
  bl_mpatrol_writer_data_op (w, d1, TRUE, 24);
  bl_mpatrol_writer_data_op (w, d2, FALSE, 300);
  bl_mpatrol_writer_bin (w, FALSE, 24);
  bl_mpatrol_writer_bin (w, FALSE, 3000);
  bl_mpatrol_writer_bin (w, TRUE, 24);
  bl_mpatrol_writer_bin (w, FALSE, 300);
  s_main = bl_mpatrol_writer_add_symbol (w, "main", 0x1000);
  s_f = bl_mpatrol_writer_add_symbol (w, "make_list", 0x2000);
  main_site = bl_mpatrol_writer_add_site (w, 0, 0x1010, s_main, 0);
  bl_mpatrol_writer_add_site (w, main_site, 0x2010, s_f, d1);
  bl_mpatrol_writer_add_site (w, main_site, 0x3333, 0, d2);

  return w;
}

static GBytes *
br_app (gboolean timed)
{
  BlBrWriter *w = bl_br_writer_new ();

  bl_br_writer_module (w, 1, "MAIN.BR");
  bl_br_writer_module (w, 2, "LIB.BR");
  bl_br_writer_line (w, 1, 10, 1);
  bl_br_writer_main (w);
  if (timed)
    bl_br_writer_time (w, 1000);
  bl_br_writer_end_line (w);
  bl_br_writer_line (w, 2, 20, 1);
  bl_br_writer_function (w, "FNLOAD");
  if (timed)
    bl_br_writer_time (w, 250);
  bl_br_writer_backtrace (w, 1, 11, 1);
  bl_br_writer_main (w);
  bl_br_writer_end_line (w);
  bl_br_writer_line (w, 2, 50, 0);
  bl_br_writer_gosub (w);
  bl_br_writer_backtrace (w, 1, 11, 1);
  bl_br_writer_main (w);
  bl_br_writer_backtrace (w, 2, 25, 0);
  bl_br_writer_function (w, "FNLOAD");
  bl_br_writer_end_line (w);

  return bl_br_writer_finish (w);
}

int
main (int    argc,
      char **argv)
{
  static const struct {
    const char            *name;
    const BlMpatrolLayout *layout;
  } layouts[] = {
    { "ilp32-le.out", &bl_mpatrol_ilp32_le },
    { "ilp32-be.out", &bl_mpatrol_ilp32_be },
    { "lp64-le.out", &bl_mpatrol_lp64_le },
    { "lp64-be.out", &bl_mpatrol_lp64_be },
    { "llp64-le.out", &bl_mpatrol_llp64_le },
  };
  BlMpatrolWriter *w;

  if (argc != 2)
    {
      fprintf (stderr, "usage: make-seeds-formats DIR\n");
      return 2;
    }

  /* small bins keep the seeds small */
  w = mpatrol_app (8);
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    save (bl_mpatrol_writer_serialize (w, layouts[i].layout), argv[1], "mpatrol",
          layouts[i].name);
  bl_mpatrol_writer_free (w);
  w = mpatrol_app (0);
  save (bl_mpatrol_writer_serialize (w, &bl_mpatrol_lp64_le), argv[1], "mpatrol",
        "no-bins.out");
  bl_mpatrol_writer_free (w);

  save (br_app (TRUE), argv[1], "br", "timed.brp");
  save (br_app (FALSE), argv[1], "br", "sampled.brp");

  return 0;
}
