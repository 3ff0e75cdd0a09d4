#!/bin/sh
# expect_ok.sh PATTERN COMMAND [ARGS...]: expect.sh ok.
exec "$(dirname "$0")/expect.sh" ok "$@"
