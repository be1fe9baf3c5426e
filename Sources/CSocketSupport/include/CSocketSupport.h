// What Linux says of a TCP socket that Swift cannot ask through Glibc.
#ifndef CSOCKETSUPPORT_H
#define CSOCKETSUPPORT_H
#include <stdint.h>

/// The bytes the kernel has received on a TCP socket from its peer (tcp_info's
/// tcpi_bytes_received, Linux 4.1 and later), or 0 when it cannot say.
uint64_t wardrobe_socket_bytes_received(int socket);

/// The bytes received on a socket that no one has read from it yet (FIONREAD), or 0 when it
/// cannot say. ioctl is variadic, which Swift cannot call.
int wardrobe_socket_bytes_unread(int socket);
#endif
