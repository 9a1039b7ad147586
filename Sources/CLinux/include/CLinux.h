// Linux headers the Swift Glibc module does not include (epoll, eventfd),
// and accept4, a GNU extension wrapped in shim.c so that this header needs
// no _GNU_SOURCE (which would change libc types other modules share).
#ifndef LOADERD_CLINUX_H
#define LOADERD_CLINUX_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// The epoll event bits as plain constants (the header's enum is awkward
// to use from Swift).
static const unsigned int CLINUX_EPOLLIN = EPOLLIN;
static const unsigned int CLINUX_EPOLLOUT = EPOLLOUT;
static const unsigned int CLINUX_EPOLLERR = EPOLLERR;
static const unsigned int CLINUX_EPOLLHUP = EPOLLHUP;
static const unsigned int CLINUX_EPOLLRDHUP = EPOLLRDHUP;
static const unsigned int CLINUX_EPOLLEXCLUSIVE = EPOLLEXCLUSIVE;

/// accept4(2).
int clinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// malloc_trim(3): give freed heap back to the system.
int clinux_malloc_trim(void);

#endif
