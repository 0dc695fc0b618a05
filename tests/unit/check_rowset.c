/* check_rowset.c -- the packed-row set (rowset.c) against a naive
 * reference written here: the distinct rows in a plain array, found by
 * a linear scan, numbered in the order they first came.  Random rows
 * from a fixed seed over few values (so that most repeat) and several
 * widths, with a clear in the middle; many distinct rows through a dozen
 * doublings of the index; and the out-of-ids limit with a small cap, in
 * a child process (it ends the process with status 4).
 */
#include <config.h>

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/splitmix.h"
#include "machine/rowset.h"
#include "suites.h"

/* ---- the reference ----------------------------------------------------- */

typedef struct {
	size_t width, n;
	int64_t *rows; /* room for as many rows as the test adds */
} Naive;

/* The id of row, added when new (*added set). */
static uint32_t naive_add(Naive *v, const int64_t *row, bool *added)
{
	size_t bytes = v->width * sizeof *row;
	for (size_t i = 0; i < v->n; i++)
		if (memcmp(v->rows + i * v->width, row, bytes) == 0) {
			*added = false;
			return (uint32_t)i;
		}
	memcpy(v->rows + v->n * v->width, row, bytes);
	*added = true;
	return (uint32_t)v->n++;
}

/* ---- against the reference --------------------------------------------- */

enum { RANDOM_ADDS = 6000 };

/* Adds `adds` random rows of values 0..spread-1 to both, comparing. */
static void add_random(RowSet *r, Naive *v, uint64_t *seed, size_t adds,
		       uint64_t spread)
{
	int64_t row[8];
	for (size_t k = 0; k < adds; k++) {
		for (size_t j = 0; j < r->width; j++)
			row[j] = (int64_t)(splitmix64_next(seed) % spread) - 1;
		bool got_added, want_added;
		uint32_t got = rowset_add(r, row, &got_added);
		uint32_t want = naive_add(v, row, &want_added);
		if (got != want || got_added != want_added || r->n != v->n ||
		    memcmp(rowset_row(r, got), row, r->width * sizeof *row))
			ck_abort_msg("add %zu: id %u (added %d), the reference "
				     "%u (added %d)", k, (unsigned)got,
				     got_added, (unsigned)want, want_added);
	}
}

/* Width 1 + _i % 5; values spread so that rows repeat (all of width 1
 * come back many times, few of width 5 do). */
START_TEST(rowset_matches_naive)
{
	size_t width = 1 + (size_t)_i % 5;
	uint64_t seed = 0x5eed0000u + (uint64_t)_i;
	uint64_t spread = (uint64_t)(_i % 3 == 0 ? 3 : 40);
	RowSet r;
	rowset_init(&r, width);
	Naive v = {width, 0, malloc(RANDOM_ADDS * width * sizeof(int64_t))};
	add_random(&r, &v, &seed, RANDOM_ADDS / 2, spread);
	ck_assert_uint_gt(r.n, 0);
	/* A clear forgets every row: ids count from 0 again. */
	rowset_clear(&r);
	v.n = 0;
	add_random(&r, &v, &seed, RANDOM_ADDS / 2, spread);
	/* Every row is found again under its id. */
	for (size_t i = 0; i < v.n; i++) {
		bool added;
		if (rowset_add(&r, v.rows + i * width, &added) != i || added)
			ck_abort_msg("row %zu is not found again", i);
	}
	free(v.rows);
	rowset_free(&r);
}
END_TEST

/* ---- growth ------------------------------------------------------------ */

enum { MANY = 300000 };

static void many_row(int64_t *row, size_t i)
{
	row[0] = (int64_t)i;
	row[1] = -(int64_t)(i * 7);
	row[2] = (int64_t)(i >> 3); /* equal high words: shared prefixes */
}

START_TEST(rowset_grows)
{
	RowSet r;
	rowset_init(&r, 3);
	size_t first_slots = r.mask + 1, doublings = 0, slots = first_slots;
	int64_t row[3];
	for (size_t i = 0; i < MANY; i++) {
		many_row(row, i);
		bool added;
		if (rowset_add(&r, row, &added) != i || !added)
			ck_abort_msg("row %zu: not new, or another id", i);
		if (r.mask + 1 != slots) {
			ck_assert_uint_eq(r.mask + 1, 2 * slots);
			slots = r.mask + 1;
			doublings++;
		}
		/* Never more than half full. */
		if (2 * r.n > r.mask + 1)
			ck_abort_msg("%zu rows in %zu slots", r.n, r.mask + 1);
	}
	ck_assert_uint_ge(doublings, 10);
	for (size_t i = MANY; i-- > 0;) {
		many_row(row, i);
		bool added;
		if (rowset_add(&r, row, &added) != i || added ||
		    memcmp(rowset_row(&r, i), row, sizeof row))
			ck_abort_msg("row %zu is not found again", i);
	}
	/* A clear keeps the grown index, and the set works on. */
	rowset_clear(&r);
	ck_assert_uint_eq(r.mask + 1, slots);
	many_row(row, 5);
	bool added;
	ck_assert_uint_eq(rowset_add(&r, row, &added), 0);
	ck_assert(added);
	rowset_free(&r);
}
END_TEST

/* ---- out of ids -------------------------------------------------------- */

enum { CAP = 100, CHILD_WRONG = 9 };

/* In the child: CAP rows fit, a known row is still found at the cap,
 * the next new row ends the process (status 4, from rowset_add). */
static void fill_past_cap(void)
{
	RowSet r;
	rowset_init(&r, 2);
	r.max_ids = CAP;
	r.advice = "use more ranks";
	bool added;
	for (int64_t i = 0; i < CAP; i++) {
		int64_t row[2] = {i, i};
		if (rowset_add(&r, row, &added) != (uint32_t)i || !added)
			_exit(CHILD_WRONG);
	}
	int64_t known[2] = {7, 7}, fresh[2] = {CAP, CAP};
	if (rowset_add(&r, known, &added) != 7 || added)
		_exit(CHILD_WRONG);
	rowset_add(&r, fresh, &added);
	_exit(CHILD_WRONG); /* not reached: the add above exits */
}

START_TEST(rowset_out_of_ids)
{
	int err[2];
	ck_assert_int_eq(pipe(err), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(err[0]);
		dup2(err[1], STDERR_FILENO);
		fill_past_cap();
	}
	close(err[1]);
	char msg[512];
	size_t len = 0;
	ssize_t got;
	while (len < sizeof msg - 1 &&
	       (got = read(err[0], msg + len, sizeof msg - 1 - len)) > 0)
		len += (size_t)got;
	msg[len] = '\0';
	close(err[0]);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 4);
	ck_assert_str_eq(msg, "tally: limit: more than 100 distinct states in "
			      "one table (its ids are 32-bit); use more "
			      "ranks\n");
}
END_TEST

Suite *rowset_suite(void)
{
	Suite *su = suite_create("rowset");
	TCase *tc = tcase_create("rowset");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, rowset_matches_naive, 0, 15);
	tcase_add_test(tc, rowset_grows);
	tcase_add_test(tc, rowset_out_of_ids);
	suite_add_tcase(su, tc);
	return su;
}
