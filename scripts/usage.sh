# Sourced by the scripts that take no arguments (demo, setup, test):
#   source scripts/usage.sh "USAGE" "$@"
# A lone -h or --help prints the usage on stdout and exits 0; any other
# argument is named on stderr with the usage, exit 2 (the convention of
# every sysnode command, docs/user-guide.md "Exit statuses"), before the script does
# anything.
if [ $# -gt 1 ]; then
    if [ $# -eq 2 ] && { [ "$2" = -h ] || [ "$2" = --help ]; }; then
        echo "usage: $1"
        exit 0
    fi
    unknown=$2
    { [ "$2" = -h ] || [ "$2" = --help ]; } && unknown=$3
    echo "${1%% *}: unknown argument '$unknown'" >&2
    echo "usage: $1" >&2
    exit 2
fi
