// SQLite 3 from libsqlite3-dev.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import; it tells SQLite to copy bound text and blobs at once.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call: turns the connection's
// triggers off (0) or on (1), for a copy that writes rows the triggers once made.
static inline int csqlite_enable_triggers(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, (int *)0);
}

// Leaves the connection's write-ahead log as it is when it closes, not folded into the
// database file (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE).
static inline int csqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
