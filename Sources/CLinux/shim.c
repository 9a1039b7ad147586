#define _GNU_SOURCE
#include <malloc.h>
#include <sys/socket.h>
#include "CLinux.h"

int clinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

int clinux_malloc_trim(void) {
    return malloc_trim(0);
}
