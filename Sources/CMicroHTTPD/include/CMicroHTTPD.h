// GNU libmicrohttpd from libmicrohttpd-dev, loaded when `wardrobe serve` first needs it, not
// at every start (CLazyLibrary says why).
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Loads libmicrohttpd (libmicrohttpd.so.12), once per process. Returns 1 when it is ready;
/// else 0, with `*problem` (when given) saying why in one line. An MHD_ or wardrobe_mhd_
/// function called when it cannot be loaded stops the process, so `serve` asks this first.
int wardrobe_load_libmicrohttpd(const char **problem);

// MHD_start_daemon, MHD_get_connection_info and MHD_get_daemon_info are variadic, which Swift
// cannot call; these pass the options wardrobe uses, in one fixed shape.

/// What MHD_OPTION_UNESCAPE_CALLBACK takes: decodes `text` in place, returns its new length.
typedef size_t (*wardrobe_mhd_unescaper)(void *context, struct MHD_Connection *connection, char *text);

/// What MHD_OPTION_URI_LOG_CALLBACK takes: sees the request's target as it came, before any decoding.
typedef void *(*wardrobe_mhd_uri_logger)(void *context, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with its own pool of `threads` worker threads bound to
/// `address`, with caps on connections (in all and per client address), idle
/// time and per-connection memory (which bounds the request line and headers).
/// `accept` decides on each new connection before it is served (NO closes it);
/// `completed` runs once per request after its response was sent or the
/// connection failed; `notify` when a connection opens and when it closes;
/// `logURI` sees each request's target before it is decoded; `unescape` decodes
/// the path and the query's names and values.
struct MHD_Daemon *wardrobe_mhd_start(unsigned int flags, const struct sockaddr *address, unsigned int threads,
                                      unsigned int connection_limit, unsigned int per_address_limit,
                                      unsigned int timeout_seconds, size_t memory_limit,
                                      MHD_AcceptPolicyCallback accept, void *accept_context,
                                      MHD_AccessHandlerCallback handler, void *handler_context,
                                      MHD_RequestCompletedCallback completed, void *completed_context,
                                      MHD_NotifyConnectionCallback notify, void *notify_context,
                                      wardrobe_mhd_uri_logger log_uri, void *log_context,
                                      wardrobe_mhd_unescaper unescape);

/// A connection's socket; -1 if unknown.
int wardrobe_mhd_connection_socket(struct MHD_Connection *connection);

/// The port the daemon listens on (the one the system picked for port 0); 0 if unknown.
uint16_t wardrobe_mhd_bound_port(struct MHD_Daemon *daemon);

/// How many connections the daemon holds open now.
unsigned int wardrobe_mhd_connection_count(struct MHD_Daemon *daemon);
#endif
