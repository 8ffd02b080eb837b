/* bench-profile-gen.h — the generated 1,000,000-node profile that the
 * flame graph and transform benchmarks share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-model.h"

G_BEGIN_DECLS

/* Called for every frame the walk pushes: @node is the node it added to
 * (or found in) the profile under @parent; @is_new whether it was added
 * now; @function the function's number (0 … 4,999; defined at line
 * 1 + @function of file number @function % 200); @line the line its
 * @cpu was spent on (0 when the profile has no per-line data). */
typedef void (*BenchProfileGenPush) (gpointer user_data,
                                     guint32  parent,
                                     guint32  node,
                                     gboolean is_new,
                                     guint    function,
                                     guint64  cpu,
                                     guint32  line);

typedef struct
{
  const char          *thread_prefix;  /* the 4 threads are named this and 0 … 3 */
  gboolean             lines;          /* record the cpu per line too */
  BenchProfileGenPush  push;           /* (nullable) */
  gpointer             user_data;
} BenchProfileGenOptions;

#define BENCH_PROFILE_GEN_NODES     1000000
#define BENCH_PROFILE_GEN_FUNCTIONS 5000
#define BENCH_PROFILE_GEN_FILES     200
#define BENCH_PROFILE_GEN_THREADS   4

char      *bench_profile_gen_function_name (guint                         function);
char      *bench_profile_gen_file_name     (guint                         file);
BlProfile *bench_profile_gen               (const BenchProfileGenOptions *options);

G_END_DECLS
