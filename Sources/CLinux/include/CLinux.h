// Linux headers the Swift Glibc module does not include: epoll, eventfd,
// and accept4 (a GNU extension).
#ifndef LOADERD_CLINUX_H
#define LOADERD_CLINUX_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>

// The epoll event bits as plain constants (the header's enum is awkward
// to use from Swift).
static const unsigned int CLINUX_EPOLLIN = EPOLLIN;
static const unsigned int CLINUX_EPOLLOUT = EPOLLOUT;
static const unsigned int CLINUX_EPOLLERR = EPOLLERR;
static const unsigned int CLINUX_EPOLLHUP = EPOLLHUP;
static const unsigned int CLINUX_EPOLLRDHUP = EPOLLRDHUP;
static const unsigned int CLINUX_EPOLLEXCLUSIVE = EPOLLEXCLUSIVE;

// accept4's address argument is a transparent union under _GNU_SOURCE,
// which Swift cannot pass; this wrapper takes a plain pointer.
static inline int clinux_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

#endif
