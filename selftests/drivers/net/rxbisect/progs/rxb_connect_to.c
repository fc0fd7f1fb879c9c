// SPDX-License-Identifier: GPL-2.0
/*
 * rxb_connect_to.so: an LD_PRELOAD shim that points a program's TCP
 * connections to the local host at the wire instead, for
 * tls_kselftest.sh: a connect() to 0.0.0.0 or 127.0.0.1 (IPv4) goes to the
 * address in RXB_CONNECT_TO, and one to :: or ::1 (IPv6) to the address in
 * RXB_CONNECT_TO6, same port.  The kernel's tls selftest
 * (tools/testing/selftests/net/tls.c) connects each socket pair to the
 * listener's 0.0.0.0:port, which the kernel routes over the loopback; with
 * the pair's two addresses on two ports of one namespace and routing that
 * sends local traffic out of the other port (tls_kselftest.sh), the same
 * test then runs over those ports' NICs, unmodified.  Unset or invalid
 * variables leave connect() as it is.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	static connect_fn real;
	struct sockaddr_in6 in6;
	struct sockaddr_in in;
	const char *to;

	if (!real)
		real = (connect_fn)dlsym(RTLD_NEXT, "connect");
	if (addr && addr->sa_family == AF_INET && len >= sizeof(in)) {
		memcpy(&in, addr, sizeof(in));
		to = getenv("RXB_CONNECT_TO");
		if ((in.sin_addr.s_addr == htonl(INADDR_ANY) ||
		     in.sin_addr.s_addr == htonl(INADDR_LOOPBACK)) &&
		    to && inet_pton(AF_INET, to, &in.sin_addr) == 1)
			return real(fd, (struct sockaddr *)&in, sizeof(in));
	} else if (addr && addr->sa_family == AF_INET6 && len >= sizeof(in6)) {
		memcpy(&in6, addr, sizeof(in6));
		to = getenv("RXB_CONNECT_TO6");
		if ((IN6_IS_ADDR_UNSPECIFIED(&in6.sin6_addr) ||
		     IN6_IS_ADDR_LOOPBACK(&in6.sin6_addr)) &&
		    to && inet_pton(AF_INET6, to, &in6.sin6_addr) == 1)
			return real(fd, (struct sockaddr *)&in6, sizeof(in6));
	}
	return real(fd, addr, len);
}
