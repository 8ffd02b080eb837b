/* fuzz-ecp.c — libFuzzer target for what a Roku device sends the capture
 * library: ECP XML answers and SSDP replies
 *
 * The first byte picks the reader (device-info, active-app, chanperf,
 * perfetto-enable, graphics-frame-rate, a list such as fwbeacons, or an
 * SSDP reply); the rest is its input. Every input but the SSDP ones is also
 * read as a tree (sgnodes, app-object-counts, registry), and walked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bl-capture-error.h"
#include "bl-device.h"
#include "bl-ecp-xml.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static guint
walk (const BlEcpElement *element,
      guint               depth)
{
  guint n = 1;

  g_assert (element->name != NULL && element->text != NULL);
  g_assert (g_utf8_validate (element->text, -1, NULL));
  for (guint i = 0; element->attributes[i] != NULL; i += 2)
    {
      g_assert (element->attributes[i + 1] != NULL);
      g_assert (bl_ecp_element_get_attribute (element, element->attributes[i]) != NULL);
    }
  (void) bl_ecp_element_get_text (element, "a/b");
  for (guint i = 0; i < element->children->len; i++)
    n += walk (g_ptr_array_index (element->children, i), depth + 1);

  return n;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static const char *const roots[] = {
    "device-info", "active-app", "chanperf", "perfetto-enable", "graphics-frame-rate",
  };
  const char *text;
  gsize len;
  guint which;

  if (size == 0)
    return 0;

  which = data[0] % (G_N_ELEMENTS (roots) + 2);
  text = (const char *) data + 1;
  len = size - 1;

  if (which <= G_N_ELEMENTS (roots))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlEcpElement) tree = bl_ecp_xml_parse_tree (text, len,
                                                            which == 0 ? "sgnodes" : NULL,
                                                            &error);

      g_assert ((tree == NULL) == (error != NULL));
      if (tree != NULL)
        g_assert (walk (tree, 0) <= BL_ECP_XML_MAX_ELEMENTS);
    }

  if (which < G_N_ELEMENTS (roots))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GHashTable) map = bl_ecp_xml_parse (text, len, roots[which], &error);

      g_assert ((map == NULL) == (error != NULL));
      if (error != NULL)
        g_assert (g_error_matches (error, BL_CAPTURE_ERROR, BL_CAPTURE_ERROR_PROTOCOL));
      if (map != NULL)
        {
          GHashTableIter iter;
          gpointer key, value;

          g_hash_table_iter_init (&iter, map);
          while (g_hash_table_iter_next (&iter, &key, &value))
            g_assert (key != NULL && value != NULL && g_utf8_validate (value, -1, NULL));
        }
    }
  else if (which == G_N_ELEMENTS (roots))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) items = bl_ecp_xml_parse_list (text, len, NULL,
                                                              len % 2 == 0 ? NULL : "data",
                                                              &error);

      g_assert ((items == NULL) == (error != NULL));
      for (guint i = 0; items != NULL && i < items->len; i++)
        g_assert (g_hash_table_lookup (g_ptr_array_index (items, i), "#name") != NULL);
    }
  else
    {
      g_autoptr(BlDevice) device = bl_device_new_from_ssdp_reply (text, len);

      if (device != NULL)
        {
          g_assert (bl_device_get_host (device)[0] != '\0');
          g_assert (bl_device_get_ecp_port (device) > 0);
          g_assert (bl_device_get_ecp_port (device) <= 65535);
        }
    }

  return 0;
}
