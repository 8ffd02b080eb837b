/* bl-cli.h — shared pieces of brightlens-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "bl-model.h"

G_BEGIN_DECLS

enum
{
  BL_CLI_OK = 0,
  BL_CLI_INVALID_INPUT = 1,
  BL_CLI_USAGE = 2,
  BL_CLI_CHECK_FAILED = 3,     /* a check rule or a diff threshold failed */
};

/* Each command parses its own options; argv[0] is the command name. */
int            bl_cli_info         (int            argc,
                                    char         **argv);
int            bl_cli_export       (int            argc,
                                    char         **argv);
int            bl_cli_lines        (int            argc,
                                    char         **argv);
int            bl_cli_diff         (int            argc,
                                    char         **argv);
int            bl_cli_check        (int            argc,
                                    char         **argv);
int            bl_cli_record       (int            argc,
                                    char         **argv);

/* bl-cli-session.c: the session branches of info and export */
int            bl_cli_session_info (BlSession      *session,
                                    const char     *path,
                                    gboolean        json);
int            bl_cli_session_export_csv (GObject  *loaded,
                                    const char     *path,
                                    const char     *output);

/* bl-cli-check.c: check's profile rules and its report */
typedef struct _BlCliCheckReport BlCliCheckReport;

typedef struct
{
  char **max_total;        /* "[FUNCTION:]METRIC=LIMIT" */
  char **max_self;
  char  *max_live_bytes;
  char  *format;           /* text, json, junit */
} BlCliCheckOptions;

void           bl_cli_check_add_options   (GOptionContext          *context,
                                           BlCliCheckOptions       *options);
void           bl_cli_check_options_clear (BlCliCheckOptions       *options);
gboolean       bl_cli_check_has_profile_rules (const BlCliCheckOptions *options);
gboolean       bl_cli_check_validate      (const BlCliCheckOptions *options,
                                           GError                 **error);
void           bl_cli_check_profile       (BlProfile               *profile,
                                           const BlCliCheckOptions *options,
                                           BlCliCheckReport        *report);
BlCliCheckReport *bl_cli_check_report_new (void);
void           bl_cli_check_report_free   (BlCliCheckReport        *report);
gboolean       bl_cli_check_report_add    (BlCliCheckReport        *report,
                                           const char              *rule,
                                           double                   measured,
                                           const char              *unit,
                                           gboolean                 at_most,
                                           double                   limit);
int            bl_cli_check_report_finish (BlCliCheckReport        *report,
                                           const char              *format,
                                           const char              *path);
gboolean       bl_cli_parse_quantity      (const char              *text,
                                           BlUnit                   unit,
                                           double                  *value,
                                           GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlCliCheckReport, bl_cli_check_report_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BlCliCheckOptions, bl_cli_check_options_clear)

/* The writing halves of diff and export, callable without a command line
 * (the fuzz targets drive them). */
gboolean       bl_cli_diff_write_profiles (BlDiff        *diff,
                                    BlMetricId      metric,
                                    gboolean        table,
                                    gboolean        normalized,
                                    gboolean        by_total,
                                    const char     *path_a,
                                    const char     *path_b,
                                    GOutputStream  *out,
                                    GError        **error);
gboolean       bl_cli_diff_write_sessions (BlDiff        *diff,
                                    const char     *path_a,
                                    const char     *path_b,
                                    GOutputStream  *out,
                                    GError        **error);
gboolean       bl_cli_export_write_profile (BlProfile    *profile,
                                    const char     *format,
                                    BlMetricId      metric,
                                    GOutputStream  *out,
                                    GError        **error);

/* bl-cli-svg.c: export --format svg and diff --format svg */
gboolean       bl_cli_svg_check_width (int          width,
                                    GError        **error);
int            bl_cli_export_svg   (BlProfile      *profile,
                                    const char     *path,
                                    BlMetricId      metric,
                                    const char     *thread,
                                    int             width,
                                    const char     *title,
                                    const char     *output);
int            bl_cli_diff_svg     (BlDiff         *diff,
                                    BlMetricId      metric,
                                    gboolean        normalized,
                                    int             width,
                                    const char     *title,
                                    const char     *output);

int            bl_cli_heap         (int            argc,
                                    char         **argv);
void           bl_cli_perfetto_add_json   (JsonBuilder *builder,
                                           BlProfile   *profile);
void           bl_cli_perfetto_print      (BlProfile   *profile);
int            bl_cli_perfetto_export_csv (BlProfile   *profile,
                                           const char  *path,
                                           const char  *output);
int            bl_cli_usage_error  (GOptionContext *context,
                                    const char     *message);
GObject       *bl_cli_load         (const char     *path,
                                    int            *exit_status);
GObject       *bl_cli_load_any     (const char     *path,
                                    int            *exit_status);
JsonNode      *bl_cli_profile_to_json (BlProfile   *profile);
int            bl_cli_recording_info (BlRecording  *recording,
                                    const char     *path,
                                    gboolean        json);
GOutputStream *bl_cli_open_output  (const char     *path,
                                    GError        **error);
gboolean       bl_cli_close_output (GOutputStream  *out,
                                    GError        **error);
gboolean       bl_cli_redirect_stdout (const char  *path,
                                    GError        **error);
int            bl_cli_finish_stdout (int            status);
void           bl_cli_print_json   (JsonNode       *node);
BlMetricId     bl_cli_parse_metric (const char     *name,
                                    BlProfile      *profile,
                                    int            *exit_status);

/* bl-cli-transform.c: --focus, --merge, --drop, --hide, … on export, lines
 * and diff */
typedef struct
{
  GPtrArray *transforms;   /* BlTransform *, in the order given */
} BlCliTransforms;

void           bl_cli_transform_add_options (GOptionContext  *context,
                                             BlCliTransforms *transforms);
void           bl_cli_transforms_clear      (BlCliTransforms *transforms);
gboolean       bl_cli_transform_apply       (BlCliTransforms *transforms,
                                             GObject        **loaded,
                                             const char      *path,
                                             int             *exit_status);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BlCliTransforms, bl_cli_transforms_clear)

G_END_DECLS
