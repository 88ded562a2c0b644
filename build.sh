#!/usr/bin/env bash
# kubeplay's build: `./build.sh build` makes dist/, `./build.sh serve` builds
# and serves it with the native API, `./build.sh test` runs every test.
set -euo pipefail
cd "$(dirname "$0")"

GO=${GO:-go}
export CGO_ENABLED=0

build_native() {
	mkdir -p bin
	$GO build -o bin/kubeplay ./cmd/kubeplay
}

build_site() {
	rm -rf dist
	mkdir -p dist
	cp index.html dist/
	if [ -d wasm ] && ls wasm/*.go >/dev/null 2>&1; then
		# kubeplay's own packages are compiled without inlining for the page:
		# 11% less to download (gzip), at no CPU cost measurable here.
		GOOS=js GOARCH=wasm $GO build -gcflags='kubeplay/...=-l' -ldflags='-s -w' -trimpath -o dist/kubeplay.wasm ./wasm
		# Tracebacks in the page name functions without file and line
		# (those tables are 7% of the download); forward jumps become
		# direct branches and addresses are computed in 32 bits (6% less
		# to download, the engine about 15% faster under Node).
		$GO run ./tools/postlink dist/kubeplay.wasm
		# The lessons come beside it, fetched while the engine starts.
		$GO run ./tools/lessonpack dist/lessons.bin
		cp "$($GO env GOROOT)/lib/wasm/wasm_exec.js" dist/ 2>/dev/null || cp "$($GO env GOROOT)/misc/wasm/wasm_exec.js" dist/
	fi
	bundle_js
	# kubeplay serve sends FILE.br / FILE.gz to browsers that accept them.
	$GO run ./tools/precompress -cache "${XDG_CACHE_HOME:-$HOME/.cache}/kubeplay-precompress" \
		$(find dist -maxdepth 1 -type f \( -name '*.wasm' -o -name '*.bin' -o -name '*.js' -o -name '*.css' -o -name '*.html' \))
}

# bundle_js bundles the page's JavaScript and CSS (xterm.js, CodeMirror and
# playground/web/) into dist/app.js and dist/app.css, and load.js (which
# starts the engine's download from the head) and worker.js (the engine's
# thread) beside them, with esbuild, all
# pinned by package-lock.json.
bundle_js() {
	# A worktree links node_modules to the main checkout's: npm ci would
	# empty that shared folder (a fresh checkout's lock file looks newer),
	# so a linked folder is used as it is.
	if [ ! -x node_modules/.bin/esbuild ] || { [ ! -L node_modules ] && [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
		command -v npm >/dev/null || { echo "npm is required to bundle the page (Node.js 18 or later)"; return 1; }
		npm ci --no-audit --no-fund --loglevel=error
	fi
	node_modules/.bin/esbuild playground/web/app.js playground/web/load.js --bundle --minify --target=es2020 \
		--format=esm --splitting --outdir=dist --chunk-names='[name]-[hash]' \
		--legal-comments=none --log-level=warning
	# The engine's worker is a classic script: it loads wasm_exec.js with
	# importScripts.
	node_modules/.bin/esbuild playground/web/worker.js --bundle --minify --target=es2020 \
		--format=iife --outfile=dist/worker.js --legal-comments=none --log-level=warning
}

cmd_build() {
	build_native
	build_site
}

cmd_serve() {
	cmd_build
	exec bin/kubeplay serve --addr "${ADDR:-127.0.0.1:${PORT:-8080}}" "$@"
}

step() { printf '\n== %s\n' "$*"; }

cmd_test() {
	local fuzztime=${FUZZTIME:-10s}
	step "gofmt"
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
	if [ -n "$unformatted" ]; then
		echo "gofmt would change: $unformatted"
		return 1
	fi
	step "go vet"
	$GO vet ./...
	step "core/ stays pure"
	if grep -rln --include='*.go' '"syscall/js"' core; then
		echo "core/ must not import syscall/js"
		return 1
	fi
	if grep -rln --include='*.go' -E 'time\.Now\(\)|time\.Since\(|time\.Sleep\(|"math/rand"' core | grep -v '_test\.go$'; then
		echo "core/ must not read the wall clock or the global random source"
		return 1
	fi
	step "core/ compiles for js/wasm"
	GOOS=js GOARCH=wasm $GO build ./core/...
	step "go test"
	$GO test -count=1 ./...
	step "core/ tests as the page runs them (js/wasm under Node, rewritten by tools/postlink)"
	local wasm_exec
	wasm_exec="$($GO env GOROOT)/lib/wasm/go_js_wasm_exec"
	[ -x "$wasm_exec" ] || wasm_exec="$($GO env GOROOT)/misc/wasm/go_js_wasm_exec"
	mkdir -p bin
	$GO build -o bin/postlink ./tools/postlink
	GOOS=js GOARCH=wasm $GO test -count=1 -exec "$PWD/bin/postlink -exec $wasm_exec" ./core/...
	step "fuzz (bounded: $fuzztime each)"
	local spec pkg fn
	for spec in $(fuzz_targets); do
		pkg=${spec%%:*}
		fn=${spec##*:}
		echo "-- $fn in $pkg"
		fuzz_one "$pkg" "$fn" "$fuzztime"
	done
	step "session transcripts (kubeplay run --check)"
	build_native
	local sessions
	sessions=$(find testdata lessons -name '*.session' 2>/dev/null | sort)
	if [ -n "$sessions" ]; then
		bin/kubeplay run --check $sessions
	fi
	step "site build"
	build_site
	step "page code vets for js/wasm"
	GOOS=js GOARCH=wasm $GO vet ./wasm ./playground
	step "browser end-to-end (headless Chromium; screenshots in dist/e2e/)"
	KUBEPLAY_E2E=1 KUBEPLAY_DIST="$PWD/dist" $GO test -count=1 -v ./e2e
	echo
	echo "all tests passed"
}

# fuzz_one runs one bounded fuzz target. Go's fuzz coordinator sometimes
# reports "context deadline exceeded" when fuzztime ends while it is still
# minimising a new interesting input; that is the toolchain, not a failing
# input, so such a run is repeated once. A real crasher fails at once.
fuzz_one() {
	local pkg=$1 fn=$2 fuzztime=$3 out attempt
	for attempt in 1 2; do
		if out=$($GO test -run='^$' -fuzz="^${fn}\$" -fuzztime="$fuzztime" -fuzzminimizetime=2s "$pkg" 2>&1); then
			printf '%s\n' "$out"
			return 0
		fi
		printf '%s\n' "$out"
		if ! grep -q 'context deadline exceeded' <<<"$out" || grep -q 'Failing input' <<<"$out"; then
			return 1
		fi
		echo "(fuzz coordinator timed out while minimising; running $fn again)"
	done
	return 1
}

# fuzz_targets lists package:FuzzName for every fuzz test in the tree.
fuzz_targets() {
	grep -rl --include='*_test.go' '^func Fuzz' core cmd lessons 2>/dev/null | sort | while read -r f; do
		local dir
		dir=./$(dirname "$f")
		grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //' | while read -r fn; do
			echo "$dir:$fn"
		done
	done
}

# cmd_perf runs the long benchmarks (not part of test): the scheduling cost
# curve (each cell's fastest of three runs), which rewrites
# docs/PERFORMANCE.md's table and docs/performance.svg,
# and the rollout and chaos runs, whose figures it prints.
cmd_perf() {
	step "scheduling cost curve"
	$GO test -run='^$' -bench='SchedulingCurve' -benchtime=1x -count=3 -benchmem -timeout=60m ./core/sim | tee /tmp/kubeplay-curve.txt
	$GO run ./tools/perfreport -md docs/PERFORMANCE.md -svg docs/performance.svg </tmp/kubeplay-curve.txt
	step "rollouts"
	$GO test -run='^$' -bench='Rollout' -benchtime=1x -benchmem -timeout=30m ./core/sim
	step "scheduler throughput at 5,000 nodes"
	$GO test -run='^$' -bench='SchedulerThroughput' -benchtime=1x -benchmem -timeout=30m ./core/sim
	perf_wasm
	step "chaos (${CHAOS_SEEDS:-200} seeds)"
	$GO test -count=1 -run='^TestChaos$' -timeout=60m ./core/sim -chaos.seeds="${CHAOS_SEEDS:-200}" -chaos.ops=80
	step "one session replayed 1,000 times"
	$GO test -count=1 -run='^TestSessionReplaysIdentically$' -timeout=30m ./core/sim -replays=1000
}

# perf_wasm runs the 10,000-pod/1,000-node benchmark natively and compiled
# to wasm under Node (Go's go_js_wasm_exec; the module rewritten by
# tools/postlink as the page's is), three times each, and prints the ratio
# of the best wall times: what the engine loses in a browser.
# A shared host's speed drifts within minutes, so it measures in rounds
# (PERF_WASM_ROUNDS, 3 by default) that each pair runs close in time.
perf_wasm() {
	step "10,000 pods on 1,000 nodes: wasm under Node against native"
	local bench='^BenchmarkScheduled10000On1000$' exec round native wasm
	exec="$($GO env GOROOT)/lib/wasm/go_js_wasm_exec"
	[ -x "$exec" ] || exec="$($GO env GOROOT)/misc/wasm/go_js_wasm_exec"
	$GO test -c -o /tmp/kubeplay-sim.test ./core/sim
	GOOS=js GOARCH=wasm $GO test -c -o /tmp/kubeplay-sim.wasm ./core/sim
	# rewritten as the page's module is
	$GO run ./tools/postlink /tmp/kubeplay-sim.wasm
	for round in $(seq "${PERF_WASM_ROUNDS:-3}"); do
		(cd core/sim && /tmp/kubeplay-sim.test -test.run='^$' -test.bench="$bench" -test.benchtime=1x -test.count=3 -test.benchmem) |
			tee /tmp/kubeplay-native.txt
		(cd core/sim && "$exec" /tmp/kubeplay-sim.wasm -test.run='^$' -test.bench="$bench" -test.benchtime=1x -test.count=3 -test.benchmem -test.timeout=60m) |
			tee /tmp/kubeplay-wasm.txt
		native=$(best_ns_per_op /tmp/kubeplay-native.txt)
		wasm=$(best_ns_per_op /tmp/kubeplay-wasm.txt)
		awk -v r="$round" -v n="$native" -v w="$wasm" 'BEGIN { printf "round %d, wasm/native: %.2fx (best of 3: native %.2f s, wasm %.2f s)\n", r, w / n, n / 1e9, w / 1e9 }'
	done
}

# best_ns_per_op prints the lowest ns/op among a benchmark output's lines.
best_ns_per_op() {
	awk '/^Benchmark/ { for (i = 2; i < NF; i++) if ($(i + 1) == "ns/op" && (best == "" || $i + 0 < best)) best = $i + 0 }
		END { print best }' "$1"
}

case "${1:-build}" in
build) cmd_build ;;
site) build_site ;;
serve) shift; cmd_serve "$@" ;;
test) cmd_test ;;
perf) cmd_perf ;;
*)
	echo "usage: ./build.sh [build|site|serve|test|perf]" >&2
	exit 2
	;;
esac
