/* bl-fake-roku.h — a Roku device on loopback, for the capture tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  BL_FAKE_ROKU_NORMAL,
  BL_FAKE_ROKU_DEVELOPER_OFF,   /* device-info says developer-enabled false */
  BL_FAKE_ROKU_LIMITED,         /* every ECP query answers 403, Limited mode */
  BL_FAKE_ROKU_NOT_SIDELOADED,  /* a store app is in the foreground */
  BL_FAKE_ROKU_NOT_PROFILING,   /* nothing listens on the profiler port */
} BlFakeRokuMode;

/* how bl_fake_roku_refuse() refuses a query */
typedef enum
{
  BL_FAKE_ROKU_REFUSE_NOT_FOUND,  /* HTTP 404 */
  BL_FAKE_ROKU_REFUSE_STATUS,     /* an answer whose <status> is FAILED */
} BlFakeRokuRefusal;

typedef struct _BlFakeRoku BlFakeRoku;

BlFakeRoku *bl_fake_roku_new               (BlFakeRokuMode  mode,
                                            GError        **error);
void        bl_fake_roku_free              (BlFakeRoku     *self);

guint       bl_fake_roku_get_ecp_port      (BlFakeRoku     *self);
guint       bl_fake_roku_get_profiler_port (BlFakeRoku     *self);
guint       bl_fake_roku_get_console_port  (BlFakeRoku     *self);
guint       bl_fake_roku_get_ssdp_port     (BlFakeRoku     *self);

void        bl_fake_roku_set_profile       (BlFakeRoku     *self,
                                            GBytes         *profile,
                                            gsize           chunk_size,
                                            guint           interval_ms);
void        bl_fake_roku_set_burst         (BlFakeRoku     *self,
                                            guint           burst_every,
                                            guint           burst_chunks);
void        bl_fake_roku_set_vanish_after  (BlFakeRoku     *self,
                                            gsize           bytes);

void        bl_fake_roku_set_trace         (BlFakeRoku     *self,
                                            GBytes         *trace,
                                            GBytes         *heap_graph,
                                            gsize           chunk_size,
                                            guint           interval_ms,
                                            gboolean        close_at_end);
GBytes     *bl_fake_roku_dup_trace_sent    (BlFakeRoku     *self);
void        bl_fake_roku_vanish            (BlFakeRoku     *self);

gsize       bl_fake_roku_get_bytes_sent    (BlFakeRoku     *self);
gboolean    bl_fake_roku_get_paused        (BlFakeRoku     *self);
gboolean    bl_fake_roku_get_vanished      (BlFakeRoku     *self);
guint       bl_fake_roku_get_n_queries     (BlFakeRoku     *self,
                                            const char     *path);
void        bl_fake_roku_refuse            (BlFakeRoku     *self,
                                            const char     *path,
                                            BlFakeRokuRefusal how);

/* the simulated app's values at its @n-th chanperf answer (0-based) */
guint64     bl_fake_roku_chanperf_used     (guint           n);
double      bl_fake_roku_chanperf_user     (guint           n);
double      bl_fake_roku_chanperf_sys      (guint           n);
/* the @i-th beacon the simulated app raises (NULL past the last) */
guint       bl_fake_roku_n_beacons         (void);
const char *bl_fake_roku_beacon            (BlFakeRoku     *self,
                                            guint           i,
                                            gint64         *timestamp_ms);
/* the rendezvous events of the @n-th sgrendezvous read */
guint       bl_fake_roku_rendezvous_count  (guint           n);
guint       bl_fake_roku_rendezvous_drops  (guint           n);
void        bl_fake_roku_rendezvous        (guint           n,
                                            guint           i,
                                            gint64         *id,
                                            gint64         *start_ms,
                                            gint64         *end_ms,
                                            gint64         *line,
                                            const char    **file);
/* the graphics memory of the @n-th r2d2-bitmaps read */
gint64      bl_fake_roku_texture_used      (guint           n);
gint64      bl_fake_roku_system_used       (guint           n);
guint       bl_fake_roku_n_bitmaps         (guint           n);
void        bl_fake_roku_bitmap            (guint           n,
                                            guint           i,
                                            gint64         *width,
                                            gint64         *height,
                                            gint64         *bpp,
                                            gint64         *size,
                                            char          **name);
/* … and at its @n-th graphics-frame-rate answer */
double      bl_fake_roku_fps               (guint           n);
/* the SceneGraph nodes of the @n-th sgnodes/all read: how many of each
 * type in BL_FAKE_ROKU_NODE_TYPES (sorted by name) */
#define BL_FAKE_ROKU_N_NODE_TYPES 4
extern const char *const bl_fake_roku_node_types[BL_FAKE_ROKU_N_NODE_TYPES];
guint       bl_fake_roku_node_count        (guint           n,
                                            guint           type);
/* the BrightScript objects of the @n-th app-object-counts read */
#define BL_FAKE_ROKU_N_OBJECT_TYPES 3
guint       bl_fake_roku_object            (guint           n,
                                            guint           i,
                                            const char    **name,
                                            gint64         *memory);
/* the registry at the @n-th registry read: space-available, and the keys
 * of its sections ("auth": token and user; "settings": n % 3 + 1 keys) */
gint64      bl_fake_roku_registry_space    (guint           n);
guint       bl_fake_roku_registry_n_keys   (guint           n,
                                            guint           section);

#define BL_FAKE_ROKU_NAME   "Fake Roku"
#define BL_FAKE_ROKU_MODEL  "3930X"
#define BL_FAKE_ROKU_SERIAL "X00400FAKE01"

G_END_DECLS
