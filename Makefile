# perflab — top-level build.
#
#   make deps     install build/test dependencies (apt-get, npm), extract the
#                 base kernel tree, build libperf
#   make          build every binary into build/
#   make test     build and run every test; last line "N passed, N failed, N skipped"
#   make run      the lab on one machine (perflabd + one qemu-icount runner + demo)
#   make bench    benchmarks (figures, not assertions)
#
# Layout: each directory below is a module set; every .c in it is compiled.
# A directory's main program lives in a file named after the binary; all
# other objects go into a static library so unit tests can link them.

B        := build
CC       ?= cc
CFLAGS   ?= -O2 -g
WERROR   ?= -Werror
override CFLAGS += -std=gnu11 -Wall -Wextra $(WERROR) -D_GNU_SOURCE -MMD -MP -I. -Icommon
LDFLAGS  ?=

PKGS     := libmicrohttpd sqlite3 jansson libcurl libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
SYS_LIBS   := -lm -lpthread

LIBPERF_DIR := $(B)/libperf
LINUX_SRC   := $(B)/linux-source-6.1

.PHONY: all deps test run bench clean static-bench fuzz soak check-asan format \
	kexec-host test-kexec-vm test-bisect test-lava

all: $(B)/perflabd $(B)/perflab-runner $(B)/perflab $(B)/perflab-bench $(B)/perflab-bench-static $(B)/perflab-insn.so tests

deps:
	@scripts/deps.sh

# ---- objects -------------------------------------------------------------
srcs_of = $(sort $(wildcard $(1)/*.c))
objs_of = $(patsubst %.c,$(B)/obj/%.o,$(call srcs_of,$(1)))

COMMON_OBJS := $(call objs_of,common)
DAEMON_OBJS := $(foreach l,http lab analysis store,$(call objs_of,daemon/$(l)))
RUNNER_OBJS := $(filter-out $(B)/obj/runners/runner/perflab-runner.o,$(call objs_of,runners/runner))
CLI_OBJS    := $(filter-out $(B)/obj/cli/perflab.o,$(call objs_of,cli))
BENCH_SRCS  := $(call srcs_of,runners/perflab-bench)
BENCH_OBJS  := $(filter-out $(B)/obj/runners/perflab-bench/perflab-bench.o,$(call objs_of,runners/perflab-bench)) \
	       $(B)/obj/common/opttab.o

# The bench links libperf/libapi built from the kernel tree (make deps).
BENCH_CFLAGS := -I$(LIBPERF_DIR)/include
BENCH_LIBS   := $(LIBPERF_DIR)/libperf.a $(LIBPERF_DIR)/libapi.a -luring -lelf -lm -lpthread

$(B)/obj/runners/perflab-bench/%.o: runners/perflab-bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_CFLAGS) -c -o $@ $<

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(B)/libcommon.a: $(COMMON_OBJS)
$(B)/libdaemon.a: $(DAEMON_OBJS)
$(B)/librunner.a: $(RUNNER_OBJS)
$(B)/libcli.a: $(CLI_OBJS)
$(B)/libbench.a: $(BENCH_OBJS)
$(B)/lib%.a:
	@mkdir -p $(B)
	rm -f $@
	ar rcs $@ $^

# Generated: schema migrations embedded into perflabd.
$(B)/gen/schema.c: $(sort $(wildcard schema/*.sql)) scripts/embed-schema.sh
	@mkdir -p $(dir $@)
	scripts/embed-schema.sh $@ $(sort $(wildcard schema/*.sql))
$(B)/obj/gen/schema.o: $(B)/gen/schema.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

ALL_LIBS := $(B)/libdaemon.a $(B)/librunner.a $(B)/libcli.a $(B)/libcommon.a

# ---- binaries ------------------------------------------------------------
$(B)/perflabd: $(B)/obj/daemon/perflabd.o $(B)/obj/gen/schema.o $(B)/libdaemon.a $(B)/libcommon.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(SYS_LIBS)

$(B)/perflab-runner: $(B)/obj/runners/runner/perflab-runner.o $(B)/librunner.a $(B)/libcommon.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(SYS_LIBS)

$(B)/perflab: $(B)/obj/cli/perflab.o $(B)/libcli.a $(B)/libdaemon.a $(B)/libcommon.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(SYS_LIBS)

$(B)/perflab-bench: $(B)/obj/runners/perflab-bench/perflab-bench.o $(B)/libbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(BENCH_LIBS)

# Static build for the QEMU initramfs.
static-bench: $(B)/perflab-bench-static
$(B)/perflab-bench-static: $(B)/obj/runners/perflab-bench/perflab-bench.o $(B)/libbench.a
	$(CC) -static $(LDFLAGS) -o $@ $^ $(BENCH_LIBS) -lz

# QEMU TCG plugin of the qemu-icount tier (exact instruction profiles).
# qemu-plugin.h comes from the installed QEMU's source package (make deps):
# the plugin API version must match the QEMU that loads it.
QEMU_PLUGIN_H := $(B)/src/qemu/qemu-plugin.h
$(B)/perflab-insn.so: runners/insn-plugin/insn_count.c runners/insn-plugin/cache_model.c runners/insn-plugin/cache_model.h runners/perflab-bench/insn_marker.h $(QEMU_PLUGIN_H)
	$(CC) $(CFLAGS) -fPIC -shared -I$(dir $(QEMU_PLUGIN_H)) -o $@ $(filter %.c,$^)

# ---- tests ---------------------------------------------------------------
# tests/unit/NAME.c -> build/tests/unit/NAME, linked against every library.
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRCS))
BENCH_UNIT_SRCS := $(sort $(wildcard tests/perflab-bench/*.c))
BENCH_UNIT_BINS := $(patsubst tests/perflab-bench/%.c,$(B)/tests/perflab-bench/%,$(BENCH_UNIT_SRCS))

$(B)/tests/unit/%: tests/unit/%.c $(B)/obj/gen/schema.o $(ALL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Itests -o $@ $< $(B)/obj/gen/schema.o $(UNIT_EXTRA) \
		-Wl,--start-group $(ALL_LIBS) -Wl,--end-group $(PKG_LIBS) $(SYS_LIBS)

$(B)/tests/perflab-bench/%: tests/perflab-bench/%.c $(B)/libbench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_CFLAGS) -Itests -o $@ $< $(B)/libbench.a $(BENCH_LIBS)

# The option tables' test also reads perflab-bench's (no libperf needed).
$(B)/tests/unit/opttab-tables: $(B)/obj/runners/perflab-bench/opts.o
$(B)/tests/unit/opttab-tables: UNIT_EXTRA := $(B)/obj/runners/perflab-bench/opts.o

tests: $(UNIT_BINS) $(BENCH_UNIT_BINS)

# Fuzz harnesses (tests/fuzz/fuzz-*.c). In `make test` each is linked
# with a plain driver that replays its committed corpus and past crashers;
# `make fuzz` builds them with clang's libFuzzer + ASan/UBSan and fuzzes.
FUZZ_SRCS  := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_NAMES := $(patsubst tests/fuzz/%.c,%,$(FUZZ_SRCS))
FUZZ_REPLAY_BINS := $(patsubst %,$(B)/tests/fuzz/%,$(FUZZ_NAMES))

$(B)/tests/fuzz/%: tests/fuzz/%.c tests/fuzz/replay-main.c $(B)/obj/gen/schema.o $(ALL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< tests/fuzz/replay-main.c $(B)/obj/gen/schema.o \
		-Wl,--start-group $(ALL_LIBS) -Wl,--end-group $(PKG_LIBS) $(SYS_LIBS)

tests: $(FUZZ_REPLAY_BINS)

FUZZ_B       := $(B)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_RUNS    ?= 1000000
FUZZ_SECONDS ?= 900
FUZZ_LIBS    := $(FUZZ_B)/libdaemon.a $(FUZZ_B)/libcommon.a

fuzz:
	$(MAKE) --no-print-directory B=$(FUZZ_B) CC=clang WERROR= \
		CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		$(FUZZ_LIBS) $(FUZZ_B)/obj/gen/schema.o
	@set -e; for n in $(FUZZ_NAMES); do \
		clang -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -D_GNU_SOURCE -I. -Icommon $(PKG_CFLAGS) \
			-o $(FUZZ_B)/$$n tests/fuzz/$$n.c $(FUZZ_B)/obj/gen/schema.o \
			-Wl,--start-group $(FUZZ_LIBS) -Wl,--end-group $(PKG_LIBS) $(SYS_LIBS); \
	done
	@scripts/fuzz.sh $(FUZZ_B) $(FUZZ_RUNS) $(FUZZ_SECONDS) $(FUZZ_NAMES)

# ASan+UBSan build of the daemon, the runner and the unit tests in
# $(ASAN_B); scripts/check-asan.sh runs the unit tests, the API, fault and
# security tests against those binaries, and valgrind on a few unit tests.
ASAN_B     := $(B)/asan
ASAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined

check-asan: tests
	$(MAKE) --no-print-directory B=$(ASAN_B) WERROR= CFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" $(ASAN_B)/perflabd \
		$(ASAN_B)/perflab-runner $(patsubst $(B)/%,$(ASAN_B)/%,$(UNIT_BINS))
	@scripts/check-asan.sh $(ASAN_B)

# Load and faults for longer (SOAK_SECONDS, default 600; CI: a short one).
SOAK_SECONDS ?= 600
soak: all
	@scripts/soak.sh $(SOAK_SECONDS)

# T=pattern limits the run to tests whose path contains the pattern.
test: all
	@tests/run.sh $(T)

# The kexec rehearsal host (tests/kexec-vm/README.md): a QEMU VM standing
# in for a dedicated NVMe host, and its end-to-end test (~4 min once the
# kernels are cached).
kexec-host: all static-bench
	@tests/kexec-vm/mkhost.sh

test-kexec-vm: kexec-host
	@tests/kexec-vm/rehearsal.sh

# Git history end to end (tests/bisect/bisect.sh): a track over a local
# series finds a step, bisects it to the costly commit and mails the report.
test-bisect: all static-bench $(B)/perflab-insn.so
	@tests/bisect/bisect.sh

# perflab with an existing LAVA lab (tests/lava/e2e.sh): a real LAVA server
# and worker started by the test drive qemu-icount boots of perflab's
# kernels; perflabd plans, judges and reads the results back.
test-lava: all static-bench $(B)/perflab-insn.so
	@tests/lava/e2e.sh

run: all static-bench
	@scripts/run-lab.sh

bench: all
	@for b in bench/*.sh; do echo "== $$b"; $$b || exit 1; done

clean:
	rm -rf $(B)/obj $(B)/gen $(B)/tests $(B)/*.a $(B)/perflabd \
		$(B)/perflab-runner $(B)/perflab $(B)/perflab-bench \
		$(B)/perflab-bench-static $(B)/perflab-insn.so

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
