/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-widgets"
#include "config.h"

#include "ws-widget-palette.h"

static gboolean
lookup (GtkStyleContext *style, const char *name, WsColor *out)
{
  GdkRGBA rgba;

  if (!gtk_style_context_lookup_color (style, name, &rgba))
    return FALSE;
  out->r = rgba.red;
  out->g = rgba.green;
  out->b = rgba.blue;
  out->a = rgba.alpha;
  return TRUE;
}

/* Fills @palette from the widget's theme: the light or dark chart colours
 * by the background's lightness, then the theme's own text, base and
 * selection colours and font over them. */
void
ws_widget_palette (GtkWidget *widget, WsPalette *palette)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  GtkSettings *settings = gtk_widget_get_settings (widget);
  g_autofree char *font = NULL;
  WsColor base = { 1, 1, 1, 1 };
  GdkRGBA fg;
  double luma;

  lookup (style, "theme_base_color", &base);
  luma = 0.2126 * base.r + 0.7152 * base.g + 0.0722 * base.b;
  if (luma < 0.5)
    ws_palette_init_dark (palette);
  else
    ws_palette_init_light (palette);

  palette->background = base;
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  palette->foreground = (WsColor){ fg.red, fg.green, fg.blue, fg.alpha };
  palette->dim = ws_color_mix (palette->foreground, palette->background, 0.35);
  palette->grid = ws_color_mix (palette->foreground, palette->background, 0.85);
  lookup (style, "theme_selected_bg_color", &palette->accent);

  g_object_get (settings, "gtk-font-name", &font, NULL);
  if (font != NULL)
    g_strlcpy (palette->font, font, sizeof palette->font);
}

/* A context that measures text as the widget's own drawing does (the
 * screen's font options), for sizes and hit tests outside ::draw. */
cairo_t *
ws_widget_measure_context (GtkWidget *widget)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  const cairo_font_options_t *options =
    gdk_screen_get_font_options (gtk_widget_get_screen (widget));

  if (options != NULL)
    cairo_set_font_options (cr, options);
  cairo_surface_destroy (surface);
  return cr;
}
