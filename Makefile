# OpenCoreData — build, run and test. `make run` and `make test` work on a fresh Debian machine:
# `setup` installs the system packages the build needs when they are missing.

SWIFT        ?= swift
CONFIG       ?= debug
APT_PACKAGES := libsqlite3-dev libncurses-dev libreadline-dev zlib1g-dev libssl-dev pkg-config sqlite3 tmux
SAMPLE_STORE := SampleStores/Recipes/Recipes.sqlite
CODEDATA_BIN  = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path)/coredata

FUZZ_TIME       ?= 60
FUZZ_ITERATIONS ?= 200000
FUZZ_TARGETS    := predicate bplist xmlplist archive modelcache contents elements inference sanitizer
FUZZ_DIR        := .build-fuzz

.PHONY: all setup build run samples samples-large test test-browser-large test-release stress test-sanitize test-asan test-tsan test-hostile fuzz bench bench-quick clean help

all: build

help:
	@echo "make run     open the default sample store in the coredata browser"
	@echo "make samples regenerate the committed small samples in SampleStores/"
	@echo "make samples-large  generate the large samples into SampleStores/large (not committed)"
	@echo "make test    install missing packages, build, run every test"
	@echo "make stress  the crash and fault harness at length (OCD_KILLS=1000 kills, more faults, 100 killed migrations; OCD_SEED=n to vary)"
	@echo "make test-sanitize  the suite under AddressSanitizer, then ThreadSanitizer (test-asan, test-tsan; not in make test)"
	@echo "make test-hostile   the long hostile-store corpus: every page truncated and zeroed, a 256 MB BLOB"
	@echo "make test-browser-large  the browser's end-to-end walk on 1,000,000 quakes (sort, G, D, F; minutes)"
	@echo "make build   build the library and the coredata tool"
	@echo "make fuzz    libFuzzer on every fuzz target, FUZZ_TIME seconds each (default 60); the seeded"
	@echo "             generator for FUZZ_ITERATIONS mutants each if libFuzzer cannot be built; findings in .build-fuzz/"
	@echo "make bench   run the benchmark suite (Benchmarks/, docs/BENCHMARKS.md)"
	@echo "make bench-quick  the same on reduced sizes, under two minutes once built"
	@echo "make setup   install the apt packages the build needs"

# Installs only what is missing, so it costs nothing on a prepared machine.
setup:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: setup
	$(SWIFT) build -c $(CONFIG)

# Opens the default sample store in the terminal browser (read-only; :edit or --edit to change it).
run: build
	$(CODEDATA_BIN) browse $(SAMPLE_STORE)

# Regenerates the committed samples with the documented seed (SampleStores/README.md); --force replaces them.
samples: build
	$(CODEDATA_BIN) samples --size small --force

samples-large: build
	$(CODEDATA_BIN) samples --size large --out SampleStores/large

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The crash and fault harness of `make test` (50 kills, 3 runs per fault), at length. Sizes and seed can be given:
# make stress OCD_KILLS=5000 OCD_SEED=7.
OCD_KILLS      ?= 1000
OCD_FAULT_RUNS ?= 40
OCD_SEED       ?= 16
stress: setup
	$(SWIFT) build --build-tests
	OCD_KILLS=$(OCD_KILLS) OCD_FAULT_RUNS=$(OCD_FAULT_RUNS) OCD_SEED=$(OCD_SEED) \
	  $(SWIFT) test --skip-build --filter "CrashHarnessTests|CrashSafetyTests|HotJournalTests|InterruptedSaveCommandTests|MemoryLimitCommandTests|MigrationKillTests"

test-release: setup
	$(SWIFT) test -c release

# Sanitizers: each builds into its own scratch path (the plain .build stays as it is) and runs every test, the
# command-line and tmux tests on the sanitized `coredata` too (COREDATA_BIN). Not part of `make test`: each build takes
# as long as the plain one and the run is several times slower.
# AddressSanitizer runs with leak detection off: the Swift runtime and Foundation keep metadata caches, interned
# strings and queue state for the life of the process, which LeakSanitizer reports at exit as leaks; they are not
# memory errors, and suppressing them by frame would hide our own. Overflows, use-after-free and double frees abort.
# Tests/asan-suppressions.txt says why each of its entries (defects outside our code) is there.
ASAN_SCRATCH := .build-asan
TSAN_SCRATCH := .build-tsan

test-sanitize: test-asan test-tsan

test-asan: setup
	$(SWIFT) build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH)
	COREDATA_BIN=$(CURDIR)/$(ASAN_SCRATCH)/debug/coredata TERMINAL_DEMO_BIN=$(CURDIR)/$(ASAN_SCRATCH)/debug/terminal-demo \
	  OCD_SANITIZER=address OCD_TIMEOUT_SCALE=5 ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1:suppressions=$(CURDIR)/Tests/asan-suppressions.txt \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH)

# ThreadSanitizer exits non-zero (66) when it reported any race, so a clean pass means no report at all.
# Tests/tsan-suppressions.txt says why each of its entries is there.
test-tsan: setup
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	COREDATA_BIN=$(CURDIR)/$(TSAN_SCRATCH)/debug/coredata TERMINAL_DEMO_BIN=$(CURDIR)/$(TSAN_SCRATCH)/debug/terminal-demo \
	  OCD_SANITIZER=thread OCD_TIMEOUT_SCALE=5 TSAN_OPTIONS=suppressions=$(CURDIR)/Tests/tsan-suppressions.txt \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH)

# The long hostile-store corpus (Tests/CoreDataTestSupport/HostileStoreCorpus.swift); make test runs the short one.
# The browser's end-to-end walk on the large Earthquakes sample (1,000,000 quakes, generated into a temporary folder).
test-browser-large: setup
	$(SWIFT) build --build-tests
	BROWSER_LARGE=1 $(SWIFT) test --skip-build --filter 'LargeStoreEndToEndTests'

test-hostile: setup
	$(SWIFT) build --build-tests
	HOSTILE_CORPUS_LONG=1 $(SWIFT) test --skip-build --filter 'HostileStore'

# Long fuzzing (the short runs are part of `make test`). Seeds: our samples, our seed files and a copy of the
# fixtures when ../shared/fixtures exists (never the originals). libFuzzer needs its own build (-sanitize=fuzzer
# instruments every module), kept in .build-fuzz; crashes land in .build-fuzz/crashes/.
fuzz: setup
	$(SWIFT) build --product coredata-fuzz
	rm -rf $(FUZZ_DIR)/seed-sources && mkdir -p $(FUZZ_DIR)/seed-sources $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	if [ -d ../shared/fixtures ]; then cp -R ../shared/fixtures/stores ../shared/fixtures/models $(FUZZ_DIR)/seed-sources/; fi
	$$($(SWIFT) build --show-bin-path)/coredata-fuzz export-seeds $(FUZZ_DIR)/corpus SampleStores Tests/FuzzTargetsTests/Seeds $(FUZZ_DIR)/seed-sources
	@if $(SWIFT) build --scratch-path $(FUZZ_DIR) -c release --product coredata-fuzz \
	      -Xswiftc -sanitize=fuzzer -Xswiftc -DLIBFUZZER; then \
	  for target in $(FUZZ_TARGETS); do \
	    echo "== libFuzzer: $$target ($(FUZZ_TIME) s)"; \
	    FUZZ_TARGET=$$target $(FUZZ_DIR)/release/coredata-fuzz $(FUZZ_DIR)/corpus/$$target \
	      -dict=$(FUZZ_DIR)/corpus/$$target.dict -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
	      -artifact_prefix=$(FUZZ_DIR)/crashes/$$target- -print_final_stats=1 > $(FUZZ_DIR)/$$target.log 2>&1; \
	    status=$$?; grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done )" $(FUZZ_DIR)/$$target.log; \
	    if [ $$status -ne 0 ]; then tail -60 $(FUZZ_DIR)/$$target.log; exit 1; fi; \
	  done; \
	else \
	  echo "libFuzzer (-sanitize=fuzzer) could not be built: running the seeded generator instead"; \
	  $$($(SWIFT) build --show-bin-path)/coredata-fuzz all $(FUZZ_ITERATIONS) 16 SampleStores Tests/FuzzTargetsTests/Seeds $(FUZZ_DIR)/seed-sources; \
	fi

# The suite is a package of its own (GRDB stays out of the main build); it writes Benchmarks/results/latest.json.
bench: setup
	cd Benchmarks && $(SWIFT) run -c release Benchmarks

bench-quick: setup
	cd Benchmarks && $(SWIFT) run -c release Benchmarks --quick

clean:
	rm -rf .build .build-asan .build-tsan Benchmarks/.build
