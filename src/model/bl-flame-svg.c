/* bl-flame-svg.c — a flame graph as a self-contained, interactive SVG
 *
 * The frames are laid out as the window lays them out (roots at the bottom,
 * each child as wide as its share of the parent, siblings in tree order),
 * with x computed from integer value offsets, so a frame's width is exactly
 * its value times width / total. Frames narrower than
 * BL_FLAME_SVG_MIN_FRAME_PX are left out, and so is everything above them:
 * their time shows as part of their parent. When more frames than
 * max_frames are wide enough, the narrowest go until max_frames remain (the
 * threshold is a value, so a parent always stays when its child does), and
 * the SVG says so in a visible note.
 *
 * Tooltips (<title> and the status line) are bl-flame-text's strings, the
 * window's own; colours are the window's light palette. Everything is
 * inline: a small script zooms (click a frame; its ancestors fill the
 * width, its siblings hide), resets, searches (matching frames in the
 * accent colour, the matched share of the total) and reads "#search=…&
 * zoom=f12" from the address, for links and tests. Output is deterministic.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "bl-flame-svg"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-flame-svg.h"
#include "bl-flame-text.h"

#define ROW_HEIGHT   16
#define FONT_SIZE    12
#define CHAR_WIDTH   7.0     /* px per character at FONT_SIZE, for labels */
#define PAD          10
#define HEADER       58
#define FOOTER       30
#define FLUSH_BYTES  (64 * 1024)

G_DEFINE_QUARK (bl-flame-svg-error-quark, bl_flame_svg_error)

typedef struct
{
  guint64 start;      /* value offset from the left edge */
  guint64 total;
  guint32 node;
  guint32 depth;
} Frame;

/* One tree to draw: a profile or a diff, seen through a few callbacks. */
typedef struct _Source Source;
struct _Source
{
  gpointer        data;
  const guint64  *total;
  guint32       (*first_child)  (Source       *src,
                                 guint32       node);
  guint32       (*next_sibling) (Source       *src,
                                 guint32       node);
  const char   *(*name)         (Source       *src,
                                 guint32       node);
  char         *(*tooltip)      (Source       *src,
                                 guint32       node);
  void          (*color)        (Source       *src,
                                 guint32       node,
                                 BlFlameColor *color);
  BlMetricId      metric;
  gboolean        normalized;
};

/* ---- writing ------------------------------------------------------------ */

typedef struct
{
  GOutputStream *out;
  GCancellable  *cancellable;
  GString       *buf;
} Writer;

static gboolean
writer_flush (Writer  *w,
              GError **error)
{
  gboolean ok;

  ok = g_output_stream_write_all (w->out, w->buf->str, w->buf->len, NULL, w->cancellable, error);
  g_string_truncate (w->buf, 0);

  return ok;
}

static gboolean
is_bidi_control (gunichar c)
{
  return c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* XML character data: < & > and quotes escaped, bytes that are not UTF-8
 * and characters XML 1.0 forbids as U+FFFD, and bidirectional controls as
 * character references, so the file's text reads as it is in any editor
 * while a browser shows the name as the window does. */
static void
append_escaped (GString    *str,
                const char *text,
                gssize      len)
{
  g_autofree char *valid = NULL;
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  gsize plain = 0;

  /* most names are plain ASCII: copied as they are */
  while (plain < n && (guchar) text[plain] >= 0x20 && (guchar) text[plain] < 0x80 &&
         strchr ("<>&\"'", text[plain]) == NULL)
    plain++;
  if (plain == n)
    {
      g_string_append_len (str, text, n);
      return;
    }

  valid = g_utf8_make_valid (text, n);

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      switch (c)
        {
        case '<':
          g_string_append (str, "&lt;");
          break;
        case '>':
          g_string_append (str, "&gt;");
          break;
        case '&':
          g_string_append (str, "&amp;");
          break;
        case '"':
          g_string_append (str, "&quot;");
          break;
        case '\'':
          g_string_append (str, "&#39;");
          break;
        default:
          if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xfffe || c == 0xffff)
            g_string_append_unichar (str, 0xfffd);
          else if (c == '\r' || is_bidi_control (c))
            g_string_append_printf (str, "&#x%X;", c);
          else
            g_string_append_len (str, p, g_utf8_next_char (p) - p);
          break;
        }
    }
}

static void
append_double (GString *str,
               double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* coordinates: four decimals at most, written without printf */
  if (value >= 0 && value < 1e9)
    {
      gint64 scaled = (gint64) llround (value * 10000);
      gint64 whole = scaled / 10000;
      int frac = (int) (scaled % 10000);
      int digits = 4;
      char *p = buf + sizeof buf - 1;

      *p = '\0';
      while (frac > 0 && frac % 10 == 0)
        {
          frac /= 10;
          digits--;
        }
      if (frac > 0)
        {
          for (int i = 0; i < digits; i++, frac /= 10)
            *--p = (char) ('0' + frac % 10);
          *--p = '.';
        }
      do
        *--p = (char) ('0' + whole % 10);
      while ((whole /= 10) > 0);
      g_string_append (str, p);
      return;
    }

  /* fixed, locale-free; trailing zeros dropped */
  g_ascii_formatd (buf, sizeof buf, "%.4f", value);
  if (strchr (buf, '.') != NULL)
    {
      char *end = buf + strlen (buf) - 1;

      while (*end == '0')
        *end-- = '\0';
      if (*end == '.')
        *end = '\0';
    }
  g_string_append (str, buf);
}

static void
append_color (GString            *str,
              const BlFlameColor *c)
{
  g_string_append_printf (str, "#%02x%02x%02x",
                          (guint) lround (CLAMP (c->red, 0.0, 1.0) * 255),
                          (guint) lround (CLAMP (c->green, 0.0, 1.0) * 255),
                          (guint) lround (CLAMP (c->blue, 0.0, 1.0) * 255));
}

/* the label for a frame @px wide: the name, or its head and "..", or
 * nothing; the script truncates the same way */
static void
append_label (GString    *str,
              const char *name,
              double      px)
{
  g_autofree char *valid = g_utf8_make_valid (name, -1);
  glong max_chars = (glong) floor ((px - 6) / CHAR_WIDTH);
  glong n_chars = g_utf8_strlen (valid, -1);

  if (max_chars < 3)
    return;
  if (n_chars <= max_chars)
    {
      append_escaped (str, valid, -1);
      return;
    }

  append_escaped (str, valid, g_utf8_offset_to_pointer (valid, max_chars - 2) - valid);
  g_string_append (str, "..");
}

/* ---- choosing the frames ------------------------------------------------ */

/* The @k-th largest (from 0) of @v[0, @n), reordering @v: Hoare's
 * quickselect, linear on average, also when many values are equal. */
static guint64
select_largest (guint64 *v,
                gsize    n,
                gsize    k)
{
  gsize lo = 0, hi = n - 1;

  g_assert (k < n);

  while (lo < hi)
    {
      guint64 pivot = v[lo + (hi - lo) / 2];
      gsize i = lo, j = hi;

      /* afterwards v[lo, j] >= pivot >= v[i, hi], and v(j, i) == pivot */
      while (i <= j)
        {
          while (v[i] > pivot)
            i++;
          while (v[j] < pivot)
            j--;
          if (i <= j)
            {
              guint64 tmp = v[i];

              v[i] = v[j];
              v[j] = tmp;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }

      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return v[k];
    }

  return v[k];
}

/* Frames wide enough, depth first (parents before children, siblings left
 * to right), then capped to max_frames by value. */
static GArray *
collect_frames (Source        *src,
                const guint32 *roots,
                guint          n_roots,
                guint64        grand,
                guint          width,
                guint          max_frames,
                BlFlameSvgStats *stats)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  guint64 min_value;
  guint64 start = 0;

  /* the smallest value at least MIN_FRAME_PX wide */
  min_value = (guint64) ceil (BL_FLAME_SVG_MIN_FRAME_PX * (double) grand / width);
  min_value = MAX (min_value, 1);

  for (guint r = 0; r < n_roots; r++)
    {
      Frame root = { start, src->total[roots[r]], roots[r], 0 };

      start += root.total;
      if (root.total < min_value)
        continue;

      g_array_append_val (stack, root);
      while (stack->len > 0)
        {
          Frame f = g_array_index (stack, Frame, stack->len - 1);
          guint first = stack->len - 1;
          guint64 child_start = f.start;

          g_array_set_size (stack, stack->len - 1);
          g_array_append_val (frames, f);

          /* push the children right to left, so the leftmost pops first */
          for (guint32 c = src->first_child (src, f.node); c != BL_NODE_NONE;
               c = src->next_sibling (src, c))
            {
              Frame child = { child_start, src->total[c], c, f.depth + 1 };

              child_start += child.total;
              if (child.total >= min_value)
                g_array_append_val (stack, child);
            }
          for (guint i = first, j = stack->len; j > i + 1; i++, j--)
            {
              Frame tmp = g_array_index (stack, Frame, i);

              g_array_index (stack, Frame, i) = g_array_index (stack, Frame, j - 1);
              g_array_index (stack, Frame, j - 1) = tmp;
            }
        }
    }
  g_array_unref (stack);

  stats->capped = frames->len > max_frames;
  if (stats->capped)
    {
      g_autofree guint64 *values = g_new (guint64, frames->len);
      guint64 threshold;
      guint n_above = 0, n_ties, kept = 0;

      for (guint i = 0; i < frames->len; i++)
        values[i] = g_array_index (frames, Frame, i).total;
      threshold = select_largest (values, frames->len, max_frames - 1);
      for (guint i = 0; i < frames->len; i++)
        n_above += values[i] > threshold;
      n_ties = max_frames - n_above;

      /* a child's value is at most its parent's, and parents come first,
       * so a frame kept always has its parent kept */
      for (guint i = 0; i < frames->len; i++)
        {
          Frame *f = &g_array_index (frames, Frame, i);

          if (f->total > threshold || (f->total == threshold && n_ties > 0 && n_ties--))
            g_array_index (frames, Frame, kept++) = *f;
        }
      g_array_set_size (frames, kept);
      min_value = threshold;
    }

  stats->n_frames = frames->len;
  stats->min_frame_px = (double) min_value * width / (double) grand;
  stats->n_levels = 0;
  for (guint i = 0; i < frames->len; i++)
    stats->n_levels = MAX (stats->n_levels, g_array_index (frames, Frame, i).depth + 1);

  return frames;
}

/* ---- the document ------------------------------------------------------- */

/* the script: plain ES5 plus Array.from, no network */
static const char script[] =
  "(function () {\n"
  "  'use strict';\n"
  "  var root = document.documentElement;\n"
  "  var W = +root.getAttribute('data-frame-width');\n"
  "  var PAD = +root.getAttribute('data-pad');\n"
  "  var CW = +root.getAttribute('data-char-width');\n"
  "  var EPS = 1e-3;\n"
  "  var status = document.getElementById('status');\n"
  "  var matched = document.getElementById('matched');\n"
  "  var reset = document.getElementById('reset');\n"
  "  var input = document.getElementById('search');\n"
  "  var frames = [];\n"
  "  var byId = {};\n"
  "  var zoomed = null;\n"
  "  var gs = document.querySelectorAll('g.f');\n"
  "  for (var i = 0; i < gs.length; i++) {\n"
  "    var g = gs[i], r = g.querySelector('rect'), t = g.querySelector('text');\n"
  "    var title = g.querySelector('title');\n"
  "    var tip = title ? title.textContent : '';\n"
  "    var f = { g: g, r: r, t: t, tip: tip, name: tip.split('\\n')[0],\n"
  "              x: +r.getAttribute('x') - PAD, w: +r.getAttribute('width'),\n"
  "              y: +r.getAttribute('y') };\n"
  "    g.bl = f;\n"
  "    frames.push(f);\n"
  "    byId[g.id] = f;\n"
  "  }\n"
  "  function label(f, px) {\n"
  "    var max = Math.floor((px - 6) / CW);\n"
  "    if (max < 3) return '';\n"
  "    var cs = Array.from(f.name);\n"
  "    return cs.length <= max ? f.name : cs.slice(0, max - 2).join('') + '..';\n"
  "  }\n"
  "  function place(f, x, w) {\n"
  "    f.r.setAttribute('x', (PAD + x).toFixed(4));\n"
  "    f.r.setAttribute('width', w.toFixed(4));\n"
  "    f.t.setAttribute('x', (PAD + x + 3).toFixed(4));\n"
  "    f.t.textContent = label(f, w);\n"
  "  }\n"
  "  function zoom(z) {\n"
  "    var s = W / z.w;\n"
  "    zoomed = z;\n"
  "    frames.forEach(function (f) {\n"
  "      var inside = f.x >= z.x - EPS && f.x + f.w <= z.x + z.w + EPS;\n"
  "      var covers = f.x <= z.x + EPS && f.x + f.w >= z.x + z.w - EPS;\n"
  "      if (f === z || (f.y < z.y && inside)) {\n"
  "        place(f, (f.x - z.x) * s, f.w * s);\n"
  "        f.g.classList.remove('parent');\n"
  "        f.g.style.display = '';\n"
  "      } else if (f.y > z.y && covers) {\n"
  "        place(f, 0, W);\n"
  "        f.g.classList.add('parent');\n"
  "        f.g.style.display = '';\n"
  "      } else {\n"
  "        f.g.style.display = 'none';\n"
  "      }\n"
  "    });\n"
  "    reset.style.display = '';\n"
  "    root.setAttribute('data-zoom', z.g.id);\n"
  "  }\n"
  "  function unzoom() {\n"
  "    zoomed = null;\n"
  "    frames.forEach(function (f) {\n"
  "      place(f, f.x, f.w);\n"
  "      f.g.classList.remove('parent');\n"
  "      f.g.style.display = '';\n"
  "    });\n"
  "    reset.style.display = 'none';\n"
  "    root.removeAttribute('data-zoom');\n"
  "  }\n"
  "  function search(term) {\n"
  "    var needle = (term || '').toLowerCase();\n"
  "    var spans = [];\n"
  "    frames.forEach(function (f) {\n"
  "      var m = needle !== '' && f.name.toLowerCase().indexOf(needle) >= 0;\n"
  "      f.g.classList.toggle('match', m);\n"
  "      if (m) spans.push([f.x, f.x + f.w]);\n"
  "    });\n"
  "    spans.sort(function (a, b) { return a[0] - b[0]; });\n"
  "    var covered = 0, end = -1;\n"
  "    spans.forEach(function (s) {\n"
  "      if (s[0] >= end) { covered += s[1] - s[0]; end = s[1]; }\n"
  "      else if (s[1] > end) { covered += s[1] - end; end = s[1]; }\n"
  "    });\n"
  "    root.classList.toggle('searching', needle !== '');\n"
  "    matched.textContent = needle === '' ? '' :\n"
  "      matched.getAttribute('data-label') + ' ' + (100 * covered / W).toFixed(1) + ' %';\n"
  "    root.setAttribute('data-matches', spans.length);\n"
  "  }\n"
  "  function show(f) {\n"
  "    status.textContent = f ? f.tip.split('\\n').join(' \\u00b7 ') : '';\n"
  "  }\n"
  "  function frameOf(e) {\n"
  "    for (var n = e.target; n && n !== root; n = n.parentNode)\n"
  "      if (n.bl) return n.bl;\n"
  "    return null;\n"
  "  }\n"
  "  root.addEventListener('click', function (e) {\n"
  "    var f = frameOf(e);\n"
  "    if (f) zoom(f);\n"
  "  });\n"
  "  root.addEventListener('mouseover', function (e) { show(frameOf(e)); });\n"
  "  root.addEventListener('mouseout', function () { show(null); });\n"
  "  reset.addEventListener('click', unzoom);\n"
  "  input.addEventListener('input', function () { search(input.value); });\n"
  "  document.addEventListener('keydown', function (e) {\n"
  "    if (e.key === 'Escape') { unzoom(); }\n"
  "    else if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); input.focus(); }\n"
  "  });\n"
  "  function fromAddress() {\n"
  "    var q = new URLSearchParams(location.hash.replace(/^#/, ''));\n"
  "    if (q.has('search')) { input.value = q.get('search'); search(input.value); }\n"
  "    var z = q.get('zoom');\n"
  "    if (z && byId[z]) zoom(byId[z]); else if (z !== null) unzoom();\n"
  "  }\n"
  "  window.addEventListener('hashchange', fromAddress);\n"
  "  reset.style.display = 'none';\n"
  "  fromAddress();\n"
  "  root.setAttribute('data-ready', 'true');\n"
  "})();\n";

static const char style[] =
  "text { font-family: sans-serif; font-size: " G_STRINGIFY (FONT_SIZE) "px; fill: #000; "
  "unicode-bidi: isolate; }\n"
  "g.f text { pointer-events: none; }\n"
  "g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
  "g.f.parent rect { opacity: 0.6; }\n"
  ".searching g.f rect { opacity: 0.35; }\n"
  ".searching g.f.match rect { fill: #3584e4; opacity: 1; }\n"
  "#reset { cursor: pointer; fill: #1c71d8; }\n"
  "#title { font-size: 16px; font-weight: bold; }\n"
  ".note, #status { fill: #555; }\n";

static gboolean
write_document (Source          *src,
                const guint32   *roots,
                guint            n_roots,
                const char      *title,
                const char      *subtitle,
                const char      *incomplete,
                guint            width,
                guint            max_frames,
                GOutputStream   *out,
                BlFlameSvgStats *stats,
                GCancellable    *cancellable,
                GError         **error)
{
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GString) buf = g_string_sized_new (FLUSH_BYTES + 4096);
  Writer w = { out, cancellable, buf };
  guint64 grand = 0;
  double fw = width - 2 * PAD;
  guint height;
  double base;

  for (guint r = 0; r < n_roots; r++)
    grand += src->total[roots[r]];

  if (grand > 0)
    frames = collect_frames (src, roots, n_roots, grand, (guint) fw, max_frames, stats);
  else
    frames = g_array_new (FALSE, FALSE, sizeof (Frame));

  height = HEADER + MAX (stats->n_levels, 1) * ROW_HEIGHT + FOOTER;
  base = HEADER + (double) stats->n_levels * ROW_HEIGHT;  /* bottom of the roots */

  g_string_append (buf, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
  g_string_append_printf (buf,
                          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                          "width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
                          "data-frame-width=\"%u\" data-pad=\"%u\" data-char-width=\"%g\">\n",
                          width, height, width, height, (guint) fw, PAD, CHAR_WIDTH);
  g_string_append (buf, "<title>");
  append_escaped (buf, title, -1);
  g_string_append (buf, "</title>\n<desc>");
  append_escaped (buf, subtitle, -1);
  g_string_append_printf (buf, ". %u frames", stats->n_frames);
  g_string_append (buf, "</desc>\n");
  g_string_append_printf (buf,
                          "<!-- Frames narrower than %g px are left out (their time stays "
                          "in their parent's width)%s. -->\n",
                          BL_FLAME_SVG_MIN_FRAME_PX,
                          stats->capped ? "; more frames than the cap were wide enough, so "
                          "the narrowest were left out as well" : "");
  g_string_append_printf (buf, "<style>\n%s</style>\n", style);
  g_string_append_printf (buf, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" "
                          "fill=\"#ffffff\"/>\n", width, height);

  /* header: title, subtitle, search box, matched share, reset */
  g_string_append_printf (buf, "<text id=\"title\" x=\"%u\" y=\"20\">", PAD);
  append_escaped (buf, title, -1);
  g_string_append_printf (buf, "</text>\n<text class=\"note\" x=\"%u\" y=\"38\">", PAD);
  append_escaped (buf, subtitle, -1);
  if (incomplete != NULL)
    {
      g_string_append (buf, " — ");
      append_escaped (buf, incomplete, -1);
    }
  if (stats->capped)
    {
      g_autofree char *note = NULL;

      /* Translators: in an exported SVG flame graph */
      note = g_strdup_printf (_("only the %u widest frames are drawn (at least %.2f px)"),
                              stats->n_frames, stats->min_frame_px);
      g_string_append (buf, " — ");
      append_escaped (buf, note, -1);
    }
  g_string_append (buf, "</text>\n");
  g_string_append_printf (buf, "<text id=\"reset\" x=\"%u\" y=\"54\">", PAD);
  append_escaped (buf, _("Reset Zoom"), -1);
  g_string_append (buf, "</text>\n");
  g_string_append_printf (buf, "<text id=\"matched\" x=\"%u\" y=\"54\" text-anchor=\"end\" "
                          "data-label=\"", width - PAD - 230);
  /* Translators: before the share of the searched frames in an exported
   * SVG flame graph ("Matched: 12.3 %") */
  append_escaped (buf, _("Matched:"), -1);
  g_string_append (buf, "\"></text>\n");
  g_string_append_printf (buf,
                          "<foreignObject x=\"%u\" y=\"6\" width=\"220\" height=\"28\">"
                          "<input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"search\" "
                          "type=\"search\" style=\"width: 210px; font: 12px sans-serif\" "
                          "placeholder=\"", width - PAD - 220);
  append_escaped (buf, _("Search functions"), -1);
  g_string_append (buf, "\"/></foreignObject>\n<g id=\"frames\">\n");

  for (guint i = 0; i < frames->len; i++)
    {
      const Frame *f = &g_array_index (frames, Frame, i);
      g_autofree char *tip = src->tooltip (src, f->node);
      BlFlameColor color;
      double x = PAD + (double) f->start * fw / (double) grand;
      double fwid = (double) f->total * fw / (double) grand;
      double y = base - (double) (f->depth + 1) * ROW_HEIGHT;

      src->color (src, f->node, &color);
      g_string_append_printf (buf, "<g class=\"f\" id=\"f%u\"><title>", i);
      append_escaped (buf, tip != NULL ? tip : src->name (src, f->node), -1);
      g_string_append (buf, "</title><rect x=\"");
      append_double (buf, x);
      g_string_append_printf (buf, "\" y=\"%g\" width=\"", y);
      append_double (buf, fwid);
      g_string_append_printf (buf, "\" height=\"%u\" fill=\"", ROW_HEIGHT - 1);
      append_color (buf, &color);
      g_string_append (buf, "\"/><text x=\"");
      append_double (buf, x + 3);
      g_string_append_printf (buf, "\" y=\"%g\">", y + ROW_HEIGHT - 4);
      append_label (buf, src->name (src, f->node), fwid);
      g_string_append (buf, "</text></g>\n");

      if (buf->len >= FLUSH_BYTES && !writer_flush (&w, error))
        return FALSE;
    }

  g_string_append (buf, "</g>\n");
  g_string_append_printf (buf, "<text id=\"status\" x=\"%u\" y=\"%u\"></text>\n",
                          PAD, height - 10);
  g_string_append_printf (buf, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n",
                          script);
  g_string_append (buf, "</svg>\n");

  return writer_flush (&w, error);
}

/* ---- profiles ----------------------------------------------------------- */

static guint32
profile_first_child (Source  *src,
                     guint32  node)
{
  return bl_profile_get_node (src->data, node)->first_child;
}

static guint32
profile_next_sibling (Source  *src,
                      guint32  node)
{
  return bl_profile_get_node (src->data, node)->next_sibling;
}

static const char *
profile_name (Source  *src,
              guint32  node)
{
  return bl_profile_get_node_name (src->data, node);
}

static char *
profile_tooltip (Source  *src,
                 guint32  node)
{
  return bl_flame_text_dup_tooltip (src->data, src->metric, node);
}

static void
profile_color (Source       *src,
               guint32       node,
               BlFlameColor *color)
{
  guint hue, shade;

  bl_flame_text_get_color_key (src->data, node, FALSE, &hue, &shade);
  bl_flame_text_shade_color (bl_flame_text_get_light_palette (), hue, shade, color);
}

/**
 * bl_flame_svg_write_profile:
 * @stats: (out caller-allocates) (optional): what was drawn
 *
 * Writes the flame graph of @profile for one metric, all threads side by
 * side (or the threads named options->thread), as an SVG document.
 */
gboolean
bl_flame_svg_write_profile (BlProfile                *profile,
                            const BlFlameSvgOptions  *options,
                            GOutputStream            *out,
                            BlFlameSvgStats          *stats,
                            GCancellable             *cancellable,
                            GError                  **error)
{
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *subtitle = NULL;
  BlFlameSvgStats local = { 0 };
  BlFlameSvgOptions opts = { 0 };
  Source src = { 0 };
  const guint64 *total;
  static const guint64 none = 0;

  g_return_val_if_fail (BL_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  if (options != NULL)
    opts = *options;
  if (opts.metric == BL_METRIC_INVALID)
    opts.metric = bl_profile_get_default_metric (profile);
  if (opts.width == 0)
    opts.width = BL_FLAME_SVG_DEFAULT_WIDTH;
  opts.width = CLAMP (opts.width, BL_FLAME_SVG_MIN_WIDTH, BL_FLAME_SVG_MAX_WIDTH);
  if (opts.max_frames == 0)
    opts.max_frames = BL_FLAME_SVG_DEFAULT_MAX_FRAMES;
  if (stats == NULL)
    stats = &local;
  memset (stats, 0, sizeof *stats);

  for (guint t = 0; t < bl_profile_get_n_threads (profile); t++)
    if (opts.thread == NULL ||
        g_strcmp0 (opts.thread, bl_profile_get_thread_name (profile, t)) == 0)
      {
        guint32 root = bl_profile_get_thread_root (profile, t);

        g_array_append_val (roots, root);
      }
  if (opts.thread != NULL && roots->len == 0)
    {
      g_set_error (error, BL_FLAME_SVG_ERROR, BL_FLAME_SVG_ERROR_NO_THREAD,
                   _("The profile has no thread named “%s”."), opts.thread);
      return FALSE;
    }

  total = opts.metric != BL_METRIC_INVALID
    ? bl_profile_get_total_array (profile, opts.metric)
    : NULL;
  if (total == NULL)
    {
      /* nothing to draw: an empty graph that still opens */
      g_array_set_size (roots, 0);
      total = &none;
    }

  src.data = profile;
  src.total = total;
  src.first_child = profile_first_child;
  src.next_sibling = profile_next_sibling;
  src.name = profile_name;
  src.tooltip = profile_tooltip;
  src.color = profile_color;
  src.metric = opts.metric;

  if (opts.thread != NULL)
    /* Translators: the subtitle of an exported flame graph: "CPU time, thread main" */
    subtitle = g_strdup_printf (_("%s, thread %s"),
                                opts.metric != BL_METRIC_INVALID
                                ? _(bl_metric_get_info (opts.metric)->display_name) : "—",
                                opts.thread);
  else
    /* Translators: the subtitle of an exported flame graph: "CPU time, all threads" */
    subtitle = g_strdup_printf (_("%s, all threads"),
                                opts.metric != BL_METRIC_INVALID
                                ? _(bl_metric_get_info (opts.metric)->display_name) : "—");

  return write_document (&src, (const guint32 *) (gpointer) roots->data, roots->len,
                         opts.title != NULL ? opts.title : _("Flame Graph"), subtitle,
                         bl_profile_is_incomplete (profile)
                         ? bl_profile_get_incomplete_reason (profile) : NULL,
                         opts.width, opts.max_frames, out, stats, cancellable, error);
}

/* ---- diffs -------------------------------------------------------------- */

static guint32
diff_first_child (Source  *src,
                  guint32  node)
{
  return bl_diff_get_node (src->data, node)->first_child;
}

static guint32
diff_next_sibling (Source  *src,
                   guint32  node)
{
  return bl_diff_get_node (src->data, node)->next_sibling;
}

static const char *
diff_name (Source  *src,
           guint32  node)
{
  return bl_diff_get_node_name (src->data, node);
}

static char *
diff_tooltip (Source  *src,
              guint32  node)
{
  guint32 p = bl_diff_node_to_profile (src->data, BL_DIFF_SIDE_B, node);

  if (p == BL_NODE_NONE)
    return NULL;

  return bl_flame_text_dup_diff_tooltip (src->data, src->metric, src->normalized,
                                         BL_DIFF_SIDE_B, p);
}

static void
mix (BlFlameColor       *out,
     const BlFlameColor *a,
     const BlFlameColor *b,
     double              t)
{
  out->red = a->red + (b->red - a->red) * t;
  out->green = a->green + (b->green - a->green) * t;
  out->blue = a->blue + (b->blue - a->blue) * t;
}

/* The colour of a merged frame, as BlCompareView picks it in the light
 * style (bl_diff_* in resources/style.css): one function, to follow the
 * diff's classification. */
static void
diff_change_color (BlDiff       *diff,
                   BlMetricId    metric,
                   gboolean      normalized,
                   guint32       node,
                   BlFlameColor *color)
{
  static const BlFlameColor neutral = { 0.84, 0.84, 0.84 };        /* 16 % fg on white */
  static const BlFlameColor grew = { 0xe0 / 255.0, 0x1b / 255.0, 0x24 / 255.0 };
  static const BlFlameColor shrank = { 0x1c / 255.0, 0x71 / 255.0, 0xd8 / 255.0 };
  static const BlFlameColor only_b = { 0x91 / 255.0, 0x41 / 255.0, 0xac / 255.0 };
  static const BlFlameColor only_a = { 0x86 / 255.0, 0x5e / 255.0, 0x3c / 255.0 };
  BlDiffThreshold threshold = { normalized, BL_DIFF_THRESHOLD_AUTO, 0.0 };
  BlDiffChange change;
  double r, t;

  /* by the diff's classes under the automatic noise threshold */
  *color = neutral;
  switch (bl_diff_get_node_kind (diff, metric, node, TRUE, &threshold))
    {
    case BL_DIFF_KIND_NEW:
      *color = only_b;
      return;
    case BL_DIFF_KIND_REMOVED:
      *color = only_a;
      return;
    case BL_DIFF_KIND_NEUTRAL:
      return;
    case BL_DIFF_KIND_GROWN:
    case BL_DIFF_KIND_SHRUNK:
    case BL_N_DIFF_KINDS:
    default:
      break;
    }

  bl_diff_get_node_change (diff, metric, node, TRUE, normalized, &change);
  r = isinf (change.delta_pct) ? 1.0 : change.delta_pct / 100.0;
  t = MIN (fabs (r), 1.0);
  if (isnan (t))
    return;

  mix (color, &neutral, r > 0 ? &grew : &shrank, 0.25 + 0.75 * sqrt (t));
}

static void
diff_color (Source       *src,
            guint32       node,
            BlFlameColor *color)
{
  diff_change_color (src->data, src->metric, src->normalized, node, color);
}

/**
 * bl_flame_svg_write_diff:
 * @stats: (out caller-allocates) (optional): what was drawn
 *
 * Writes the differential flame graph of a profile diff: B's frames, each
 * coloured by the change of its total from A to B.
 */
gboolean
bl_flame_svg_write_diff (BlDiff                   *diff,
                         const BlFlameSvgOptions  *options,
                         GOutputStream            *out,
                         BlFlameSvgStats          *stats,
                         GCancellable             *cancellable,
                         GError                  **error)
{
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *subtitle = NULL;
  BlFlameSvgStats local = { 0 };
  BlFlameSvgOptions opts = { 0 };
  Source src = { 0 };
  const guint64 *total = NULL;
  static const guint64 none = 0;

  g_return_val_if_fail (BL_IS_DIFF (diff), FALSE);
  g_return_val_if_fail (!bl_diff_is_session (diff), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  if (options != NULL)
    opts = *options;
  if (opts.metric == BL_METRIC_INVALID)
    opts.metric = bl_diff_get_default_metric (diff);
  if (opts.width == 0)
    opts.width = BL_FLAME_SVG_DEFAULT_WIDTH;
  opts.width = CLAMP (opts.width, BL_FLAME_SVG_MIN_WIDTH, BL_FLAME_SVG_MAX_WIDTH);
  if (opts.max_frames == 0)
    opts.max_frames = BL_FLAME_SVG_DEFAULT_MAX_FRAMES;
  if (stats == NULL)
    stats = &local;
  memset (stats, 0, sizeof *stats);

  if (opts.metric != BL_METRIC_INVALID)
    total = bl_diff_get_total_array (diff, BL_DIFF_SIDE_B, opts.metric);
  if (total != NULL)
    for (guint r = 0; r < bl_diff_get_n_roots (diff); r++)
      {
        guint32 root = bl_diff_get_root (diff, r);

        if (opts.thread == NULL || g_strcmp0 (opts.thread, bl_diff_get_node_name (diff, root)) == 0)
          g_array_append_val (roots, root);
      }
  else
    total = &none;

  src.data = diff;
  src.total = total;
  src.first_child = diff_first_child;
  src.next_sibling = diff_next_sibling;
  src.name = diff_name;
  src.tooltip = diff_tooltip;
  src.color = diff_color;
  src.metric = opts.metric;
  src.normalized = opts.normalized;

  /* Translators: the subtitle of an exported differential flame graph */
  subtitle = g_strdup_printf (_("%s; B’s frames, coloured by the change from A: red grew, "
                                "blue shrank, purple only in B"),
                              opts.metric != BL_METRIC_INVALID
                              ? _(bl_metric_get_info (opts.metric)->display_name) : "—");

  return write_document (&src, (const guint32 *) (gpointer) roots->data, roots->len,
                         opts.title != NULL ? opts.title : _("Differential Flame Graph"),
                         subtitle, NULL, opts.width, opts.max_frames, out, stats,
                         cancellable, error);
}
