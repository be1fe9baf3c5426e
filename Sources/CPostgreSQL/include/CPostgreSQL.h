// libpq, PostgreSQL's own client library (Debian's libpq5; headers from libpq-dev),
// loaded when a catalogue on a server is first opened rather than when wardrobe starts.
#ifndef CPOSTGRESQL_H
#define CPOSTGRESQL_H
#include <postgresql/libpq-fe.h>

/// Loads libpq.so.5 and finds every function wardrobe calls, once per process. Returns 1 when
/// it is ready; else 0, with `*problem` (when given) saying why in one line (static storage).
/// Every PQ function below may be called only after this returned 1.
int wardrobe_load_libpq(const char **problem);
#endif
