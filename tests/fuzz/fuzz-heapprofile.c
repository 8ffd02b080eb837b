/* fuzz-heapprofile.c — libFuzzer target for the Chrome DevTools sampling heap profile reader
 *
 * What it checks is fuzz-json-common.c's, shared with the other DevTools
 * JSON profile reader's target.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bl-heapprofile-reader.h"
#include "fuzz-json-common.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  return bl_fuzz_json_profile (data, size, bl_heapprofile_read_memory, BL_HEAPPROFILE_ERROR);
}
