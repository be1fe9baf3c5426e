// Each libmicrohttpd function wardrobe calls, forwarded to libmicrohttpd's own once it is
// loaded (CLazyLibrary.h says why and how). Parameters are numbered, not named: the names
// are microhttpd.h's.
#include "CMicroHTTPD.h"
#include <CLazyLibrary.h>

// X(return type, name, (parameters), (arguments)); V(name, (parameters), (arguments)).
#define FUNCTIONS(X, V) \
    X(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *a0, const char *a1, const char *a2), (a0, a1, a2)) \
    X(struct MHD_PostProcessor *, MHD_create_post_processor, \
      (struct MHD_Connection *a0, size_t a1, MHD_PostDataIterator a2, void *a3), (a0, a1, a2, a3)) \
    X(struct MHD_Response *, MHD_create_response_from_buffer, (size_t a0, void *a1, enum MHD_ResponseMemoryMode a2), \
      (a0, a1, a2)) \
    X(enum MHD_Result, MHD_destroy_post_processor, (struct MHD_PostProcessor *a0), (a0)) \
    V(MHD_destroy_response, (struct MHD_Response *a0), (a0)) \
    X(int, MHD_get_connection_values, \
      (struct MHD_Connection *a0, enum MHD_ValueKind a1, MHD_KeyValueIterator a2, void *a3), (a0, a1, a2, a3)) \
    X(size_t, MHD_http_unescape, (char *a0), (a0)) \
    X(const char *, MHD_lookup_connection_value, (struct MHD_Connection *a0, enum MHD_ValueKind a1, const char *a2), \
      (a0, a1, a2)) \
    X(enum MHD_Result, MHD_post_process, (struct MHD_PostProcessor *a0, const char *a1, size_t a2), (a0, a1, a2)) \
    X(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *a0, unsigned int a1, struct MHD_Response *a2), \
      (a0, a1, a2)) \
    V(MHD_stop_daemon, (struct MHD_Daemon *a0), (a0))
// Variadic: called only below, with the arguments wardrobe passes.
#define VARIADIC(N) N(MHD_start_daemon) N(MHD_get_connection_info) N(MHD_get_daemon_info)
#define VARIADIC_INDEX(name) name##_index,
#define VARIADIC_NAME(name) #name,

enum { FUNCTIONS(WARDROBE_LAZY_INDEX, WARDROBE_LAZY_VOID_INDEX) VARIADIC(VARIADIC_INDEX) function_count };
static const char *const names[] = {
    FUNCTIONS(WARDROBE_LAZY_NAME, WARDROBE_LAZY_VOID_NAME) VARIADIC(VARIADIC_NAME)
};
static void *functions[function_count];
static struct wardrobe_library libmicrohttpd =
    WARDROBE_LIBRARY("libmicrohttpd.so.12", "libmicrohttpd12", names, functions);

int wardrobe_load_libmicrohttpd(const char **problem) { return wardrobe_library_load(&libmicrohttpd, problem); }

#define FORWARD(type, name, parameters, arguments) WARDROBE_LAZY_FORWARD(libmicrohttpd, type, name, parameters, arguments)
#define VOID_FORWARD(name, parameters, arguments) WARDROBE_LAZY_VOID_FORWARD(libmicrohttpd, name, parameters, arguments)
FUNCTIONS(FORWARD, VOID_FORWARD)

typedef struct MHD_Daemon *(*StartDaemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                          MHD_AccessHandlerCallback dh, void *dh_cls, ...);
typedef const union MHD_ConnectionInfo *(*ConnectionInfo)(struct MHD_Connection *connection,
                                                         enum MHD_ConnectionInfoType info_type, ...);
typedef const union MHD_DaemonInfo *(*DaemonInfo)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...);

struct MHD_Daemon *wardrobe_mhd_start(unsigned int flags, const struct sockaddr *address, unsigned int threads,
                                      unsigned int connection_limit, unsigned int per_address_limit,
                                      unsigned int timeout_seconds, size_t memory_limit,
                                      MHD_AcceptPolicyCallback accept, void *accept_context,
                                      MHD_AccessHandlerCallback handler, void *handler_context,
                                      MHD_RequestCompletedCallback completed, void *completed_context,
                                      MHD_NotifyConnectionCallback notify, void *notify_context,
                                      wardrobe_mhd_uri_logger log_uri, void *log_context,
                                      wardrobe_mhd_unescaper unescape) {
    StartDaemon start = (StartDaemon)wardrobe_library_function(&libmicrohttpd, MHD_start_daemon_index);
    return start(flags, 0, accept, accept_context, handler, handler_context,
                 MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
                 MHD_OPTION_SOCK_ADDR, address,
                 MHD_OPTION_THREAD_POOL_SIZE, threads,
                 MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                 MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                 MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                 MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                 MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                 MHD_OPTION_URI_LOG_CALLBACK, log_uri, log_context,
                 MHD_OPTION_END);
}

int wardrobe_mhd_connection_socket(struct MHD_Connection *connection) {
    ConnectionInfo info = (ConnectionInfo)wardrobe_library_function(&libmicrohttpd, MHD_get_connection_info_index);
    const union MHD_ConnectionInfo *found = info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return found == NULL ? -1 : found->connect_fd;
}

uint16_t wardrobe_mhd_bound_port(struct MHD_Daemon *daemon) {
    DaemonInfo info = (DaemonInfo)wardrobe_library_function(&libmicrohttpd, MHD_get_daemon_info_index);
    const union MHD_DaemonInfo *found = info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return found == NULL ? 0 : found->port;
}

unsigned int wardrobe_mhd_connection_count(struct MHD_Daemon *daemon) {
    DaemonInfo info = (DaemonInfo)wardrobe_library_function(&libmicrohttpd, MHD_get_daemon_info_index);
    const union MHD_DaemonInfo *found = info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return found == NULL ? 0 : found->num_connections;
}
