/* bl-capture-error.h — why a Roku device could not be recorded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BL_CAPTURE_ERROR (bl_capture_error_quark ())

typedef enum
{
  BL_CAPTURE_ERROR_UNREACHABLE,     /* nothing answers at the address */
  BL_CAPTURE_ERROR_LIMITED,         /* "Control by mobile apps" is not Enabled */
  BL_CAPTURE_ERROR_DEVELOPER_MODE,  /* developer mode is off */
  BL_CAPTURE_ERROR_NOT_SIDELOADED,  /* the app is not the sideloaded one ("dev") */
  BL_CAPTURE_ERROR_NOT_PROFILING,   /* the manifest does not stream a profile */
  BL_CAPTURE_ERROR_PROTOCOL,        /* the device answered something we cannot read */
  BL_CAPTURE_ERROR_DISCONNECTED,    /* the device went away in the middle of a stream */
} BlCaptureError;

GQuark bl_capture_error_quark (void);

G_END_DECLS
