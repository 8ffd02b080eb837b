/* bl-record-dialog.h — Record…: which device, what to capture, where to save it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "bl-device.h"

G_BEGIN_DECLS

#define BL_TYPE_RECORD_DIALOG (bl_record_dialog_get_type ())

G_DECLARE_FINAL_TYPE (BlRecordDialog, bl_record_dialog, BL, RECORD_DIALOG, AdwWindow)

BlRecordDialog *bl_record_dialog_new                   (GtkWindow      *parent);
void            bl_record_dialog_set_discovery_target  (BlRecordDialog *self,
                                                        GSocketAddress *target);
void            bl_record_dialog_search                (BlRecordDialog *self);
guint           bl_record_dialog_get_n_devices         (BlRecordDialog *self);
void            bl_record_dialog_set_ports             (BlRecordDialog *self,
                                                        guint           ecp_port,
                                                        guint           profiler_port,
                                                        guint           console_port);
void            bl_record_dialog_connect               (BlRecordDialog *self,
                                                        const char     *address);
gboolean        bl_record_dialog_get_busy              (BlRecordDialog *self);
const char     *bl_record_dialog_get_status_title      (BlRecordDialog *self);
const char     *bl_record_dialog_get_status_text       (BlRecordDialog *self);
gboolean        bl_record_dialog_get_can_record        (BlRecordDialog *self);
void            bl_record_dialog_set_base_folder       (BlRecordDialog *self,
                                                        GFile          *folder);

BlDevice       *bl_record_dialog_get_device            (BlRecordDialog *self);
guint           bl_record_dialog_get_profiler_port     (BlRecordDialog *self);
guint           bl_record_dialog_get_console_port      (BlRecordDialog *self);
gboolean        bl_record_dialog_get_capture_profile   (BlRecordDialog *self);
gboolean        bl_record_dialog_get_capture_resources (BlRecordDialog *self);
gboolean        bl_record_dialog_get_capture_trace     (BlRecordDialog *self);
guint           bl_record_dialog_get_interval_ms       (BlRecordDialog *self);
GFile          *bl_record_dialog_dup_folder            (BlRecordDialog *self);
void            bl_record_dialog_record                (BlRecordDialog *self);

G_END_DECLS
