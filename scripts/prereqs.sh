#!/usr/bin/env bash
# prereqs.sh gets what `make demo` and `make test` need besides Go, then
# runs a command with it, so that a machine with Go and nothing else of
# ours can run both.
#
#   scripts/prereqs.sh [terraform] [chromium] -- COMMAND [ARG]...
#
#   terraform  the `terraform` on PATH; without one, Terraform 1.16.4 built
#              by scripts/build-clis.sh (as `make clis` does: about 3
#              minutes on 2 cores the first time, then reused from its
#              cache), put first on COMMAND's PATH.
#   chromium   Chromium for the dashboard's browser tests: PAYMENTS_CHROMIUM,
#              or /usr/bin/chromium, installed with apt-get when missing
#              and running as root. Otherwise it fails naming the command
#              to run. PAYMENTS_SKIP_BROWSER_TESTS=1 (the tests then skip,
#              loudly) waives it.
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
while [[ $# -gt 0 ]]; do
	case "$1" in
	terraform) want_terraform=1 ;;
	chromium) want_chromium=1 ;;
	--)
		shift
		break
		;;
	*) die "unknown argument ${1@Q}; expected terraform, chromium, then -- and a command" ;;
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

if [[ $want_chromium -eq 1 ]]; then
	chromium="${PAYMENTS_CHROMIUM:-/usr/bin/chromium}"
	if [[ -n "${PAYMENTS_SKIP_BROWSER_TESTS:-}" ]]; then
		log "chromium: PAYMENTS_SKIP_BROWSER_TESTS is set; the dashboard's browser tests will skip"
	elif [[ -x "$chromium" ]]; then
		log "chromium: $chromium"
	elif [[ -n "${PAYMENTS_CHROMIUM:-}" ]]; then
		die "PAYMENTS_CHROMIUM names $chromium, which is not an executable file; name Chromium's binary, or unset it to use /usr/bin/chromium."
	elif [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
		log "chromium: /usr/bin/chromium is missing; installing Debian's package for the dashboard's browser tests (apt-get install chromium)"
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >&2 ||
			die "apt-get could not install chromium (above); the dashboard's browser tests need /usr/bin/chromium."
		[[ -x "$chromium" ]] || die "chromium was installed, but $chromium is not there."
	else
		die "the dashboard's browser tests need Chromium at /usr/bin/chromium. Install it with: sudo apt-get install chromium"
	fi
fi

exec "$@"
