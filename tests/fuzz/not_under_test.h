/* NOT_UNDER_TEST marks a fuzz harness's own checks: no coverage callbacks
 * (they would count the harness's branches as paths found, and they cost a
 * third of fuzz_table's time on every byte of its JSON), and never inlined
 * into an instrumented caller, whose callbacks it would take on. */
#ifndef SN_FUZZ_NOT_UNDER_TEST_H
#define SN_FUZZ_NOT_UNDER_TEST_H

#define NOT_UNDER_TEST __attribute__((no_sanitize("coverage"), noinline))

#endif
