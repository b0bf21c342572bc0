#!/usr/bin/env bash
# bare-machine.sh checks the README's promise that Go is the only
# prerequisite of `make demo` and `make test`, on a machine that has nothing
# else: a minimal Debian root (debootstrap --variant=minbase, plus git and
# make, which the README assumes, and ca-certificates) with Go added. In it,
# from a clone of HEAD, it runs
#
#   make test-setup   which installs what the tests need
#   make demo
#   go test -race -c  every test binary of both modules, compiled and linked
#   the dashboard's browser tests and the container image's tests, which
#                     prove Chromium, podman and runc work there
#
# so that anything the project uses but does not install (a C compiler for
# -race, a Debian package) fails here, even on a machine that has it.
#
#   scripts/bare-machine.sh                  (make bare-check)
#   scripts/bare-machine.sh COMMAND [ARG]...
#
# With a command, it runs that instead, in the clone inside the same kind
# of root, to look into a failure: `scripts/bare-machine.sh bash` gives a
# shell there (run `make test-setup` first for what the tests need).
#
# Needs root (debootstrap, mounts, namespaces) and Debian's debootstrap, which
# it installs with apt-get when missing; it never skips. The root is built
# once (a few minutes) and kept in PAYMENTS_BARE_ROOT_CACHE (by default
# ~/.cache/terraform-provider-payments/bare-root), under a hash of what goes
# into it; every run starts from that pristine root, through an overlay
# mount whose changes are thrown away.
#
# Shared with this machine to save time, none of which can stand in for a
# missing prerequisite: Go itself (read-only), the Go module and build
# caches (Go decides whether cgo, and so -race, is possible from the C
# compiler it finds, cache or not), the CLIs make clis built (static Go
# programs: Terraform 1.16.4 is not built again), and the Debian packages
# apt-get downloaded (it still installs them). The root uses this machine's
# network and apt sources.
#
# Only committed work is checked: HEAD is cloned into the root.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

log() { printf 'bare-machine: %s\n' "$*" >&2; }
die() {
	printf 'bare-machine: ERROR: %s\n' "$*" >&2
	exit 1
}

[[ "$(id -u)" == 0 ]] || die "needs root, for debootstrap, mounts and namespaces; run it as root (CI does)."
command -v go >/dev/null || die "Go is not on PATH."

suite=${PAYMENTS_BARE_SUITE:-bookworm}
# The packages a newcomer is assumed to have besides Go: git for the
# clone, make for the two commands, and the CA certificates every download
# needs (Go's too).
include=ca-certificates,git,make
cache=${PAYMENTS_BARE_ROOT_CACHE:-$HOME/.cache/terraform-provider-payments/bare-root}
goroot=$(go env GOROOT)
gomodcache=$(go env GOMODCACHE)
gocache=$(go env GOCACHE)
clis=${PAYMENTS_CLI_CACHE:-$HOME/.cache/terraform-provider-payments/clis}

# mirror is the Debian archive this machine's apt uses for the suite.
mirror=${PAYMENTS_BARE_MIRROR:-$(apt-get indextargets --format '$(SITE) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
	awk -v s="$suite" '$2 == s { print $1; exit }')}
[[ -n "$mirror" ]] || die "this machine's apt has no source for Debian $suite; name a mirror with PAYMENTS_BARE_MIRROR."

if ! command -v debootstrap >/dev/null; then
	log "debootstrap is missing: apt-get install debootstrap"
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-o DPkg::Lock::Timeout=600 debootstrap; } >&2 ||
		die "apt-get could not install debootstrap (above); the bare-machine check needs it."
fi

# The cached root's name changes with anything that changes its content:
# the suite, the mirror, the packages, and this recipe's version (raise it
# when the way the root is built changes).
recipe=1
key=$(printf '%s\n' "recipe $recipe" "$suite" "$mirror" "$include" "$(dpkg --print-architecture)" | sha256sum | cut -c1-16)
pristine="$cache/$suite-$key"
mkdir -p "$cache"

exec 8>"$cache/lock"
if ! flock -n 8; then
	log "another run holds $cache/lock; waiting"
	flock 8
fi
if [[ ! -e "$pristine/.complete" ]]; then
	log "building the minimal Debian $suite root, once: debootstrap --variant=minbase --include=$include ($mirror)"
	start=$SECONDS
	rm -rf --one-file-system "$pristine.tmp"
	mkdir -p "$pristine.tmp"
	debootstrap --variant=minbase --include="$include" "$suite" "$pristine.tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
		tail -n 20 "$cache/debootstrap.log" >&2
		die "debootstrap failed (above; whole log in $cache/debootstrap.log)."
	}
	chroot "$pristine.tmp" apt-get clean
	touch "$pristine.tmp/.complete"
	rm -rf --one-file-system "$pristine"
	mv "$pristine.tmp" "$pristine"
	# Roots of other recipes are never used again.
	for old in "$cache/$suite"-*; do
		[[ "$old" == "$pristine" || ! -d "$old" ]] || rm -rf --one-file-system "$old"
	done
	log "built the root in $((SECONDS - start))s: $pristine"
else
	log "using the cached minimal Debian $suite root: $pristine"
fi
# The lock stays held: a second run waits rather than sharing the root's
# apt cache and this machine's CLI cache mid-install.

work=$(mktemp -d "${TMPDIR:-/tmp}/bare-machine.XXXXXX")
root="$work/root"
mkdir -p "$root" "$work/upper" "$work/overlay-work" "$work/containers"
mounted=()

# cleanup unmounts, newest first, and removes the run's folder only when
# nothing is mounted in it. What ran in the root has ended with it (enter).
cleanup() {
	local status=$? i
	trap - EXIT INT TERM
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -R "${mounted[i]}" 2>/dev/null || umount -R -l "${mounted[i]}" 2>/dev/null ||
			log "could not unmount ${mounted[i]}"
	done
	if grep -q " $work/" /proc/self/mountinfo; then
		log "something is still mounted under $work; leaving it in place"
	else
		rm -rf --one-file-system "$work"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# mnt mounts and records the mount point for cleanup.
mnt() {
	mount "$@"
	mounted+=("${!#}")
}
# bind makes a folder of this machine appear at a path in the root.
bind() {
	mkdir -p "$root$2"
	mnt --bind "$1" "$root$2"
	[[ "${3:-}" != ro ]] || mount -o remount,bind,ro "$root$2"
}

if mnt -t overlay overlay -o "lowerdir=$pristine,upperdir=$work/upper,workdir=$work/overlay-work" "$root" 2>/dev/null; then
	log "the root: an overlay on the cached one, discarded afterwards"
else
	log "overlayfs is not available here: copying the cached root instead (slower)"
	cp -a "$pristine/." "$root/"
	mnt --bind "$root" "$root" # pivot_root needs a mount point
fi
mnt --rbind /sys "$root/sys"
mount --make-rslave "$root/sys"
mnt --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
# The container image's tests keep podman's storage off the overlay, which
# podman's own overlay driver cannot sit on.
bind "$work/containers" /var/lib/containers
bind "$goroot" /usr/local/go ro
mkdir -p "$gomodcache" "$gocache" "$clis" "$cache/apt-archives/partial"
bind "$gomodcache" /root/go/pkg/mod
bind "$gocache" /root/.cache/go-build
bind "$clis" /root/.cache/terraform-provider-payments/clis
bind "$cache/apt-archives" /var/cache/apt/archives

# The network and apt sources are this machine's: its DNS, its mirror, and
# the apt settings that reach it (Acquire::...). Packages downloaded are
# kept for the next run.
cp /etc/resolv.conf /etc/hosts "$root/etc/"
rm -f "$root/etc/apt/sources.list" "$root"/etc/apt/sources.list.d/*
[[ ! -f /etc/apt/sources.list ]] || cp /etc/apt/sources.list "$root/etc/apt/"
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[[ ! -f "$f" ]] || cp "$f" "$root/etc/apt/sources.list.d/"
done
for f in /etc/apt/apt.conf.d/*; do
	if [[ -f "$f" ]] && grep -q '^[[:space:]]*Acquire' "$f"; then
		cp "$f" "$root/etc/apt/apt.conf.d/"
	fi
done
echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/90bare-machine-keep-debs"
# The root is thrown away: dpkg need not sync every file it unpacks.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/90bare-machine-unsafe-io"

head=$(git rev-parse HEAD)
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
	log "the work tree has uncommitted changes; checking HEAD ($head) without them"
fi
src=/root/terraform-provider-payments
git init -q "$root$src"
git -C "$root$src" fetch -q "$repo" "$head"
git -C "$root$src" checkout -q --detach FETCH_HEAD
log "cloned HEAD ($(git log -1 --format='%h %s' "$head")) into the root at $src"

# The environment of a newcomer's shell: Go on PATH, nothing of ours. Only
# this machine's network settings come along.
envs=(HOME=/root "PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	LANG=C.UTF-8 TERM=dumb)
for v in GOPROXY GOSUMDB GONOSUMDB GOPRIVATE GONOPROXY GOINSECURE \
	http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY CI; do
	[[ -z "${!v:-}" ]] || envs+=("$v=${!v}")
done

# enter runs a command as the first process of new mount and PID
# namespaces whose root is the bare root: pivot_root rather than chroot,
# since runc exec (podman healthcheck) finds a container's files only when
# the root is its namespace's own; this machine's tree is then unmounted
# there. When the command ends, the kernel ends whatever it left running
# (a service a package started, say), and so does an interrupted run.
cat >"$root/.bare-enter" <<'EOF'
#!/bin/sh
set -e
umount -l /.host
rmdir /.host
exec "$@"
EOF
chmod +x "$root/.bare-enter"
enter() {
	unshare --mount --pid --kill-child --mount-proc="$root/proc" -- /bin/sh -c \
		'cd "$0" && mkdir .host && pivot_root . .host && exec chroot . /.bare-enter "$@"' "$root" \
		/usr/bin/env -i "${envs[@]}" "$@"
}

cat >"$root/root/bare-check.sh" <<'EOF'
set -euo pipefail
cd /root/terraform-provider-payments
# Whatever still runs at the end is named before the kernel stops it: a
# newcomer's machine would keep it running.
left_running() {
	local p
	for p in /proc/[0-9]*; do
		[[ "${p#/proc/}" == 1 || "${p#/proc/}" == "$BASHPID" ]] ||
			echo "bare-machine: left running: $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) (pid ${p#/proc/})"
	done
}
trap left_running EXIT
step_start=$SECONDS
step() {
	printf '\n==> bare-machine: %s\n' "$*"
	step_start=$SECONDS
}
took() { printf '==> bare-machine: took %ds\n' $((SECONDS - step_start)); }

step "make test-setup: installs what the tests need and names the terraform they use"
make --no-print-directory test-setup
took
step "make demo"
make demo
took
step "every test binary compiled and linked with -race: the provider's module, then tools/"
echo "cgo: CGO_ENABLED=$(go env CGO_ENABLED); C compiler $(go env CC): $(command -v "$(go env CC)" || echo none)"
out=$(mktemp -d)
go test -race -c -o "$out" ./...
go -C tools test -race -c -o "$out" ./...
rm -rf "$out"
took
step "the dashboard's browser tests, in Chromium"
go test -race -count=1 -run '^TestBrowser' ./internal/sandbox/dashboard/
took
step "the container image's tests, in podman with runc"
# They run Terraform, as make test does: the one make test-setup built.
tf=$(scripts/build-clis.sh --no-build terraform)
PATH="$(dirname "$tf"):$PATH" go -C tools test -race -count=1 ./cmd/imagebuild/
took
EOF

if [[ $# -gt 0 ]]; then
	log "running in the root, in $src: $*"
	enter /bin/bash -c 'cd "$0" && exec "$@"' "$src" "$@"
	exit
fi
log "running in the root: make test-setup, make demo, go test -race -c ./..., browser and image tests"
start=$SECONDS
enter /bin/bash /root/bare-check.sh ||
	die "the check failed in the minimal Debian root after $((SECONDS - start))s (above): make demo or make test needs something the project's set-up does not install."
log "passed in the minimal Debian root in $((SECONDS - start))s"
