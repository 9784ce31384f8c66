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

.PHONY: all setup build run samples samples-large test test-release fuzz bench bench-quick clean help

all: build

help:
	@echo "make run     open the default sample store in the coredata browser"
	@echo "make samples regenerate the committed small samples in SampleStores/"
	@echo "make samples-large  generate the large samples into SampleStores/large (not committed)"
	@echo "make test    install missing packages, build, run every test"
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

test-release: setup
	$(SWIFT) test -c release

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
	rm -rf .build Benchmarks/.build
