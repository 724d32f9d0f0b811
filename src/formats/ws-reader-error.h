/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of the readers (formats): every message names the file and what
 * was wrong.  Errors of the files themselves (missing, empty, too large)
 * come from base, WS_BASE_ERROR. */
#define WS_READER_ERROR (ws_reader_error_quark ())

typedef enum
{
  WS_READER_ERROR_NOT_FOUND,  /* a file a reader needs beside the one given is missing */
  WS_READER_ERROR_EMPTY,      /* no rows where rows are needed */
  WS_READER_ERROR_NOT_SQLITE, /* the file is not an SQLite database */
  WS_READER_ERROR_NOT_NSYS,   /* SQLite, but not an Nsight Systems export */
  WS_READER_ERROR_TRUNCATED,  /* shorter than its own header says */
  WS_READER_ERROR_CORRUPT,    /* SQLite reports a malformed database */
  WS_READER_ERROR_SCHEMA,     /* a table lacks a column we need */
  WS_READER_ERROR_FORMAT,     /* a text file is not of a kind we read */
  WS_READER_ERROR_NO_DATA,    /* well formed, but holds nothing to show (e.g. ncu error only) */
  WS_READER_ERROR_TOO_LARGE,  /* over a stated resource bound */
  WS_READER_ERROR_FAILED,     /* anything else SQLite or the system reported */
} WsReaderError;

GQuark ws_reader_error_quark (void);

G_END_DECLS
