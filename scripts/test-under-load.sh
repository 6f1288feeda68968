#!/usr/bin/env bash
# Runs jest (default: the whole suite) while one CPU-bound process per core runs beside it,
# so that a test whose outcome depends on the machine's speed shows up here rather than on a
# busy CI runner. The load is killed however jest ends; the exit code is jest's.
#
#   bash scripts/test-under-load.sh                      # the whole suite
#   bash scripts/test-under-load.sh --silent test/api/pacing.test.ts
set -u
cd "$(dirname "$0")/.."

load=()
stop_load() {
	if [ ${#load[@]} -gt 0 ]; then
		kill "${load[@]}" 2>/dev/null
		wait "${load[@]}" 2>/dev/null
	fi
	load=()
}
trap stop_load EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cores=$(nproc)
for _ in $(seq "$cores"); do
	node -e 'for (;;) {}' &
	load+=("$!")
done
echo "test-under-load: ${cores} busy process(es) beside jest: ${load[*]}" >&2

npx jest "$@"
status=$?
stop_load
exit "$status"
