/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-surface"
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ws-atomic-file.h"
#include "ws-surface.h"
#include "ws-text.h"

/* The output kind from the file name: "png", "svg" or "pdf". */
gboolean
ws_surface_kind_for_path (const char *path, const char **kind)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    *kind = "png";
  else if (g_str_has_suffix (lower, ".svg"))
    *kind = "svg";
  else if (g_str_has_suffix (lower, ".pdf"))
    *kind = "pdf";
  else
    return FALSE;
  return TRUE;
}

/* A context to measure text with before the size of a chart is known. */
cairo_t *
ws_measure_context (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);

  cairo_surface_destroy (surface);
  return cr;
}

/* Draws with @draw into a PNG, SVG or PDF file: the same drawing function
 * the window uses, on another surface.  The file is written next to @path
 * (ws_atomic_file_create_temp()) and put in place when complete, so a
 * failed export never leaves half a file. */
gboolean
ws_render_to_file (const char *path, double width, double height, WsDrawFunc draw,
                   gpointer user_data, GError **error)
{
  g_autofree char *tmp = NULL;
  const char *kind;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (!ws_surface_kind_for_path (path, &kind))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("%s: unknown image type (use .png, .svg or .pdf)"), path);
      return FALSE;
    }
  /* Sizes measured without a font are no sizes: say what is missing. */
  if (!ws_text_have_fonts ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _ ("%s: no fonts to draw text with (fontconfig finds none): install one, "
                      "such as the package fonts-dejavu-core"),
                   path);
      return FALSE;
    }
  if (width < 1 || height < 1 || width > WS_SURFACE_MAX_EXTENT || height > WS_SURFACE_MAX_EXTENT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("%s: size %.0f×%.0f is out of range (1–%d)"), path, width, height,
                   WS_SURFACE_MAX_EXTENT);
      return FALSE;
    }
  tmp = ws_atomic_file_create_temp (path, NULL, error);
  if (tmp == NULL)
    return FALSE;

  if (g_str_equal (kind, "svg"))
    surface = cairo_svg_surface_create (tmp, width, height);
  else if (g_str_equal (kind, "pdf"))
    surface = cairo_pdf_surface_create (tmp, width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);

  cr = cairo_create (surface);
  draw (cr, width, height, user_data);
  cairo_destroy (cr);

  if (g_str_equal (kind, "png"))
    status = cairo_surface_write_to_png (surface, tmp);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_unlink (tmp);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("%s: cannot write the image (%s)"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return ws_atomic_file_commit (tmp, path, error);
}
