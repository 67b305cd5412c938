// SPDX-License-Identifier: MIT
/*
 * The main() of a KUnit test program: a file of suites has none of its own.
 * In its own object, so that a program with a main() of its own can still
 * link the runner and call irqkit_kunit_main().
 */
#include <kunit/test.h>

int main(int argc, char **argv)
{
	return irqkit_kunit_main(argc, argv);
}
