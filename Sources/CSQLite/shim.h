// SQLite 3 from libsqlite3-dev.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
