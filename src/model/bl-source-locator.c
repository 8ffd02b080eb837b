/* bl-source-locator.c — finds the sources a profile names in an app folder
 * or a sideload .zip package
 *
 * Profiles name BrightScript files by their place in the app package:
 * `pkg:/source/main.brs`, `pkg:/components/Grid.brs`. A locator maps such a
 * name to a file below a folder the user chose, or to an entry of the .zip
 * package they sideload, which it reads itself: the end-of-central-directory
 * record, the central directory, then the entry's local header and data,
 * stored or deflated (GZlibDecompressor, raw format). Every offset and size
 * read from the archive is checked against the archive's size before it is
 * used, and no allocation is sized by a number from the archive that has
 * not been checked that way (or against BL_SOURCE_LOCATOR_MAX_SIZE).
 *
 * Case: Roku matches paths case-insensitively ("All paths are matched
 * case-insensitively, regardless of the case-sensitivity of the underlying
 * filesystem", roFileSystem reference), so an app that says
 * `pkg:/Source/Main.brs` runs with `source/main.brs`. The locator therefore
 * tries the exact name first and falls back to an ASCII case-insensitive
 * match; among several files that differ only by case it takes the first in
 * byte order, so the choice does not depend on the order of the archive or
 * the directory listing.
 *
 * Names that are not pkg:/ names (a speedscope frame may carry an absolute
 * path, a file:// URI or a C:\ path) are tried as they are below the chosen
 * location and then by their last components, so that
 * /home/dev/grid/source/main.brs finds source/main.brs. pkg:/ names match
 * exactly (up to case) and nothing else.
 *
 * A package's manifest sits at its root. When the chosen folder or archive
 * has no manifest at its root but exactly one top-level folder with one
 * (someone zipped the folder rather than its contents), names resolve from
 * that folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-source-locator"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "bl-source-locator.h"

#define EOCD_SIGNATURE   0x06054b50u
#define CENTRAL_SIGNATURE 0x02014b50u
#define LOCAL_SIGNATURE  0x04034b50u
#define EOCD_SIZE        22
#define CENTRAL_SIZE     46
#define LOCAL_SIZE       30
#define MAX_COMMENT      0xffff

typedef struct
{
  char    *name;        /* as stored, '/'-separated, without the root prefix removed */
  guint16  flags;
  guint16  method;
  guint32  crc;
  guint32  csize;
  guint32  usize;
  guint32  local_offset;
} ZipEntry;

struct _BlSourceLocator
{
  GObject     parent_instance;

  GFile      *location;

  GMutex      mutex;
  gboolean    indexed;
  gboolean    is_zip;
  GError     *index_error;     /* why the archive could not be read */
  GFile      *base;            /* folder: where names resolve */
  char       *prefix;          /* zip: a top-level folder holding the manifest, or "" */
  guint64     archive_size;
  GPtrArray  *entries;         /* ZipEntry* */
  GHashTable *by_name;         /* name → ZipEntry* */
  GHashTable *by_folded_name;  /* ASCII-lowercase name → ZipEntry* */
};

G_DEFINE_FINAL_TYPE (BlSourceLocator, bl_source_locator, G_TYPE_OBJECT)

G_DEFINE_QUARK (bl-source-locator-error-quark, bl_source_locator_error)

enum {
  PROP_0,
  PROP_LOCATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
zip_entry_free (gpointer data)
{
  ZipEntry *entry = data;

  g_free (entry->name);
  g_free (entry);
}

static inline guint16
get_u16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static inline guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) |
         ((guint32) p[3] << 24);
}

/* Reads exactly @len bytes at @offset. */
static gboolean
read_at (GInputStream  *stream,
         guint64        offset,
         guint8        *buffer,
         gsize          len,
         GCancellable  *cancellable,
         GError       **error)
{
  gsize got = 0;

  if (!g_seekable_seek (G_SEEKABLE (stream), (goffset) offset, G_SEEK_SET, cancellable, error))
    return FALSE;
  if (!g_input_stream_read_all (stream, buffer, len, &got, cancellable, error))
    return FALSE;
  if (got != len)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The archive ends at byte %" PRIu64
                     " while %" "zu" " bytes were expected there."),
                   offset + got, len);
      return FALSE;
    }

  return TRUE;
}

static char *
fold_name (const char *name)
{
  return g_ascii_strdown (name, -1);
}

static void
index_entry (BlSourceLocator *self,
             ZipEntry        *entry)
{
  g_autofree char *folded = fold_name (entry->name);
  ZipEntry *other;

  if (!g_hash_table_contains (self->by_name, entry->name))
    g_hash_table_insert (self->by_name, entry->name, entry);

  other = g_hash_table_lookup (self->by_folded_name, folded);
  if (other == NULL || strcmp (entry->name, other->name) < 0)
    g_hash_table_insert (self->by_folded_name, g_steal_pointer (&folded), entry);
}

/* Finds the end-of-central-directory record in the last 64 KiB + 22 bytes
 * and reads the central directory it points to. */
#define ZIP64_LOCATOR_SIGNATURE 0x07064b50u
#define ZIP64_LOCATOR_SIZE      20

/* Whether a ZIP64 end-of-central-directory locator ends where the
 * end-of-central-directory record at @eocd_at starts. */
static gboolean
has_zip64_locator (GInputStream *stream,
                   guint64       eocd_at,
                   GCancellable *cancellable)
{
  guint8 locator[ZIP64_LOCATOR_SIZE];

  if (eocd_at < ZIP64_LOCATOR_SIZE ||
      !read_at (stream, eocd_at - ZIP64_LOCATOR_SIZE, locator, sizeof locator, cancellable,
                NULL))
    return FALSE;

  return get_u32 (locator) == ZIP64_LOCATOR_SIGNATURE;
}

static gboolean
zip_read_index (BlSourceLocator  *self,
                GInputStream     *stream,
                GCancellable     *cancellable,
                GError          **error)
{
  g_autofree guint8 *tail = NULL;
  g_autofree guint8 *dir = NULL;
  guint64 size = self->archive_size;
  gsize tail_len;
  guint64 tail_start, eocd_at = G_MAXUINT64;
  guint32 dir_size, dir_offset;
  guint16 n_entries;
  const guint8 *e = NULL;
  gsize pos;

  if (size < EOCD_SIZE)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_ARCHIVE,
                   _("The file is %" PRIu64 " bytes long, too short for a .zip "
                     "archive."), size);
      return FALSE;
    }

  tail_len = (gsize) MIN (size, (guint64) EOCD_SIZE + MAX_COMMENT);
  tail_start = size - tail_len;
  tail = g_malloc (tail_len);
  if (!read_at (stream, tail_start, tail, tail_len, cancellable, error))
    return FALSE;

  /* the last record whose comment reaches exactly to the end, else the
   * last signature at all (some tools pad archives) */
  for (pos = tail_len - EOCD_SIZE + 1; pos-- > 0;)
    {
      if (get_u32 (tail + pos) != EOCD_SIGNATURE)
        continue;
      if (eocd_at == G_MAXUINT64)
        eocd_at = pos;
      if (pos + EOCD_SIZE + get_u16 (tail + pos + 20) == tail_len)
        {
          eocd_at = pos;
          break;
        }
    }

  if (eocd_at == G_MAXUINT64)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_ARCHIVE,
                   _("No end-of-central-directory record in the last %" "zu"
                     " bytes: this is not a .zip archive."), tail_len);
      return FALSE;
    }

  e = tail + eocd_at;
  n_entries = get_u16 (e + 10);
  dir_size = get_u32 (e + 12);
  dir_offset = get_u32 (e + 16);

  if (get_u16 (e + 4) != 0 || get_u16 (e + 6) != 0 || get_u16 (e + 8) != n_entries)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED,
                   _("The archive spans several disks, which is not supported."));
      return FALSE;
    }

  /* an all-ones size or offset says "see the ZIP64 record"; 65,535
   * entries is a real count unless a ZIP64 end-of-central-directory
   * locator precedes the record */
  if (dir_size == 0xffffffffu || dir_offset == 0xffffffffu ||
      (n_entries == 0xffff && has_zip64_locator (stream, tail_start + eocd_at, cancellable)))
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED,
                   _("The archive uses ZIP64 records, which are not supported."));
      return FALSE;
    }

  if ((guint64) dir_offset + dir_size > tail_start + eocd_at)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The central directory (offset %u, %u bytes) runs past the "
                     "end-of-central-directory record at byte %" PRIu64 "."),
                   dir_offset, dir_size, tail_start + eocd_at);
      return FALSE;
    }

  if ((guint64) n_entries * CENTRAL_SIZE > dir_size)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The central directory claims %u entries but has only %u bytes."),
                   n_entries, dir_size);
      return FALSE;
    }

  dir = g_malloc (MAX (dir_size, 1));
  if (!read_at (stream, dir_offset, dir, dir_size, cancellable, error))
    return FALSE;

  pos = 0;
  for (guint i = 0; i < n_entries; i++)
    {
      const guint8 *c = dir + pos;
      guint16 name_len, extra_len, comment_len;
      ZipEntry *entry;
      guint64 at = (guint64) dir_offset + pos;

      if (dir_size - pos < CENTRAL_SIZE || get_u32 (c) != CENTRAL_SIGNATURE)
        {
          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                       _("Central directory entry %u at byte %" PRIu64
                         " is not a file header."), i + 1, at);
          return FALSE;
        }

      name_len = get_u16 (c + 28);
      extra_len = get_u16 (c + 30);
      comment_len = get_u16 (c + 32);
      if ((gsize) CENTRAL_SIZE + name_len + extra_len + comment_len > dir_size - pos)
        {
          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                       _("Central directory entry %u at byte %" PRIu64
                         " runs past the end of the directory."), i + 1, at);
          return FALSE;
        }

      entry = g_new0 (ZipEntry, 1);
      entry->name = g_strndup ((const char *) c + CENTRAL_SIZE, name_len);
      entry->flags = get_u16 (c + 8);
      entry->method = get_u16 (c + 10);
      entry->crc = get_u32 (c + 16);
      entry->csize = get_u32 (c + 20);
      entry->usize = get_u32 (c + 24);
      entry->local_offset = get_u32 (c + 42);
      g_ptr_array_add (self->entries, entry);

      /* directories and names with a NUL byte in them are never sources */
      if (strlen (entry->name) == name_len && name_len > 0 && entry->name[name_len - 1] != '/')
        {
          for (char *s = entry->name; *s; s++)
            if (*s == '\\')
              *s = '/';
          index_entry (self, entry);
        }

      pos += CENTRAL_SIZE + name_len + extra_len + comment_len;
    }

  /* a package zipped with its folder: resolve below that folder */
  if (g_hash_table_lookup (self->by_folded_name, "manifest") == NULL)
    {
      GHashTableIter iter;
      gpointer key;
      char *found = NULL;
      guint n_found = 0;

      g_hash_table_iter_init (&iter, self->by_folded_name);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          const char *slash = strchr (key, '/');

          if (slash && g_str_equal (slash + 1, "manifest"))
            {
              n_found++;
              g_free (found);
              found = g_strndup (key, slash + 1 - (const char *) key);
            }
        }

      if (n_found == 1)
        {
          g_free (self->prefix);
          self->prefix = found;
        }
      else
        g_free (found);
    }

  return TRUE;
}

static ZipEntry *
zip_lookup (BlSourceLocator *self,
            const char      *path)
{
  g_autofree char *full = g_strconcat (self->prefix, path, NULL);
  g_autofree char *folded = NULL;
  ZipEntry *entry;

  if ((entry = g_hash_table_lookup (self->by_name, full)))
    return entry;

  folded = fold_name (full);

  return g_hash_table_lookup (self->by_folded_name, folded);
}

static GBytes *
zip_inflate (const ZipEntry  *entry,
             const guint8    *data,
             gsize            len,
             GError         **error)
{
  g_autoptr(GZlibDecompressor) inflater = NULL;
  g_autofree guint8 *out = NULL;
  gsize out_cap = (gsize) entry->usize + 1;   /* one more, to notice a longer stream */
  gsize in_pos = 0, out_pos = 0;

  inflater = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW);
  out = g_malloc (out_cap);

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      gsize read = 0, written = 0;
      GConverterResult res;

      if (out_pos == out_cap)
        break;

      res = g_converter_convert (G_CONVERTER (inflater), data + in_pos, len - in_pos,
                                 out + out_pos, out_cap - out_pos,
                                 G_CONVERTER_INPUT_AT_END, &read, &written, &local_error);
      if (res == G_CONVERTER_ERROR)
        {
          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                       _("The archive entry “%s” does not inflate: %s"),
                       entry->name, local_error->message);
          return NULL;
        }

      in_pos += read;
      out_pos += written;

      if (res == G_CONVERTER_FINISHED)
        break;
      if (read == 0 && written == 0)
        {
          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                       _("The compressed data of the archive entry “%s” ends early."),
                       entry->name);
          return NULL;
        }
    }

  if (out_pos != entry->usize)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The archive entry “%s” inflates to %s%" "zu"
                     " bytes where the directory records %u."),
                   entry->name, out_pos == out_cap ? _("more than ") : "",
                   out_pos == out_cap ? out_pos - 1 : out_pos, entry->usize);
      return NULL;
    }

  return g_bytes_new_take (g_steal_pointer (&out), out_pos);
}

static GBytes *
zip_load (BlSourceLocator  *self,
          const ZipEntry   *entry,
          GInputStream     *stream,
          GCancellable     *cancellable,
          GError          **error)
{
  guint8 local[LOCAL_SIZE];
  g_autofree guint8 *data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint64 data_at;
  guint32 crc;

  if (entry->flags & 0x0001)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED,
                   _("The archive entry “%s” is encrypted."), entry->name);
      return NULL;
    }

  if (entry->method != 0 && entry->method != 8)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_UNSUPPORTED,
                   _("The archive entry “%s” is compressed with method %u; only stored "
                     "and deflated entries can be read."), entry->name, entry->method);
      return NULL;
    }

  if (entry->usize > BL_SOURCE_LOCATOR_MAX_SIZE)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_TOO_LARGE,
                   _("The archive entry “%s” is %u bytes long, more than a source file "
                     "can be (%u bytes)."), entry->name, entry->usize,
                   (guint) BL_SOURCE_LOCATOR_MAX_SIZE);
      return NULL;
    }

  if ((guint64) entry->local_offset + LOCAL_SIZE > self->archive_size)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The local header of the archive entry “%s” (byte %u) lies past the "
                     "end of the archive."), entry->name, entry->local_offset);
      return NULL;
    }

  if (!read_at (stream, entry->local_offset, local, LOCAL_SIZE, cancellable, error))
    return NULL;

  if (get_u32 (local) != LOCAL_SIGNATURE)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The archive entry “%s” has no local header at byte %u."),
                   entry->name, entry->local_offset);
      return NULL;
    }

  data_at = (guint64) entry->local_offset + LOCAL_SIZE + get_u16 (local + 26) +
            get_u16 (local + 28);
  if (data_at + entry->csize > self->archive_size)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The data of the archive entry “%s” (%u bytes at byte %" PRIu64
                     ") runs past the end of the archive (%" PRIu64 " bytes)."),
                   entry->name, entry->csize, data_at, self->archive_size);
      return NULL;
    }

  if (entry->method == 0 && entry->csize != entry->usize)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The stored archive entry “%s” records %u bytes compressed but %u "
                     "bytes uncompressed."), entry->name, entry->csize, entry->usize);
      return NULL;
    }

  data = g_malloc (MAX (entry->csize, 1));
  if (!read_at (stream, data_at, data, entry->csize, cancellable, error))
    return NULL;

  if (entry->method == 0)
    bytes = g_bytes_new_take (g_steal_pointer (&data), entry->csize);
  else if (!(bytes = zip_inflate (entry, data, entry->csize, error)))
    return NULL;

  crc = (guint32) crc32 (crc32 (0, Z_NULL, 0), g_bytes_get_data (bytes, NULL),
                        (uInt) g_bytes_get_size (bytes));
  if (crc != entry->crc)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_CORRUPT,
                   _("The archive entry “%s” is damaged: its CRC-32 is %08x where the "
                     "directory records %08x."), entry->name, crc, entry->crc);
      return NULL;
    }

  return g_steal_pointer (&bytes);
}

/* Finds a child of @dir named @name, exactly or else ignoring ASCII case
 * (the first such name in byte order). */
static GFile *
folder_child (GFile        *dir,
              const char   *name,
              GFileType     wanted,
              GCancellable *cancellable)
{
  g_autoptr(GFile) exact = g_file_get_child (dir, name);
  g_autoptr(GFileEnumerator) children = NULL;
  g_autofree char *best = NULL;
  GFileInfo *info;

  if (g_file_query_file_type (exact, G_FILE_QUERY_INFO_NONE, cancellable) == wanted)
    return g_steal_pointer (&exact);

  children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (children == NULL)
    return NULL;

  while ((info = g_file_enumerator_next_file (children, cancellable, NULL)))
    {
      const char *child = g_file_info_get_name (info);

      if (g_file_info_get_file_type (info) == wanted &&
          g_ascii_strcasecmp (child, name) == 0 &&
          (best == NULL || strcmp (child, best) < 0))
        {
          g_free (best);
          best = g_strdup (child);
        }
      g_object_unref (info);
    }

  return best ? g_file_get_child (dir, best) : NULL;
}

static GFile *
folder_lookup (BlSourceLocator *self,
               const char      *path,
               GCancellable    *cancellable)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr(GFile) at = g_object_ref (self->base);

  for (guint i = 0; parts[i]; i++)
    {
      GFileType wanted = parts[i + 1] ? G_FILE_TYPE_DIRECTORY : G_FILE_TYPE_REGULAR;
      GFile *next = folder_child (at, parts[i], wanted, cancellable);

      if (next == NULL)
        return NULL;
      g_set_object (&at, next);
      g_object_unref (next);
    }

  return g_steal_pointer (&at);
}

/* A folder without a manifest but with one subfolder that has one. */
static void
folder_find_base (BlSourceLocator *self,
                  GCancellable    *cancellable)
{
  g_autoptr(GFile) manifest = folder_child (self->location, "manifest", G_FILE_TYPE_REGULAR,
                                            cancellable);
  g_autoptr(GFileEnumerator) children = NULL;
  g_autoptr(GFile) found = NULL;
  guint n_found = 0;
  GFileInfo *info;

  g_set_object (&self->base, self->location);
  if (manifest != NULL)
    return;

  children = g_file_enumerate_children (self->location, G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (children == NULL)
    return;

  while ((info = g_file_enumerator_next_file (children, cancellable, NULL)))
    {
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          g_autoptr(GFile) dir = g_file_get_child (self->location, g_file_info_get_name (info));
          g_autoptr(GFile) inner = folder_child (dir, "manifest", G_FILE_TYPE_REGULAR,
                                                 cancellable);

          if (inner != NULL)
            {
              n_found++;
              g_set_object (&found, dir);
            }
        }
      g_object_unref (info);
    }

  if (n_found == 1)
    g_set_object (&self->base, found);
}

/* Reads a file found below the chosen folder: only if, with every symbolic
 * link resolved, it is still inside that folder (a link to /etc/shadow is
 * not a source file), only a regular file, and at most
 * BL_SOURCE_LOCATOR_MAX_SIZE bytes whatever size it reports (procfs says 0
 * for files that hold gigabytes). */
static GBytes *
folder_load (BlSourceLocator  *self,
             GFile            *file,
             const char       *name,
             GCancellable     *cancellable,
             GError          **error)
{
  g_autofree char *root_path = g_file_get_path (self->location);
  g_autofree char *file_path = g_file_get_path (file);
  g_autofree char *root = NULL;
  g_autofree char *real = NULL;
  g_autofree guint8 *data = NULL;
  gsize len = 0;
  gsize cap = 64 * 1024;
  struct stat st;
  int fd;

  if (root_path == NULL || file_path == NULL ||
      (root = realpath (root_path, NULL)) == NULL || (real = realpath (file_path, NULL)) == NULL)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                   _("%s cannot be resolved to a local file."), name);
      return NULL;
    }

  if (!g_str_has_prefix (real, root) ||
      (real[strlen (root)] != '/' && !g_str_equal (root, "/")))
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_OUTSIDE,
                   _("%s is a link to %s, outside the source folder %s; it is not read."),
                   name, real, root);
      return NULL;
    }

  fd = g_open (real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("%s cannot be opened: %s"), name, g_strerror (saved));
      return NULL;
    }

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                   _("%s is not a regular file."), name);
      return NULL;
    }

  data = g_malloc (cap);
  for (;;)
    {
      gssize n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return NULL;
        }
      if (len == cap || len > BL_SOURCE_LOCATOR_MAX_SIZE)
        {
          if (len > BL_SOURCE_LOCATOR_MAX_SIZE)
            {
              close (fd);
              g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_TOO_LARGE,
                           _("%s is more than %u bytes long, more than a source file can be."),
                           name, (guint) BL_SOURCE_LOCATOR_MAX_SIZE);
              return NULL;
            }
          /* a little past the limit (procfs files want whole words) */
          cap = MIN (cap * 2, (gsize) BL_SOURCE_LOCATOR_MAX_SIZE + 4096);
          data = g_realloc (data, cap);
        }

      n = read (fd, data + len, cap - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("%s cannot be read: %s"), name, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;
      len += n;
    }
  close (fd);

  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* Called with the mutex held. */
static gboolean
ensure_index (BlSourceLocator  *self,
              GCancellable     *cancellable,
              GError          **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;

  if (self->indexed)
    {
      if (self->index_error)
        {
          g_propagate_error (error, g_error_copy (self->index_error));
          return FALSE;
        }
      return TRUE;
    }

  info = g_file_query_info (self->location, G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                            G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                            cancellable, error);
  if (info == NULL)
    return FALSE;   /* not cached: the folder may appear later */

  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      folder_find_base (self, cancellable);
      self->indexed = TRUE;
      return TRUE;
    }

  self->is_zip = TRUE;
  self->archive_size = (guint64) g_file_info_get_size (info);

  if (!(stream = g_file_read (self->location, cancellable, error)))
    return FALSE;

  if (!zip_read_index (self, G_INPUT_STREAM (stream), cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_ptr_array_set_size (self->entries, 0);
          g_hash_table_remove_all (self->by_name);
          g_hash_table_remove_all (self->by_folded_name);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      self->index_error = g_error_copy (local_error);
      self->indexed = TRUE;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  self->indexed = TRUE;

  return TRUE;
}

static void
bl_source_locator_finalize (GObject *object)
{
  BlSourceLocator *self = (BlSourceLocator *) object;

  g_clear_object (&self->location);
  g_clear_object (&self->base);
  g_clear_error (&self->index_error);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->by_folded_name, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_free (self->prefix);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (bl_source_locator_parent_class)->finalize (object);
}

static void
bl_source_locator_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  BlSourceLocator *self = BL_SOURCE_LOCATOR (object);

  switch (prop_id)
    {
    case PROP_LOCATION:
      g_value_set_object (value, self->location);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_source_locator_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  BlSourceLocator *self = BL_SOURCE_LOCATOR (object);

  switch (prop_id)
    {
    case PROP_LOCATION:
      self->location = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_source_locator_class_init (BlSourceLocatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_source_locator_finalize;
  object_class->get_property = bl_source_locator_get_property;
  object_class->set_property = bl_source_locator_set_property;

  properties[PROP_LOCATION] =
    g_param_spec_object ("location", NULL, NULL,
                         G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
bl_source_locator_init (BlSourceLocator *self)
{
  g_mutex_init (&self->mutex);
  self->prefix = g_strdup ("");
  self->entries = g_ptr_array_new_with_free_func (zip_entry_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->by_folded_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * bl_source_locator_new:
 * @location: an app folder or a sideload .zip package
 *
 * Nothing is read until the first load, so making a locator never blocks;
 * a bad archive is reported by bl_source_locator_load().
 *
 * Returns: (transfer full): a new locator
 */
BlSourceLocator *
bl_source_locator_new (GFile *location)
{
  g_return_val_if_fail (G_IS_FILE (location), NULL);

  return g_object_new (BL_TYPE_SOURCE_LOCATOR, "location", location, NULL);
}

GFile *
bl_source_locator_get_location (BlSourceLocator *self)
{
  g_return_val_if_fail (BL_IS_SOURCE_LOCATOR (self), NULL);

  return self->location;
}

/* Splits @name into a path inside the package. @loose is set for names
 * that are not pkg:/ names (paths as other profilers write them: absolute,
 * relative, file:// URIs, C:\ paths), which may also match by their last
 * components: /home/dev/grid/source/main.brs finds source/main.brs. */
static char *
name_to_path (const char  *name,
              gboolean    *loose,
              GError     **error)
{
  g_autoptr(GString) path = g_string_new (NULL);
  g_autofree char *filename = NULL;
  g_auto(GStrv) parts = NULL;
  const char *rest = name;
  const char *colon;
  gboolean is_loose = TRUE;

  colon = strchr (name, ':');
  if (g_ascii_strncasecmp (name, "file://", 7) == 0)
    {
      if (!(filename = g_filename_from_uri (name, NULL, NULL)))
        {
          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_BAD_NAME,
                       _("“%s” is not a valid file URI."), name);
          return NULL;
        }
      rest = filename;
    }
  else if (colon != NULL && colon - name == 3 && g_ascii_strncasecmp (name, "pkg", 3) == 0)
    {
      rest = colon + 1;
      is_loose = FALSE;
    }
  else if (colon != NULL && colon - name == 1 && g_ascii_isalpha (name[0]) &&
           (colon[1] == '\\' || colon[1] == '/'))
    rest = colon + 1;   /* a Windows path, C:\dev\... */
  else if (colon != NULL)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE,
                   _("“%s” is not part of the app package, only pkg:/ files are."), name);
      return NULL;
    }

  parts = g_strsplit_set (rest, "/\\", -1);
  for (guint i = 0; parts[i]; i++)
    {
      if (parts[i][0] == '\0' || g_str_equal (parts[i], "."))
        continue;
      if (g_str_equal (parts[i], ".."))
        {
          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_BAD_NAME,
                       _("“%s” leaves the app package through “..”."), name);
          return NULL;
        }
      if (path->len > 0)
        g_string_append_c (path, '/');
      g_string_append (path, parts[i]);
    }

  if (path->len == 0)
    {
      g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_BAD_NAME,
                   _("“%s” names no file."), name);
      return NULL;
    }

  if (loose)
    *loose = is_loose;

  return g_string_free (g_steal_pointer (&path), FALSE);
}

/**
 * bl_source_locator_name_to_path:
 * @name: a file name as a profile gives it: `pkg:/source/main.brs`, or a
 *   path (absolute, relative, `file://`, `C:\…`) as other profilers write
 *
 * Returns: (transfer full) (nullable): the path inside the package,
 *   '/'-separated, without "." or empty components (`source/main.brs`);
 *   %NULL with %BL_SOURCE_LOCATOR_ERROR_NOT_IN_PACKAGE for another volume
 *   (`common:/`, `libpkg:/`, `tmp:/` …) or %BL_SOURCE_LOCATOR_ERROR_BAD_NAME
 */
char *
bl_source_locator_name_to_path (const char  *name,
                                GError     **error)
{
  g_return_val_if_fail (name != NULL, NULL);

  return name_to_path (name, NULL, error);
}

/**
 * bl_source_locator_load:
 * @name: a name as the profile gives it (`pkg:/source/main.brs`)
 *
 * Reads one source file. Thread-safe. A file that is missing gives
 * %BL_SOURCE_LOCATOR_ERROR_NOT_FOUND naming it; other files still load.
 *
 * Returns: (transfer full) (nullable): the file's bytes
 */
GBytes *
bl_source_locator_load (BlSourceLocator  *self,
                        const char       *name,
                        GCancellable     *cancellable,
                        GError          **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GMutexLocker) locker = NULL;
  gboolean loose = FALSE;
  const char *tail;

  g_return_val_if_fail (BL_IS_SOURCE_LOCATOR (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!(path = name_to_path (name, &loose, error)))
    return NULL;

  locker = g_mutex_locker_new (&self->mutex);
  if (!ensure_index (self, cancellable, error))
    return NULL;

  if (self->is_zip)
    {
      g_autoptr(GFileInputStream) stream = NULL;
      ZipEntry *entry = NULL;

      /* a loose name may also match by its last components */
      for (tail = path; tail != NULL; tail = loose ? strchr (tail, '/') : NULL)
        {
          if (tail != path)
            tail++;
          if ((entry = zip_lookup (self, tail)) != NULL)
            break;
        }

      if (entry == NULL)
        {
          g_autofree char *archive = g_file_get_basename (self->location);

          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                       _("%s is not in %s."), name, archive);
          return NULL;
        }

      if (!(stream = g_file_read (self->location, cancellable, error)))
        return NULL;

      return zip_load (self, entry, G_INPUT_STREAM (stream), cancellable, error);
    }
  else
    {
      g_autoptr(GFile) file = NULL;

      for (tail = path; tail != NULL; tail = loose ? strchr (tail, '/') : NULL)
        {
          if (tail != path)
            tail++;
          if ((file = folder_lookup (self, tail, cancellable)) != NULL)
            break;
        }

      if (file == NULL)
        {
          g_autofree char *folder = g_file_get_parse_name (self->base);

          g_set_error (error, BL_SOURCE_LOCATOR_ERROR, BL_SOURCE_LOCATOR_ERROR_NOT_FOUND,
                       _("%s is not in %s."), name, folder);
          return NULL;
        }

      return folder_load (self, file, name, cancellable, error);
    }
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  GBytes *bytes = bl_source_locator_load (source_object, task_data, cancellable, &error);

  if (bytes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

void
bl_source_locator_load_async (BlSourceLocator     *self,
                              const char          *name,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (BL_IS_SOURCE_LOCATOR (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, bl_source_locator_load_async);
  g_task_set_task_data (task, g_strdup (name), g_free);
  g_task_run_in_thread (task, load_thread);
}

GBytes *
bl_source_locator_load_finish (BlSourceLocator  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (BL_IS_SOURCE_LOCATOR (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
