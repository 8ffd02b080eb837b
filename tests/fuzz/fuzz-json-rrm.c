/* fuzz-json-rrm.c — libFuzzer target for the JSON pull parser and the Roku
 * Resource Monitor session reader built on it
 *
 * The bytes are parsed twice: token by token with the pull parser (every
 * getter exercised, counts checked), then as a session by the RRM reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-json-reader.h"
#include "bl-model.h"
#include "bl-rrm-reader.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  BlJsonReader *reader = bl_json_reader_new_for_data (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlSession) session = NULL;
  BlJsonToken token;
  guint n = 0;

  while ((token = bl_json_reader_next (reader, &error)) > BL_JSON_TOKEN_END)
    {
      g_autofree char *location = NULL;

      switch (token)
        {
        case BL_JSON_TOKEN_STRING:
        case BL_JSON_TOKEN_MEMBER:
          {
            gsize len;
            const char *s = bl_json_reader_get_string (reader, &len);

            /* strings are whole: no NUL inside, valid UTF-8 */
            g_assert (strlen (s) == len);
            g_assert (g_utf8_validate (s, len, NULL));
          }
          break;
        case BL_JSON_TOKEN_NUMBER:
          {
            g_autoptr(GError) count_error = NULL;
            guint64 count;

            (void) bl_json_reader_get_double (reader);
            (void) bl_json_reader_get_int (reader);
            (void) bl_json_reader_is_integral (reader);
            if (!bl_json_reader_get_count (reader, &count, &count_error))
              g_assert (count_error != NULL);
          }
          break;
        default:
          break;
        }

      /* now and then, a location and a skipped value */
      if ((n++ & 15) == 0)
        location = bl_json_reader_dup_location (reader);
      if ((n & 31) == 7 && token == BL_JSON_TOKEN_MEMBER &&
          !bl_json_reader_skip_value (reader, NULL))
        break;
    }
  if (token == BL_JSON_TOKEN_ERROR)
    g_assert (error != NULL);
  bl_json_reader_free (reader);
  g_clear_error (&error);

  (void) bl_rrm_detect (data, size);
  session = bl_rrm_read_memory (data, size, &error);
  g_assert ((session == NULL) == (error != NULL));

  return 0;
}
