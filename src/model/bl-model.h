/* bl-model.h — the GTK-free core of Brightlens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "bl-diff.h"
#include "bl-metric.h"
#include "bl-profile.h"
#include "bl-recording.h"
#include "bl-recording-writer.h"
#include "bl-session.h"
#include "bl-json-reader.h"
#include "bl-transform.h"
#include "bl-loader.h"
#include "formats/bl-format.h"
#include "formats/bl-br-reader.h"
#include "formats/bl-bsprof-reader.h"
#include "formats/bl-folded.h"
#include "formats/bl-mpatrol-reader.h"
#include "formats/bl-rrm-reader.h"
#include "formats/bl-speedscope-reader.h"
#include "formats/bl-speedscope-writer.h"
