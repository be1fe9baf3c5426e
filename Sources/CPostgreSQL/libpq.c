// libpq is opened with dlopen on first use instead of being linked (CLazyLibrary.h says why:
// linked, it and the eleven libraries it needs, Kerberos, LDAP, SASL, OpenSSL..., were loaded
// at every start of wardrobe, for an engine most catalogues never use). Each function wardrobe
// calls is defined here under libpq's own name and prototype (from libpq-fe.h) and forwards to
// libpq's.
#include "CPostgreSQL.h"
#include <CLazyLibrary.h>

// X(return type, name, (parameters), (arguments)); V(name, (parameters), (arguments)).
#define FUNCTIONS(X, V) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(const char *, PQparameterStatus, (const PGconn *conn, const char *paramName), (conn, paramName)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
                                 const char *const *paramValues, const int *paramLengths, const int *paramFormats, \
                                 int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, \
                              const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes)) \
    X(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                   const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQfnumber, (const PGresult *res, const char *field_name), (res, field_name)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    X(unsigned char *, PQunescapeBytea, (const unsigned char *strtext, size_t *retbuflen), (strtext, retbuflen)) \
    X(PQconninfoOption *, PQconndefaults, (void), ()) \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
    V(PQfinish, (PGconn *conn), (conn)) \
    V(PQreset, (PGconn *conn), (conn)) \
    V(PQclear, (PGresult *res), (res)) \
    V(PQfreemem, (void *ptr), (ptr)) \
    V(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions))

enum { FUNCTIONS(WARDROBE_LAZY_INDEX, WARDROBE_LAZY_VOID_INDEX) function_count };
static const char *const names[] = { FUNCTIONS(WARDROBE_LAZY_NAME, WARDROBE_LAZY_VOID_NAME) };
static void *functions[function_count];
static struct wardrobe_library libpq = WARDROBE_LIBRARY("libpq.so.5", "libpq5", names, functions);

int wardrobe_load_libpq(const char **problem) { return wardrobe_library_load(&libpq, problem); }

#define FORWARD(type, name, parameters, arguments) WARDROBE_LAZY_FORWARD(libpq, type, name, parameters, arguments)
#define VOID_FORWARD(name, parameters, arguments) WARDROBE_LAZY_VOID_FORWARD(libpq, name, parameters, arguments)
FUNCTIONS(FORWARD, VOID_FORWARD)
