/* SPDX-License-Identifier: MIT */
/*
 * A connection to the store, as the layers above it hold one: the HTTP
 * layer keeps one per request (a pool reader, or the writer) and hands it
 * to lab/ and store/ functions without ever looking inside. Only store/
 * and lab/ include <sqlite3.h> (daemon/store/sql.h) and see the SQLite
 * connection it is; to http/ the type is incomplete, an opaque handle
 * (the kernel's one good use of a typedef; tests/layers/include-graph.sh
 * keeps sqlite3.h out of http/).
 */
#ifndef PERFLAB_STORE_CONN_H
#define PERFLAB_STORE_CONN_H

typedef struct sqlite3 store_conn;

#endif
