/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "ws-label-wrap.h"
#include "ws-test-gui.h"

/* A kernel of the torch_train fp32 fixture (v2025.3_h100_train_fp32):
 * one word of 120 characters for Pango (no break opportunity in it), so a
 * narrow label breaks it inside. */
static const char *const long_name =
  "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
  "alignc4_execute_kernel__5x_cublas";

/* How wide the label draws each line but the last, against the same text
 * laid out alone: a hyphen Pango inserts at a break inside a word makes
 * the drawn line wider than its text.  Returns how many lines were wider. */
static guint
lines_with_hyphens (GtkLabel *label, guint *n_lines)
{
  PangoLayout *layout = gtk_label_get_layout (label);
  const char *text = pango_layout_get_text (layout);
  GSList *lines = pango_layout_get_lines_readonly (layout);
  guint wider = 0;

  *n_lines = g_slist_length (lines);
  for (GSList *l = lines; l != NULL && l->next != NULL; l = l->next)
    {
      PangoLayoutLine *line = l->data;
      g_autofree char *part = g_strndup (text + line->start_index, (gsize) line->length);
      g_autoptr (PangoLayout) alone = gtk_widget_create_pango_layout (GTK_WIDGET (label), part);
      PangoRectangle drawn, plain;

      pango_layout_line_get_extents (line, NULL, &drawn);
      pango_layout_get_extents (alone, NULL, &plain);
      if (drawn.width > plain.width)
        wider++;
    }
  return wider;
}

static GtkLabel *
show_label (gboolean names)
{
  GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *label = gtk_label_new (long_name);

  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (names)
    ws_label_wrap_names (GTK_LABEL (label));
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  gtk_widget_set_size_request (label, 220, -1);
  gtk_container_add (GTK_CONTAINER (window), label);
  gtk_widget_show_all (window);
  ws_test_gui_assert_drawing (window, names ? "wrapped as names" : "wrapped as Pango does");
  return GTK_LABEL (label);
}

static void
test_no_hyphens_inside_names (void)
{
  GtkLabel *plain = show_label (FALSE);
  GtkLabel *names = show_label (TRUE);
  guint n_plain, n_names;

  /* Pango's default inserts hyphens: the check sees them. */
  g_assert_cmpuint (lines_with_hyphens (plain, &n_plain), >, 0);
  g_assert_cmpuint (n_plain, >, 3);
  /* The same text, as names: broken as often, never a hyphen. */
  g_assert_cmpuint (lines_with_hyphens (names, &n_names), ==, 0);
  g_assert_cmpuint (n_names, >, 3);
  gtk_widget_destroy (gtk_widget_get_toplevel (GTK_WIDGET (plain)));
  gtk_widget_destroy (gtk_widget_get_toplevel (GTK_WIDGET (names)));
}

/* The label keeps the attributes it had. */
static void
test_keeps_attributes (void)
{
  GtkWidget *label = gtk_label_new ("Kernel2<cutlass_80_tensorop_f16_s16816gemm_f16_128x256>");
  PangoAttrList *attrs = pango_attr_list_new ();
  g_autoptr (GSList) kept = NULL;

  pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  gtk_label_set_attributes (GTK_LABEL (label), attrs);
  pango_attr_list_unref (attrs);
  ws_label_wrap_names (GTK_LABEL (label));
  kept = pango_attr_list_get_attributes (gtk_label_get_attributes (GTK_LABEL (label)));
  g_assert_cmpuint (g_slist_length (kept), ==, 2);
  g_slist_free_full (g_steal_pointer (&kept), (GDestroyNotify) pango_attribute_destroy);
  g_assert_true (gtk_label_get_line_wrap (GTK_LABEL (label)));
  g_assert_cmpint (gtk_label_get_line_wrap_mode (GTK_LABEL (label)), ==, PANGO_WRAP_WORD_CHAR);
  g_object_ref_sink (label);
  g_object_unref (label);
}

int
main (int argc, char **argv)
{
  ws_test_gui_init (&argc, &argv);
  g_test_add_func ("/label-wrap/no-hyphens-inside-names", test_no_hyphens_inside_names);
  g_test_add_func ("/label-wrap/keeps-attributes", test_keeps_attributes);
  return ws_test_gui_run ();
}
