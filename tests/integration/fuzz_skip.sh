#!/bin/sh
# fuzz_skip.sh SOURCE_DIR WORKDIR: scripts/fuzz without clang, and with a
# clang that cannot link -fsanitize=fuzzer (no libFuzzer runtime), exits 77
# naming the reason, before it builds anything (cmake is not on the PATH
# given, so a build would fail otherwise); scripts/test reads 77 as skipped.
set -u
src=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/no_clang" "$work/bad_clang" || exit 1
for tool in bash dirname mktemp rm; do
    ln -s "$(command -v $tool)" "$work/no_clang/$tool" && ln -s "$(command -v $tool)" "$work/bad_clang/$tool" || exit 1
done
printf '#!/bin/sh\necho "no libFuzzer here" >&2\nexit 1\n' >"$work/bad_clang/clang" && chmod +x "$work/bad_clang/clang"
for kind in no_clang bad_clang; do
    out=$(PATH=$work/$kind "$src/scripts/fuzz" --check 2>&1)
    rc=$?
    [ $rc -eq 77 ] || fail "$kind: exit $rc, want 77: $out"
    case $kind:$out in
        no_clang:*"scripts/fuzz: skipped: clang is not installed"*) ;;
        bad_clang:*"scripts/fuzz: skipped: clang cannot link -fsanitize=fuzzer"*) ;;
        *) fail "$kind: $out" ;;
    esac
done
echo "PASS: scripts/fuzz skips (exit 77) without clang and without its libFuzzer runtime"
