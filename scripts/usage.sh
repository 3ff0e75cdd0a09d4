# Sourced by the scripts that take no arguments (demo, setup, test):
#   source scripts/usage.sh "USAGE" "$@"
# A lone -h or --help prints the usage on stdout and exits 0; any other
# argument prints it on stderr and exits 2 (the convention of every sysnode
# command, README "Quick start"), before the script does anything.
if [ $# -gt 1 ]; then
    if [ $# -eq 2 ] && { [ "$2" = -h ] || [ "$2" = --help ]; }; then
        echo "usage: $1"
        exit 0
    fi
    echo "usage: $1" >&2
    exit 2
fi
