#!/bin/sh
# expect_fail.sh PATTERN COMMAND [ARGS...]: expect.sh fail.
exec "$(dirname "$0")/expect.sh" fail "$@"
