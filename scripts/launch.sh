#!/bin/sh
# How the engine is started wherever it runs: `npm start`, `npm run dev`/`api`/`worker`/`migrate`, the image's CMD,
# the integration tests' engines (test/helpers/stack.ts), the chaos cluster and the benches all run
# `sh scripts/launch.sh <entry>.js <role>`, so these options are the engine's in one place (docs/configuration.md).
# Arguments before the entry are Node options of the caller's, after these (a later V8 flag wins).
# exec: the engine takes this shell's process, its pid and its signals (the image's PID 1).

# Two malloc arenas instead of one per thread (the SDK's Rust threads, libuv's pool): about 35 MB less RSS.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
# V8 collects the old generation at 1.3x the live heap instead of ~4x, and its young generation's semi-spaces
# are 4 MB instead of 16: a day's reconciliation stays under 300 MB. Process-wide: a worker thread has them
# too, and Node refuses them in a Worker's execArgv.
exec node --heap-growing-percent=30 --max-semi-space-size=4 "$@"
