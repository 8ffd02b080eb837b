/* bl-device.h — a Roku device on the network, through its ECP port
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Roku's fixed ports */
#define BL_DEVICE_ECP_PORT      8060
#define BL_DEVICE_CONSOLE_PORT  8080
#define BL_DEVICE_PROFILER_PORT 8090
#define BL_DEVICE_SSDP_PORT     1900

#define BL_TYPE_DEVICE (bl_device_get_type ())

G_DECLARE_FINAL_TYPE (BlDevice, bl_device, BL, DEVICE, GObject)

BlDevice   *bl_device_new                    (const char           *host,
                                              guint                 ecp_port);
const char *bl_device_get_host               (BlDevice             *self);
guint       bl_device_get_ecp_port           (BlDevice             *self);
const char *bl_device_get_display_name       (BlDevice             *self);

void        bl_device_get_async              (BlDevice             *self,
                                              const char           *path,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
void        bl_device_post_async             (BlDevice             *self,
                                              const char           *path,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GBytes     *bl_device_get_finish             (BlDevice             *self,
                                              GAsyncResult         *result,
                                              GError              **error);

void        bl_device_query_info_async       (BlDevice             *self,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean    bl_device_query_info_finish      (BlDevice             *self,
                                              GAsyncResult         *result,
                                              GError              **error);
const char *bl_device_get_info               (BlDevice             *self,
                                              const char           *field);
const char *bl_device_get_model              (BlDevice             *self);
const char *bl_device_get_serial             (BlDevice             *self);
const char *bl_device_get_software_version   (BlDevice             *self);
gboolean    bl_device_get_developer_enabled  (BlDevice             *self);
gboolean    bl_device_check_developer_mode   (BlDevice             *self,
                                              GError              **error);

void        bl_device_query_active_app_async (BlDevice             *self,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean    bl_device_query_active_app_finish (BlDevice            *self,
                                               GAsyncResult        *result,
                                               GError             **error);
const char *bl_device_get_app_id             (BlDevice             *self);
const char *bl_device_get_app_name           (BlDevice             *self);
const char *bl_device_get_app_version        (BlDevice             *self);
gboolean    bl_device_check_sideloaded       (BlDevice             *self,
                                              GError              **error);

BlDevice   *bl_device_new_from_ssdp_reply    (const char           *reply,
                                              gsize                 len);
void        bl_device_discover_async         (GSocketAddress       *target,
                                              guint                 timeout_ms,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GPtrArray  *bl_device_discover_finish        (GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
