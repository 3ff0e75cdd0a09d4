/* The main() of every cmocka test program: one place for the group's run. */
#ifndef SN_TESTS_CMOCKA_MAIN_H
#define SN_TESTS_CMOCKA_MAIN_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

/* SN_TEST_MAIN(group_setup, group_teardown, test...): main() runs the
 * cmocka_unit_test entries given, in order, between the group's setup and
 * teardown (NULL for none); exit status is cmocka's count of failures. */
#define SN_TEST_MAIN(group_setup, group_teardown, ...)                     \
    int main(void)                                                         \
    {                                                                      \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                   \
        return cmocka_run_group_tests(tests, group_setup, group_teardown); \
    }

#endif
