/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define WS_TYPE_DOCTOR_VIEW (ws_doctor_view_get_type ())

G_DECLARE_FINAL_TYPE (WsDoctorView, ws_doctor_view, WS, DOCTOR_VIEW, GtkGrid)

GtkWidget *ws_doctor_view_new (GPtrArray *checks);

G_END_DECLS
