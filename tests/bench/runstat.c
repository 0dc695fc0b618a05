/* runstat -- run a command and report its wall time and peak memory.
 *
 * runstat -o FILE COMMAND [ARG...] runs COMMAND with the caller's stdin
 * and stdout and writes one line to FILE: wall seconds, user+system
 * seconds, peak resident set size in KiB (getrusage of the child), exit
 * status.  A separate output file keeps the figures apart from whatever
 * the command prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 4 || strcmp(argv[1], "-o") != 0) {
		fprintf(stderr, "usage: runstat -o FILE COMMAND [ARG...]\n");
		return 2;
	}
	FILE *out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		perror(argv[3]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	int code = WIFEXITED(status) ? WEXITSTATUS(status)
				     : 128 + WTERMSIG(status);
	fprintf(out, "%.3f %.4f %ld %d\n", wall,
		seconds(ru.ru_utime) + seconds(ru.ru_stime), ru.ru_maxrss,
		code);
	return fclose(out) == 0 ? 0 : 2;
}
