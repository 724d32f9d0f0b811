/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-text"
#include "config.h"

#include "ws-text.h"

/**
 * ws_text_font:
 * @scale: relative to the palette's font size (0.85 for small print)
 *
 * Returns: (transfer full): the chart font: the palette's, 10 pt when it
 *   names no size, times @scale
 */
PangoFontDescription *
ws_text_font (const WsPalette *palette, double scale, gboolean bold)
{
  PangoFontDescription *desc =
    pango_font_description_from_string (palette->font[0] != '\0' ? palette->font : "Sans 10");
  double size = pango_font_description_get_size (desc);

  if (size <= 0)
    size = 10 * PANGO_SCALE;
  if (pango_font_description_get_size_is_absolute (desc))
    pango_font_description_set_absolute_size (desc, size * scale);
  else
    pango_font_description_set_size (desc, (int) (size * scale));
  if (bold)
    pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
  return desc;
}

/**
 * ws_text_layout:
 * @scale: relative to the palette's font size (0.85 for small print)
 *
 * Returns: (transfer full): a layout in the chart font.
 */
PangoLayout *
ws_text_layout (cairo_t *cr, const WsPalette *palette, double scale, gboolean bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *desc = ws_text_font (palette, scale, bold);

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  return layout;
}

void
ws_text_size (PangoLayout *layout, const char *text, double *width, double *height)
{
  int w, h;

  pango_layout_set_width (layout, -1);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
}

double
ws_text_line_height (PangoLayout *layout)
{
  double h;

  ws_text_size (layout, "Ag漢", NULL, &h);
  return h;
}

static double
draw_line (cairo_t *cr, PangoLayout *layout, const char *text, double x, double y, double max_width,
           WsAlign align, PangoEllipsizeMode mode)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, mode);
    }
  else
    {
      pango_layout_set_width (layout, -1);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
    }
  pango_layout_get_pixel_size (layout, &w, &h);

  if (align == WS_ALIGN_RIGHT)
    x -= w;
  else if (align == WS_ALIGN_CENTER)
    x -= w / 2.0;
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  return w;
}

/* Draws one line of @text with its top at @y, ellipsized in the middle to
 * @max_width (when > 0).  Returns the width drawn. */
double
ws_text_draw (cairo_t *cr, PangoLayout *layout, const char *text, double x, double y,
              double max_width, WsAlign align)
{
  return draw_line (cr, layout, text, x, y, max_width, align, PANGO_ELLIPSIZE_MIDDLE);
}

/* Draws a kernel's display name on one line, cut at its end to @max_width:
 * its start (the function and its first telling template argument) is
 * what tells kernels apart.  Returns the width drawn. */
double
ws_text_draw_name (cairo_t *cr, PangoLayout *layout, const char *name, double x, double y,
                   double max_width, WsAlign align)
{
  return draw_line (cr, layout, name, x, y, max_width, align, PANGO_ELLIPSIZE_END);
}

/* No hyphen inside a word, nor a kernel name, where a line breaks. */
static void
no_hyphens (PangoLayout *layout)
{
#if PANGO_VERSION_CHECK(1, 44, 0)
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
#endif
}

/* Sets @text in @layout wrapped at words (or characters) to @width, at
 * least 20, unellipsized; the layout keeps that width, to be drawn as it
 * was measured.  Returns its height. */
double
ws_text_wrapped_height (PangoLayout *layout, const char *text, double width)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (MAX (width, 20) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  no_hyphens (layout);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_size (layout, &w, &h);
  return h;
}

/* Draws @text wrapped to @width with its top left at (@x, @y), and leaves
 * @layout unwrapped.  Returns the height drawn. */
double
ws_text_draw_wrapped (cairo_t *cr, PangoLayout *layout, const char *text, double x, double y,
                      double width)
{
  double h = ws_text_wrapped_height (layout, text, width);

  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_width (layout, -1);
  pango_layout_set_attributes (layout, NULL);
  return h;
}

/**
 * ws_text_have_fonts:
 *
 * Whether fontconfig has any font to draw text with.  Without one (a
 * GPU server with no fonts installed) Pango measures every character as
 * a box wider than any line, and a chart's natural height comes out in
 * millions of pixels.
 */
gboolean
ws_text_have_fonts (void)
{
  static gsize checked = 0;
  static gboolean have = FALSE;

  if (g_once_init_enter (&checked))
    {
      /* Without fonts fontconfig still lists its aliases (Sans, Serif,
       * Monospace, System-ui), but none of them loads. */
      PangoFontMap *map = pango_cairo_font_map_get_default ();
      PangoContext *context = pango_font_map_create_context (map);
      PangoFontDescription *sans = pango_font_description_from_string ("Sans 10");
      PangoFont *font = pango_font_map_load_font (map, context, sans);

      have = font != NULL;
      g_clear_object (&font);
      pango_font_description_free (sans);
      g_object_unref (context);
      g_once_init_leave (&checked, 1);
    }
  return have;
}
