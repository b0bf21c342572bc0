#!/usr/bin/env bash
# prereqs.sh gets what `make demo` and `make test` need besides Go, then
# runs a command with it, so that a machine with Go and nothing else of
# ours can run both.
#
#   scripts/prereqs.sh [terraform] [chromium] [haproxy] [podman] -- COMMAND [ARG]...
#
#   terraform  the `terraform` on PATH; without one, Terraform 1.16.4 built
#              by scripts/build-clis.sh (as `make clis` does: about 3
#              minutes on 2 cores the first time, then reused from its
#              cache), put first on COMMAND's PATH.
#   chromium   Chromium for the dashboard's browser tests: PAYMENTS_CHROMIUM,
#              or /usr/bin/chromium. PAYMENTS_SKIP_BROWSER_TESTS=1 (the
#              tests then skip, loudly) waives it.
#   haproxy    HAProxy for the fleet example's tests: PAYMENTS_HAPROXY, or
#              /usr/sbin/haproxy.
#   podman     podman and runc on PATH, for the container image's tests.
#
# The Debian packages missing are installed with one apt-get when running
# as root; otherwise it fails naming the one command to run.
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
want_chromium=0
want_haproxy=0
want_podman=0
while [[ $# -gt 0 ]]; do
	case "$1" in
	terraform) want_terraform=1 ;;
	chromium) want_chromium=1 ;;
	haproxy) want_haproxy=1 ;;
	podman) want_podman=1 ;;
	--)
		shift
		break
		;;
	*) die "unknown argument ${1@Q}; expected terraform, chromium, haproxy or podman, then -- and a command" ;;
	esac
	shift
done
[[ $# -gt 0 ]] || die "no command after --"

if [[ $want_terraform -eq 1 ]]; then
	if tf="$(command -v terraform)"; then
		log "terraform: $tf"
	else
		cache="${PAYMENTS_CLI_CACHE:-$HOME/.cache/terraform-provider-payments/clis}"
		if tf="$(./scripts/build-clis.sh --no-build terraform 2>/dev/null)"; then
			log "terraform: none on PATH; using Terraform 1.16.4 that make clis built before: $tf"
		else
			log "terraform: none on PATH; building Terraform 1.16.4 from its Go module with scripts/build-clis.sh (make clis)."
			log "terraform: this takes about 3 minutes on 2 cores, once: it is kept in $cache"
			start=$SECONDS
			tf="$(./scripts/build-clis.sh terraform)" ||
				die "building Terraform failed (above). Install Terraform 1.11 or later on PATH, or run make clis to see why."
			log "terraform: built in $((SECONDS - start))s: $tf"
		fi
		PATH="$(dirname "$tf"):$PATH"
		export PATH
	fi
fi

# missing collects the Debian packages to install; each check adds its own.
missing=()
if [[ $want_chromium -eq 1 ]]; then
	chromium="${PAYMENTS_CHROMIUM:-/usr/bin/chromium}"
	if [[ -n "${PAYMENTS_SKIP_BROWSER_TESTS:-}" ]]; then
		log "chromium: PAYMENTS_SKIP_BROWSER_TESTS is set; the dashboard's browser tests will skip"
	elif [[ -x "$chromium" ]]; then
		log "chromium: $chromium"
	elif [[ -n "${PAYMENTS_CHROMIUM:-}" ]]; then
		die "PAYMENTS_CHROMIUM names $chromium, which is not an executable file; name Chromium's binary, or unset it to use /usr/bin/chromium."
	else
		missing+=(chromium)
	fi
fi
if [[ $want_haproxy -eq 1 ]]; then
	haproxy="${PAYMENTS_HAPROXY:-/usr/sbin/haproxy}"
	if [[ -x "$haproxy" ]]; then
		log "haproxy: $haproxy"
	elif [[ -n "${PAYMENTS_HAPROXY:-}" ]]; then
		die "PAYMENTS_HAPROXY names $haproxy, which is not an executable file; name HAProxy's program, or unset it to use /usr/sbin/haproxy."
	else
		missing+=(haproxy)
	fi
fi
if [[ $want_podman -eq 1 ]]; then
	for tool in podman runc; do
		if command -v "$tool" >/dev/null 2>&1; then
			log "$tool: $(command -v "$tool")"
		else
			missing+=("$tool")
		fi
	done
fi
if [[ ${#missing[@]} -gt 0 ]]; then
	if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
		log "installing what the tests need and this machine lacks: apt-get install ${missing[*]}"
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } >&2 ||
			die "apt-get could not install ${missing[*]} (above); the tests need them."
	else
		die "the tests need Debian's ${missing[*]}, which this machine lacks. Install them with: sudo apt-get install ${missing[*]}"
	fi
	[[ $want_chromium -eq 0 || -n "${PAYMENTS_SKIP_BROWSER_TESTS:-}" || -x "$chromium" ]] || die "chromium was installed, but $chromium is not there."
	[[ $want_haproxy -eq 0 || -x "$haproxy" ]] || die "haproxy was installed, but $haproxy is not there."
	[[ $want_podman -eq 0 ]] || { command -v podman && command -v runc; } >/dev/null || die "podman and runc were installed, but are not on PATH."
fi

exec "$@"
