// SPDX-License-Identifier: GPL-2.0
/* Userspace shims: the few definitions the shim headers cannot inline. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "shim.h"

long rxb_shim_live_allocs;
long rxb_shim_alloc_fail_after = -1;
long rxb_shim_alloc_injected;
long rxb_shim_warnings;
unsigned long rxb_shim_fence_word;
#ifdef RXB_SHIM_COUNT
__thread struct rxb_shim_sink *rxb_shim_sink;
#endif

/* Per-CPU data: one mutex per CPU stands for disabled preemption. */
static pthread_mutex_t rxb_shim_cpu_lock[RXB_SHIM_NR_CPUS] = {
	[0 ... RXB_SHIM_NR_CPUS - 1] = PTHREAD_MUTEX_INITIALIZER
};

static unsigned int rxb_shim_next_cpu;
static __thread int rxb_shim_cpu_id = -1;
static __thread unsigned int rxb_shim_cpu_depth;

int rxb_shim_cpu(void)
{
	if (rxb_shim_cpu_id < 0)
		rxb_shim_cpu_id = __atomic_fetch_add(&rxb_shim_next_cpu, 1,
						     __ATOMIC_RELAXED) %
				  RXB_SHIM_NR_CPUS;
	return rxb_shim_cpu_id;
}

void rxb_shim_set_cpu(int cpu)
{
	if (cpu < 0 || cpu >= RXB_SHIM_NR_CPUS || rxb_shim_cpu_depth) {
		fprintf(stderr, "BUG: %s(%d) depth %u\n", __func__, cpu,
			rxb_shim_cpu_depth);
		abort();
	}
	rxb_shim_cpu_id = cpu;
}

int rxb_shim_get_cpu(void)
{
	int cpu = rxb_shim_cpu();

	if (!rxb_shim_cpu_depth++)
		pthread_mutex_lock(&rxb_shim_cpu_lock[cpu]);
	return cpu;
}

void rxb_shim_put_cpu(void)
{
	if (!--rxb_shim_cpu_depth)
		pthread_mutex_unlock(&rxb_shim_cpu_lock[rxb_shim_cpu_id]);
}

void *rxb_shim_map_double(size_t size)
{
	int fd = memfd_create("rxb-ring", 0);
	char *va = MAP_FAILED;

	if (fd < 0 || ftruncate(fd, size))
		goto out;
	/* Reserve both halves, then put the same pages in each. */
	va = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (va == MAP_FAILED)
		goto out;
	if (mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 0) == MAP_FAILED ||
	    mmap(va + size, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(va, 2 * size);
		va = MAP_FAILED;
	}
out:
	if (fd >= 0)
		close(fd);
	return va == MAP_FAILED ? NULL : va;
}

void rxb_shim_unmap_double(void *va, size_t size)
{
	munmap(va, 2 * size);
}
