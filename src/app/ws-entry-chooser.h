/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ws_entry_chooser_show (GtkFileChooserNative *dialog, GtkEntry *entry);

G_END_DECLS
