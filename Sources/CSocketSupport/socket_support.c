// Linux's own tcp_info (linux/tcp.h) has tcpi_bytes_received; Glibc's (netinet/tcp.h),
// which Swift's Glibc module brings, does not, and the two cannot meet in one module.
#include "CSocketSupport.h"
#include <stddef.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/tcp.h>

uint64_t wardrobe_socket_bytes_received(int socket) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0
        || length < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) {
        return 0;
    }
    return info.tcpi_bytes_received;
}

int wardrobe_socket_bytes_unread(int socket) {
    int unread = 0;
    return ioctl(socket, FIONREAD, &unread) == 0 ? unread : 0;
}
