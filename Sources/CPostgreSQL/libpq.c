// libpq is opened with dlopen on first use instead of being linked. Linked, it and the
// eleven libraries it needs (Kerberos, LDAP, SASL, OpenSSL...) were loaded and relocated at
// every start of wardrobe: 3.5 ms of CPU added to each command, a tenth of `list` on a
// catalogue of a million images, for an engine most catalogues never use.
//
// Each function wardrobe calls is defined here under libpq's own name and prototype (from
// libpq-fe.h) and forwards to libpq's. A libpq function used for the first time in Swift
// fails to link ("undefined reference to PQ...") until it is listed in FUNCTIONS below.
#include "CPostgreSQL.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// X(return type, name, parameters, arguments)
#define FUNCTIONS(X) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
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
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))

#define VOID_FUNCTIONS(X) \
    X(PQfinish, (PGconn *conn), (conn)) \
    X(PQclear, (PGresult *res), (res)) \
    X(PQfreemem, (void *ptr), (ptr)) \
    X(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions))

#define POINTER(type, name, parameters, arguments) static type (*name##_in_libpq) parameters;
#define VOID_POINTER(name, parameters, arguments) static void (*name##_in_libpq) parameters;
FUNCTIONS(POINTER)
VOID_FUNCTIONS(VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *loadProblem = "libpq was not loaded";
static int loaded = 0;
static char problemText[512];

static void *find(void *library, const char *name, int *missing) {
    void *function = dlsym(library, name);
    if (!function && !*missing) {
        snprintf(problemText, sizeof problemText, "libpq.so.5 has no %s", name);
        *missing = 1;
    }
    return function;
}

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(problemText, sizeof problemText, "cannot load libpq (Debian package libpq5): %s",
                 reason ? reason : "dlopen failed");
        loadProblem = problemText;
        return;
    }
    int missing = 0;
#define RESOLVE(type, name, parameters, arguments) *(void **)&name##_in_libpq = find(library, #name, &missing);
#define VOID_RESOLVE(name, parameters, arguments) *(void **)&name##_in_libpq = find(library, #name, &missing);
    FUNCTIONS(RESOLVE)
    VOID_FUNCTIONS(VOID_RESOLVE)
    if (missing) {
        loadProblem = problemText;
        return;
    }
    loaded = 1;
}

int wardrobe_load_libpq(const char **problem) {
    pthread_once(&once, load);
    if (!loaded && problem) *problem = loadProblem;
    return loaded;
}

// A PQ function called before wardrobe_load_libpq succeeded is wardrobe's own mistake.
static void requireLibpq(const char *name) {
    if (!wardrobe_load_libpq(NULL)) {
        fprintf(stderr, "wardrobe: %s called without libpq: %s\n", name, loadProblem);
        abort();
    }
}

#define FORWARD(type, name, parameters, arguments) \
    type name parameters { requireLibpq(#name); return name##_in_libpq arguments; }
#define VOID_FORWARD(name, parameters, arguments) \
    void name parameters { requireLibpq(#name); name##_in_libpq arguments; }
FUNCTIONS(FORWARD)
VOID_FUNCTIONS(VOID_FORWARD)
