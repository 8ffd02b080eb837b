/* bl-loader.h — loads a file in a worker thread, with progress
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_LOADER (bl_loader_get_type ())

G_DECLARE_FINAL_TYPE (BlLoader, bl_loader, BL, LOADER, GObject)

BlLoader *bl_loader_new          (GFile                *file);
GFile    *bl_loader_get_file     (BlLoader             *self);
double    bl_loader_get_fraction (BlLoader             *self);
guint64   bl_loader_get_done     (BlLoader             *self);
guint64   bl_loader_get_total    (BlLoader             *self);
void      bl_loader_load_async   (BlLoader             *self,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
GObject  *bl_loader_load_finish  (BlLoader             *self,
                                  GAsyncResult         *result,
                                  GError              **error);
GObject  *bl_loader_load         (BlLoader             *self,
                                  GCancellable         *cancellable,
                                  GError              **error);

G_END_DECLS
