#!/usr/bin/env bash
# prereqs.sh gets what `make demo` and `make test` need besides Go, then
# runs a command with it, so that a machine with Go and nothing else of
# ours can run both.
#
#   scripts/prereqs.sh [terraform] [cgo] [chromium] [haproxy] [podman] [node] -- COMMAND [ARG]...
#
#   terraform  the `terraform` on PATH; without one, Terraform 1.16.4 built
#              by scripts/build-clis.sh (as `make clis` does: about 3
#              minutes on 2 cores the first time, then reused from its
#              cache), put first on COMMAND's PATH.
#   cgo        a C compiler cgo can use, which -race needs: a tiny cgo
#              program must build with -race and run. Debian: gcc and
#              libc6-dev.
#   chromium   Chromium for the dashboard's browser tests: PAYMENTS_CHROMIUM,
#              or /usr/bin/chromium. PAYMENTS_SKIP_BROWSER_TESTS=1 (the
#              tests then skip, loudly) waives it.
#   haproxy    HAProxy for the fleet example's tests: PAYMENTS_HAPROXY, or
#              /usr/sbin/haproxy.
#   podman     podman and runc on PATH, for the container image's tests.
#   node       node and npm on PATH, for the stripe-node example's test
#              (Debian: nodejs and npm).
#
# It prints what it found for each. The Debian packages missing are
# installed with one apt-get when running as root, after saying which, how
# many packages that brings and how much space they take; otherwise (or
# with PAYMENTS_NO_INSTALL=1) it fails naming the one command to run.
#
# The install leaves the machine as it was but for the programs: no
# recommended packages (--no-install-recommends), no service started (a
# policy-rc.d that refuses every start, while apt-get runs, unless the
# machine has one of its own) and none left enabled (the units and init
# scripts the new packages enable are disabled again; the tests start what
# they need themselves). apt-get's output goes to a log file; when it fails,
# its last lines are shown.
#
# Progress goes to stderr; COMMAND runs with the environment set (exec).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'prereqs: %s\n' "$*" >&2; }
die() {
	printf 'prereqs: ERROR: %s\n' "$*" >&2
	exit 1
}

want_terraform=0
want_cgo=0
want_chromium=0
want_haproxy=0
want_podman=0
want_node=0
want_wine=0
while [[ $# -gt 0 ]]; do
	case "$1" in
	terraform) want_terraform=1 ;;
	cgo) want_cgo=1 ;;
	chromium) want_chromium=1 ;;
	haproxy) want_haproxy=1 ;;
	podman) want_podman=1 ;;
	node) want_node=1 ;;
	wine) want_wine=1 ;;
	--)
		shift
		break
		;;
	*) die "unknown argument ${1@Q}; expected terraform, cgo, chromium, haproxy, podman, node or wine, then -- and a command" ;;
	esac
	shift
done
[[ $# -gt 0 ]] || die "no command after --"

# Where apt-get.log goes, beside the cache of CLIs build-clis.sh keeps.
state="$HOME/.cache/terraform-provider-payments"

if [[ $want_terraform -eq 1 ]]; then
	if tf="$(command -v terraform)"; then
		log "found   terraform: $tf ($({ terraform version 2>/dev/null || true; } | head -n 1))"
	else
		cache="${PAYMENTS_CLI_CACHE:-$state/clis}"
		if tf="$(./scripts/build-clis.sh --no-build terraform 2>/dev/null)"; then
			log "found   terraform: none on PATH; Terraform 1.16.4, built by make clis before: $tf"
		else
			log "missing terraform: none on PATH; building Terraform 1.16.4 with scripts/build-clis.sh (make clis), once: it is kept in $cache"
			# build-clis.sh says how long it took, or what failed and what
			# to do; nothing to add.
			tf="$(./scripts/build-clis.sh terraform)" || exit 1
		fi
		PATH="$(dirname "$tf"):$PATH"
		export PATH
	fi
fi

# cgo_error builds and runs a tiny cgo program with -race, as go test -race
# builds the tests, and prints why it could not (nothing when it could).
cgo_error() {
	local dir out
	dir="$(mktemp -d)"
	printf '%s\n' 'package main' '' '// int two(void) { return 2; }' 'import "C"' '' \
		'func main() { if C.two() != 2 { panic("cgo") } }' >"$dir/main.go"
	out="$(cd "$dir" && GOWORK=off GOFLAGS='' go build -race -o cgo-check main.go 2>&1 && ./cgo-check 2>&1)" || printf '%s\n' "${out:-failed}"
	rm -rf "$dir"
}

# dpkg_has PACKAGE succeeds when the Debian package is installed.
dpkg_has() {
	[[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" == installed ]]
}

# missing collects the Debian packages to install; each check adds its own.
missing=()
if [[ $want_cgo -eq 1 ]]; then
	cc="$(go env CC)"
	if ! ccpath="$(command -v "${cc%% *}")"; then
		log "missing cgo: no C compiler (go env CC: $cc), which -race needs"
		missing+=(gcc)
		dpkg_has libc6-dev 2>/dev/null || missing+=(libc6-dev)
	elif [[ "$(go env CGO_ENABLED)" != 1 ]]; then
		die "CGO_ENABLED is 0 (go env CGO_ENABLED), and -race needs cgo: unset it (unset CGO_ENABLED; go env -u CGO_ENABLED)."
	elif err="$(cgo_error)" && [[ -z "$err" ]]; then
		log "found   cgo: $ccpath builds and runs a -race cgo program"
	elif command -v dpkg-query >/dev/null && ! dpkg_has libc6-dev; then
		log "missing cgo: $ccpath has no C library headers (Debian's libc6-dev)"
		missing+=(libc6-dev)
	else
		die "$ccpath cannot build a cgo program with -race, which go test -race needs:
$err"
	fi
fi
if [[ $want_chromium -eq 1 ]]; then
	chromium="${PAYMENTS_CHROMIUM:-/usr/bin/chromium}"
	if [[ -n "${PAYMENTS_SKIP_BROWSER_TESTS:-}" ]]; then
		log "skipped chromium: PAYMENTS_SKIP_BROWSER_TESTS is set; the dashboard's browser tests will skip"
	elif [[ -x "$chromium" ]]; then
		log "found   chromium: $chromium"
	elif [[ -n "${PAYMENTS_CHROMIUM:-}" ]]; then
		die "PAYMENTS_CHROMIUM names $chromium, which is not an executable file; name Chromium's binary, or unset it to use /usr/bin/chromium."
	else
		log "missing chromium: $chromium, for the dashboard's browser tests"
		missing+=(chromium)
	fi
fi
if [[ $want_haproxy -eq 1 ]]; then
	haproxy="${PAYMENTS_HAPROXY:-/usr/sbin/haproxy}"
	if [[ -x "$haproxy" ]]; then
		log "found   haproxy: $haproxy"
	elif [[ -n "${PAYMENTS_HAPROXY:-}" ]]; then
		die "PAYMENTS_HAPROXY names $haproxy, which is not an executable file; name HAProxy's program, or unset it to use /usr/sbin/haproxy."
	else
		log "missing haproxy: $haproxy, for the fleet example's tests"
		missing+=(haproxy)
	fi
fi
if [[ $want_podman -eq 1 ]]; then
	for tool in podman runc; do
		if command -v "$tool" >/dev/null 2>&1; then
			log "found   $tool: $(command -v "$tool")"
		else
			log "missing $tool: none on PATH, for the container image's tests"
			missing+=("$tool")
		fi
	done
fi
if [[ $want_node -eq 1 ]]; then
	# Debian's packages are nodejs (the program node) and npm.
	for tool in node npm; do
		if command -v "$tool" >/dev/null 2>&1; then
			log "found   $tool: $(command -v "$tool") ($("$tool" --version 2>/dev/null | head -n 1))"
		else
			log "missing $tool: none on PATH, for the stripe-node example's test"
			missing+=("$([[ $tool == node ]] && echo nodejs || echo npm)")
		fi
	done
fi

if [[ $want_wine -eq 1 ]]; then
	# Wine and MinGW-w64's C compiler run the plugin's Windows tests
	# (scripts/wine-test.sh): Debian's wine64 and wine, and
	# gcc-mingw-w64-x86-64-win32.
	# Debian 12's wine puts wine64 out of PATH and wine on it.
	for tool in wine x86_64-w64-mingw32-gcc; do
		if command -v "$tool" >/dev/null 2>&1; then
			log "found   $tool: $(command -v "$tool")"
		else
			log "missing $tool: none on PATH, for the Windows tests under Wine"
			if [[ $tool == wine ]]; then missing+=(wine64 wine); else missing+=(gcc-mingw-w64-x86-64-win32); fi
		fi
	done
fi

# installed_packages lists the installed packages, sorted (dpkg-query -W
# also lists those removed or only known).
installed_packages() {
	dpkg-query -W -f='${db:Status-Status} ${Package}\n' | sed -n 's/^installed //p' | sort
}

# disable_new_services disables the systemd units and init scripts that the
# packages installed since BEFORE (a sorted list of package names) enabled.
disable_new_services() {
	local before="$1" pkg path unit disabled=()
	while read -r pkg; do
		while read -r path; do
			case "$path" in
			/lib/systemd/system/*.service | /lib/systemd/system/*.socket | /lib/systemd/system/*.timer | \
				/usr/lib/systemd/system/*.service | /usr/lib/systemd/system/*.socket | /usr/lib/systemd/system/*.timer)
				unit="${path##*/}"
				[[ "$unit" != *@* ]] || continue
				# systemctl edits the links with or without a running
				# systemd; without systemd, the links are deb-systemd-helper's,
				# which works only for dpkg, unless told it is.
				if command -v systemctl >/dev/null; then
					[[ "$(systemctl is-enabled "$unit" 2>/dev/null)" == enabled ]] || continue
					systemctl --quiet disable "$unit" 2>/dev/null || continue
				else
					DPKG_MAINTSCRIPT_PACKAGE="$pkg" deb-systemd-helper --quiet is-enabled "$unit" 2>/dev/null || continue
					DPKG_MAINTSCRIPT_PACKAGE="$pkg" deb-systemd-helper --quiet disable "$unit" 2>/dev/null || continue
				fi
				disabled+=("$unit")
				;;
			/etc/init.d/*)
				compgen -G "/etc/rc[2-5].d/S??${path##*/}" >/dev/null || continue
				update-rc.d "${path##*/}" disable >/dev/null 2>&1 || continue
				disabled+=("${path##*/} (init script)")
				;;
			esac
		done < <(dpkg-query -L "$pkg" 2>/dev/null)
	done < <(comm -13 "$before" <(installed_packages))
	[[ ${#disabled[@]} -eq 0 ]] || log "disabled what the packages enabled at boot: ${disabled[*]}"
}

# apt_plan prints what installing the missing packages brings, from
# apt-get's own estimate: "N packages, X to download, Y on disk". With
# --print-uris apt-get installs nothing, even with -y (--assume-no would
# install when there is nothing to ask), and any user may ask
# (Debug::NoLocking).
apt_plan() {
	local plan count
	plan="$(LC_ALL=C apt-get -o Debug::NoLocking=1 --print-uris -y install --no-install-recommends "${missing[@]}" 2>&1 || true)"
	grep -v "^'" <<<"$plan" >>"${aptlog:-/dev/null}"
	count="$(sed -n 's/.* \([0-9]*\) newly installed.*/\1/p' <<<"$plan")"
	[[ -n "$count" ]] || return 1
	# "Need to get 0 B/2043 kB": the total is after the slash.
	printf '%s package%s, %s to download, %s on disk' "$count" "$([[ $count == 1 ]] || echo s)" \
		"$(sed -n 's/^Need to get \(.*\) of archives.*/\1/p' <<<"$plan" | sed 's|.*/||' | grep . || echo "0 B")" \
		"$(sed -n 's/^After this operation, \(.*\) of additional disk space.*/\1/p' <<<"$plan" | grep . || echo "0 B")"
}

if [[ ${#missing[@]} -gt 0 ]]; then
	cmd="apt-get install --no-install-recommends ${missing[*]}"
	command -v apt-get >/dev/null 2>&1 ||
		die "the tests need ${missing[*]} (Debian's package names), which this machine lacks: install them with its package manager."
	if [[ "$(id -u)" != 0 || -n "${PAYMENTS_NO_INSTALL:-}" ]]; then
		plan="$(apt_plan)" && log "to install: ${missing[*]}: $plan"
		sudo="sudo "
		[[ "$(id -u)" != 0 ]] || sudo=""
		die "the tests need Debian's ${missing[*]}, which this machine lacks. Install them with: $sudo$cmd"
	fi
	mkdir -p "$state"
	aptlog="$state/apt-get.log"
	: >"$aptlog"
	apt_failed() {
		tail -n 15 "$aptlog" | sed 's/^/  | /' >&2
		die "$1 (its output: $aptlog). $2"
	}
	{ echo "\$ apt-get update"; apt-get update -q; } >>"$aptlog" 2>&1 ||
		apt_failed "apt-get update failed" "Fix the sources it names in /etc/apt/sources.list or /etc/apt/sources.list.d/, then run make test-setup."
	if ! plan="$(apt_plan)"; then
		# apt-get update reports an unreachable mirror as a warning only.
		grep -q -E '^(Err:|W: Failed to fetch)' "$aptlog" &&
			apt_failed "apt-get cannot install ${missing[*]}: apt-get update could not reach a mirror" \
				"Name one this machine can reach in /etc/apt/sources.list.d/ (or /etc/apt/sources.list), then run make test-setup."
		apt_failed "apt-get cannot install ${missing[*]}" "Enable a source that has them (Debian's main), or install them another way and name them (PAYMENTS_CHROMIUM, PAYMENTS_HAPROXY, PATH)."
	fi
	log "installing: $cmd"
	log "        $plan; no service is started or enabled."
	log "        Remove them later with: apt-get purge --autoremove ${missing[*]}   (log: $aptlog)"
	before="$(mktemp)"
	installed_packages >"$before"
	# While apt-get runs, a policy-rc.d that refuses every start keeps the
	# new services (haproxy, podman's socket and timer) from starting, unless
	# the machine has a policy of its own.
	policy=/usr/sbin/policy-rc.d
	ours=0
	if [[ ! -e $policy ]]; then
		trap 'rm -f "$policy" "$before"' EXIT
		printf '#!/bin/sh\n# scripts/prereqs.sh: no service starts while it installs packages.\nexit 101\n' >"$policy"
		chmod 755 "$policy"
		ours=1
	fi
	start=$SECONDS
	{ echo "\$ $cmd"; DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } >>"$aptlog" 2>&1 ||
		apt_failed "$cmd failed" "Fix what it reports above (a package that is not found: apt-get update against a mirror that has it), then run make test-setup."
	[[ $ours -eq 0 ]] || rm -f "$policy"
	log "installed in $((SECONDS - start))s"
	disable_new_services "$before"
	rm -f "$before"
	trap - EXIT

	[[ $want_chromium -eq 0 || -n "${PAYMENTS_SKIP_BROWSER_TESTS:-}" || -x "$chromium" ]] || die "chromium was installed, but $chromium is not there."
	[[ $want_haproxy -eq 0 || -x "$haproxy" ]] || die "haproxy was installed, but $haproxy is not there."
	[[ $want_podman -eq 0 ]] || { command -v podman && command -v runc; } >/dev/null || die "podman and runc were installed, but are not on PATH."
	[[ $want_node -eq 0 ]] || { command -v node && command -v npm; } >/dev/null || die "nodejs and npm were installed, but node and npm are not on PATH."
	if [[ $want_cgo -eq 1 ]]; then
		err="$(cgo_error)"
		[[ -z "$err" ]] || die "gcc and libc6-dev were installed, but a -race cgo program still does not build:
$err"
		log "found   cgo: $(command -v "$(go env CC)") builds and runs a -race cgo program"
	fi
fi

exec "$@"
