# Thin front end over CMake: `make run` and `make test` are all a user needs.
BUILD ?= build
SANITIZE_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# `make install PREFIX=DIR` (DESTDIR=... is honoured too, for packaging).
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
# Packages carried to an offline machine (scripts/unpack-deps.sh, run by the
# deps step) are found there; evaluated when the recipe runs, after deps.
CARRIED = $$([ -d .deps/root/usr ] && echo -DCMAKE_PREFIX_PATH=$(CURDIR)/.deps/root/usr)

CONFIGURE = cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CARRIED) $(CMAKE_FLAGS) >/dev/null
# cmake --build runs make again: its "Entering directory" lines are noise.
MAKEFLAGS += --no-print-directory

.PHONY: all deps build run test test-sanitize install clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	@$(CONFIGURE)
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: multiply, verify and time on the default device. Only the
# tool is built, its output kept in a log (shown when the build fails).
run: deps
	@$(CONFIGURE)
	@echo "building $(BUILD)/gemmkit (log: $(BUILD)/build-run.log)"
	@cmake --build $(BUILD) -j $(JOBS) --target gemmkit_cli >$(BUILD)/build-run.log 2>&1 || \
		{ cat $(BUILD)/build-run.log; exit 1; }
	$(BUILD)/gemmkit bench

# The suite, then the same suite built with AddressSanitizer + UBSan.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-sanitize

# Options and suppressions come from tests/sanitizers/ (docs/RELIABILITY.md).
test-sanitize: deps
	@cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGEMMKIT_SANITIZE=ON $(CARRIED) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	tests/sanitizers/ctest_sanitize.sh $(SANITIZE_BUILD) $(JOBS)

# The libraries, headers, the tool, gemmkit.pc and the CMake package
# (cmake/install.cmake); only what is installed gets built.
install: deps
	@$(CONFIGURE)
	@cmake --build $(BUILD) -j $(JOBS) --target gemmkit gemmkit_static gemmkit_cli
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
