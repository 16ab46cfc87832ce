#!/bin/sh
# capped.sh [--print] <limit> <binary> [args...]: runs <binary> in a memory cgroup of
# <limit> bytes (K/M/G suffixes) when this shell may create one (root, cgroup v1 memory
# controller or cgroup v2), so that a benchmark's operator cannot exhaust the machine; the
# process keeps its PID (exec). With --print, prints the command that does it (this script
# with its arguments) for a Makefile, or the bare binary when no cgroup can be made.
set -eu
print=false
if [ "${1:-}" = --print ]; then print=true; shift; fi
limit=$1 bin=$2; shift 2
dir=
if [ -w /sys/fs/cgroup/memory ]; then
	dir=/sys/fs/cgroup/memory/lookout-bench; file=memory.limit_in_bytes
elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	dir=/sys/fs/cgroup/lookout-bench; file=memory.max
fi
if $print; then
	if [ -n "$dir" ]; then echo "$(cd "$(dirname "$0")" && pwd)/capped.sh $limit $bin"; else echo "$bin"; fi
	exit 0
fi
if [ -n "$dir" ]; then
	mkdir -p "$dir"
	case $limit in
	*K) bytes=$(( ${limit%K} * 1024 )) ;;
	*M) bytes=$(( ${limit%M} * 1048576 )) ;;
	*G) bytes=$(( ${limit%G} * 1073741824 )) ;;
	*) bytes=$limit ;;
	esac
	echo "$bytes" > "$dir/$file"
	echo $$ > "$dir/cgroup.procs"
fi
exec "$bin" "$@"
