/* bl-json-text.c — JSON text that every reader accepts, from a json-glib tree
 *
 * json-glib 1.6 (Debian 12's) escapes every control character in a string
 * but U+001F, which it leaves raw; JSON forbids it, and our own reader (like
 * any strict one) refuses the document. Text that came from a device (an
 * object's name, a console reply) or from a profile (a function's name)
 * may hold that byte, so everything Brightlens writes as JSON goes
 * through here. In UTF-8 the byte 0x1F is never part of a longer
 * sequence, and outside strings the generator writes only structure,
 * numbers and whitespace, so every 0x1F in its output is such a character.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-json-text.h"

/**
 * bl_json_to_text:
 * @root: the document
 * @length: (out) (optional): where to store the text's length
 *
 * Writes @root as indented JSON text.
 *
 * Returns: (transfer full): the text, NUL-terminated
 */
char *
bl_json_to_text (JsonNode *root,
                 gsize    *length)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  GString *escaped;
  char *text;
  gsize len;

  g_return_val_if_fail (root != NULL, NULL);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &len);

  if (memchr (text, 0x1f, len) != NULL)
    {
      escaped = g_string_sized_new (len + 16);
      for (gsize i = 0; i < len; i++)
        if (text[i] == 0x1f)
          g_string_append (escaped, "\\u001f");
        else
          g_string_append_c (escaped, text[i]);
      g_free (text);
      len = escaped->len;
      text = g_string_free (escaped, FALSE);
    }

  if (length != NULL)
    *length = len;

  return text;
}

/**
 * bl_json_to_bytes:
 * @root: the document
 *
 * Like bl_json_to_text(), as bytes (without the terminating NUL).
 *
 * Returns: (transfer full): the text
 */
GBytes *
bl_json_to_bytes (JsonNode *root)
{
  gsize len;
  char *text = bl_json_to_text (root, &len);

  return g_bytes_new_take (text, len);
}

/**
 * bl_json_add_string:
 * @builder: a builder inside an object
 * @name: the member's name
 * @value: (nullable): its text, or %NULL for a JSON null
 *
 * Adds the member @name with @value.
 */
void
bl_json_add_string (JsonBuilder *builder,
                    const char  *name,
                    const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}
