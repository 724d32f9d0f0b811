/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of the readers: every message names the file and what was wrong. */
#define WS_READER_ERROR (ws_reader_error_quark ())

typedef enum
{
  WS_READER_ERROR_NOT_FOUND,  /* the file or folder does not exist or cannot be read */
  WS_READER_ERROR_EMPTY,      /* zero bytes, or no rows where rows are needed */
  WS_READER_ERROR_NOT_SQLITE, /* the file is not an SQLite database */
  WS_READER_ERROR_NOT_NSYS,   /* SQLite, but not an Nsight Systems export */
  WS_READER_ERROR_TRUNCATED,  /* shorter than its own header says */
  WS_READER_ERROR_CORRUPT,    /* SQLite reports a malformed database */
  WS_READER_ERROR_SCHEMA,     /* a table lacks a column we need */
  WS_READER_ERROR_FORMAT,     /* a text file is not of a kind we read */
  WS_READER_ERROR_NO_DATA,    /* well formed, but holds nothing to show (e.g. ncu error only) */
  WS_READER_ERROR_TOO_LARGE,  /* over a stated resource bound */
  WS_READER_ERROR_FAILED,     /* anything else SQLite or the system reported */
  WS_READER_ERROR_NO_TOOL,    /* a report needs nsys or ncu, which is not installed */
  WS_READER_ERROR_CONVERT,    /* nsys export or ncu --import failed on a report */
} WsReaderError;

GQuark ws_reader_error_quark (void);

/* Errors of the launcher: targets files, settings, capture runs. */
#define WS_CAPTURE_ERROR (ws_capture_error_quark ())

typedef enum
{
  WS_CAPTURE_ERROR_INVALID,      /* a targets row or a setting is not valid */
  WS_CAPTURE_ERROR_TOOL_MISSING, /* nsys or ncu cannot be found or run */
  WS_CAPTURE_ERROR_IO,           /* a folder or file cannot be created or written */
  WS_CAPTURE_ERROR_STEP_FAILED,  /* a capture step failed */
  WS_CAPTURE_ERROR_TIMEOUT,      /* a tool did not answer in time */
  WS_CAPTURE_ERROR_HOST_KEY,     /* ssh: the host's key is unknown or changed */
  WS_CAPTURE_ERROR_CONNECTION,   /* ssh: cannot connect, not let in, or the connection was lost */
} WsCaptureError;

GQuark ws_capture_error_quark (void);

G_END_DECLS
