/* bl-window-record.h — Record… and the recording tabs of BlWindow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-recording-view.h"
#include "bl-window.h"

G_BEGIN_DECLS

BlRecordingView *bl_window_record              (BlWindow                 *self,
                                                const BlRecordingOptions *options,
                                                GError                  **error);

void             _bl_window_class_record_init  (GtkWidgetClass           *widget_class);
void             _bl_window_record_init        (BlWindow                 *self);
gboolean         _bl_window_record_ask_close   (BlWindow                 *self);

G_END_DECLS
