// libpq, PostgreSQL's own client library, from libpq-dev.
#ifndef CPOSTGRESQL_SHIM_H
#define CPOSTGRESQL_SHIM_H
#include <postgresql/libpq-fe.h>
#endif
