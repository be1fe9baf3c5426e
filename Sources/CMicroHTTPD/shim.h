// GNU libmicrohttpd from libmicrohttpd-dev.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot
// call; these wrappers pass the options wardrobe uses, in one fixed shape.

/// What MHD_OPTION_UNESCAPE_CALLBACK takes: decodes `text` in place, returns its new length.
typedef size_t (*wardrobe_mhd_unescaper)(void *context, struct MHD_Connection *connection, char *text);

/// What MHD_OPTION_URI_LOG_CALLBACK takes: sees the request's target as it came, before any decoding.
typedef void *(*wardrobe_mhd_uri_logger)(void *context, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with its own pool of `threads` worker threads bound to
/// `address`, with caps on connections (in all and per client address), idle
/// time and per-connection memory (which bounds the request line and headers).
/// `completed` runs once per request after its response was sent or the
/// connection failed; `notify` when a connection opens and when it closes;
/// `logURI` sees each request's target before it is decoded; `unescape` decodes
/// the path and the query's names and values.
static inline struct MHD_Daemon *wardrobe_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                    unsigned int threads, unsigned int connection_limit,
                                                    unsigned int per_address_limit,
                                                    unsigned int timeout_seconds, size_t memory_limit,
                                                    MHD_AccessHandlerCallback handler, void *handler_context,
                                                    MHD_RequestCompletedCallback completed, void *completed_context,
                                                    MHD_NotifyConnectionCallback notify, void *notify_context,
                                                    wardrobe_mhd_uri_logger log_uri, void *log_context,
                                                    wardrobe_mhd_unescaper unescape) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
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

/// A connection's socket (MHD_get_connection_info is variadic); -1 if unknown.
static inline int wardrobe_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}


/// The port the daemon listens on (the one the system picked for port 0); 0 if unknown.
static inline uint16_t wardrobe_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// How many connections the daemon holds open now.
static inline unsigned int wardrobe_mhd_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}
#endif
