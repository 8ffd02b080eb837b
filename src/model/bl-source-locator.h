/* bl-source-locator.h — finds the sources a profile names (pkg:/…) in an
 * app folder or a sideload .zip package
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_SOURCE_LOCATOR_ERROR (bl_source_locator_error_quark ())

typedef enum
{
  BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE,  /* common:/, libpkg:/, tmp:/ … */
  BL_SOURCE_LOCATOR_ERROR_BAD_NAME,        /* empty, or climbs out with ".." */
  BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
  BL_SOURCE_LOCATOR_ERROR_NOT_ARCHIVE,     /* no end-of-central-directory record */
  BL_SOURCE_LOCATOR_ERROR_CORRUPT,         /* offsets or sizes out of bounds, bad CRC */
  BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED,     /* encryption, ZIP64, an unknown method */
  BL_SOURCE_LOCATOR_ERROR_TOO_LARGE,
  BL_SOURCE_LOCATOR_ERROR_OUTSIDE,         /* a link out of the chosen folder */
} BlSourceLocatorError;

/* The largest source file the locator reads (bytes). */
#define BL_SOURCE_LOCATOR_MAX_SIZE (16 * 1024 * 1024)

#define BL_TYPE_SOURCE_LOCATOR (bl_source_locator_get_type ())

G_DECLARE_FINAL_TYPE (BlSourceLocator, bl_source_locator, BL, SOURCE_LOCATOR, GObject)

GQuark              bl_source_locator_error_quark  (void);

BlSourceLocator    *bl_source_locator_new          (GFile                *location);
GFile              *bl_source_locator_get_location (BlSourceLocator      *self);
char               *bl_source_locator_name_to_path (const char           *name,
                                                    GError              **error);
GBytes             *bl_source_locator_load         (BlSourceLocator      *self,
                                                    const char           *name,
                                                    GCancellable         *cancellable,
                                                    GError              **error);
void                bl_source_locator_load_async   (BlSourceLocator      *self,
                                                    const char           *name,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
GBytes             *bl_source_locator_load_finish  (BlSourceLocator      *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS
