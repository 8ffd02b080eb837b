/* bl-capture-error.c — the capture library's error domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-capture"

#include "config.h"

#include "bl-capture-error.h"

G_DEFINE_QUARK (bl-capture-error-quark, bl_capture_error)
