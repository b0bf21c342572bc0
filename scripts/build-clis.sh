#!/usr/bin/env bash
# build-clis.sh builds the Terraform and OpenTofu CLIs the acceptance tests
# run on, besides the terraform on PATH, from their Go modules (the module
# proxy is the only way to get them on machines where release downloads are
# blocked), into a cache folder outside the repository, and prints their
# paths.
#
#   scripts/build-clis.sh [--no-build] [terraform|tofu]...
#
# With no names it handles both CLIs. For each one it prints the absolute
# path of the binary on stdout, one per line, in the order asked; progress
# goes to stderr. A binary already in the cache is reused when its `version`
# output names the pinned version; otherwise it is (re)built, which takes a
# few minutes (about 3 for Terraform, 4 for OpenTofu on 2 cores).
#
# --no-build prints only the paths of CLIs already built and exits 1 when
# one asked for is missing, without building anything.
#
# Environment:
#   PAYMENTS_CLI_CACHE  the cache folder
#                       (default $HOME/.cache/terraform-provider-payments/clis);
#                       binaries land in terraform-<version>/terraform and
#                       tofu-<version>/tofu under it.
#
# The binaries are stripped (-s -w, as both projects' releases are): no
# debug information to write saves link time and disk.
#
# Builds are atomic: the binary is written to a temporary name in its final
# folder and renamed into place only after it built and reported the right
# version, so an interrupted build never leaves a broken binary. Concurrent
# runs (two shells, or make and CI) wait for each other on a lock file.
# Nothing from these modules is ever copied into the repository.
set -euo pipefail

TERRAFORM_VERSION=1.16.4
TOFU_VERSION=1.12.6
CACHE="${PAYMENTS_CLI_CACHE:-$HOME/.cache/terraform-provider-payments/clis}"

build=1
names=()
for arg in "$@"; do
	case "$arg" in
	--no-build) build=0 ;;
	terraform | tofu) names+=("$arg") ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "build-clis.sh: unknown argument ${arg@Q}; expected --no-build, terraform or tofu." >&2
		exit 2
		;;
	esac
done
[[ ${#names[@]} -gt 0 ]] || names=(terraform tofu)

log() { printf 'build-clis: %s\n' "$*" >&2; }

# bin_path NAME prints where the cached binary of NAME lives.
bin_path() {
	case "$1" in
	terraform) echo "$CACHE/terraform-$TERRAFORM_VERSION/terraform" ;;
	tofu) echo "$CACHE/tofu-$TOFU_VERSION/tofu" ;;
	esac
}

# want_version NAME prints the first line `NAME version` must print.
want_version() {
	case "$1" in
	terraform) echo "Terraform v$TERRAFORM_VERSION" ;;
	tofu) echo "OpenTofu v$TOFU_VERSION" ;;
	esac
}

# version_line BIN prints BIN's "<Name> v<version>" line. An empty CLI
# configuration keeps the user's (or a missing TF_CLI_CONFIG_FILE's)
# warnings out of the output, which OpenTofu prints on stdout.
version_line() {
	local out
	out="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null TOFU_CLI_CONFIG_FILE=/dev/null "$1" version 2>&1)" || {
		printf '%s\n' "$out" | head -n 3 >&2
		return 1
	}
	printf '%s\n' "$out" | grep -E -m 1 '^(Terraform|OpenTofu) v' || true
}

# is_good BIN NAME succeeds when BIN runs and reports the pinned version.
is_good() {
	[[ -x "$1" ]] || return 1
	[[ "$(version_line "$1" 2>/dev/null)" == "$(want_version "$2")" ]]
}

# go_hint ERROR prints the one setting most likely to get past a failed
# download, from the words of Go's error.
go_hint() {
	case "$1" in
	*x509* | *certificate* | *tls:*)
		echo "Go does not trust the proxy's TLS certificate: when a proxy of your network inspects TLS, name its CA certificate in SSL_CERT_FILE (export SSL_CERT_FILE=/path/to/ca.pem) and run this again." ;;
	*sum.golang.org* | *GOSUMDB* | *checksum\ database*)
		echo "Go cannot reach the checksum database (go env GOSUMDB: $(go env GOSUMDB)): name one it can reach in GOSUMDB, or the proxy your network provides in GOPROXY, and run this again." ;;
	*)
		echo "Go cannot fetch the module through its proxy (go env GOPROXY: $(go env GOPROXY)): name a proxy this machine can reach (export GOPROXY=https://your.proxy,direct) and run this again." ;;
	esac
}

# module_dir MODULE VERSION LOG prints the module's source folder in the
# module cache, downloading it through the module proxy when it is not
# there yet; Go's output goes to LOG.
module_dir() {
	local out err dir
	# Run outside any module so the download touches no go.mod or go.sum.
	out="$(cd "$CACHE" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "$1@v$2" 2>>"$3")" || true
	dir="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$out")"
	if [[ -z "$dir" || ! -f "$dir/go.mod" ]]; then
		# go mod download -json puts the reason in "Error"; when it could not
		# even start, the reason is on stderr, in the log.
		err="$(sed -n 's/^[[:space:]]*"Error": "\(.*\)",\{0,1\}$/\1/p' <<<"$out" | sed 's/\\n/\n/g; s/\\t/\t/g; s/\\"/"/g')"
		printf '%s\n' "$out" >>"$3"
		[[ -n "$err" ]] || err="$(tail -n 5 "$3")"
		log "ERROR: could not download $1@v$2 through the Go module proxy:"
		printf '%s\n' "$err" | sed 's/^/  | /' >&2
		log "$(go_hint "$err")"
		return 1
	fi
	echo "$dir"
}

# copy_source DIR DEST copies a read-only module folder to a writable one.
copy_source() {
	cp -R "$1/." "$2"
	chmod -R u+w "$2"
}

# The remote-state backends whose nested modules are missing from the
# Terraform module zip. Terraform builds without them; the acceptance tests
# use the local backend.
TF_DROPPED_BACKENDS=(azure consul cos gcs kubernetes oci oss pg s3)
TF_DROPPED_IMPORTS='backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)'

# prepare_terraform SRC removes the modules missing from the Terraform module
# zip: their require and replace lines in go.mod, and the backends' imports
# and map entries in internal/backend/init/init.go.
prepare_terraform() {
	local src="$1" alt init="$1/internal/backend/init/init.go"
	alt="$(IFS='|'; echo "${TF_DROPPED_BACKENDS[*]}")"
	sed -E -i "\#github\.com/hashicorp/terraform/internal/(backend/remote-state/($alt)|legacy)[[:space:]]#d" "$src/go.mod"
	sed -E -i "/\\<$TF_DROPPED_IMPORTS\\>/d" "$init"
	if grep -Eq "remote-state/($alt)\"|\\<$TF_DROPPED_IMPORTS\\." "$init" ||
		grep -Eq "internal/(backend/remote-state/($alt)|legacy)[[:space:]]" "$src/go.mod"; then
		log "ERROR: could not remove the missing backends from Terraform v$TERRAFORM_VERSION's go.mod or init.go; the recipe needs updating for this version."
		return 1
	fi
}

# build_one NAME builds NAME into its cache folder unless a good one is there.
build_one() {
	local name="$1" bin dir tmpsrc tmpbin modroot start buildlog pkg ldflags
	bin="$(bin_path "$name")"
	dir="$(dirname "$bin")"
	if is_good "$bin" "$name"; then
		log "$name: reusing $bin ($(want_version "$name"))"
		return 0
	fi
	mkdir -p "$dir"
	# One build of each CLI at a time: a second run waits, then finds the
	# binary built.
	exec 9>"$dir/.lock"
	if ! flock -n 9; then
		log "$name: another build-clis.sh is building it; waiting"
		flock 9
		if is_good "$bin" "$name"; then
			exec 9>&-
			log "$name: reusing $bin ($(want_version "$name"))"
			return 0
		fi
	fi
	start=$SECONDS
	tmpsrc="$(mktemp -d "$CACHE/.src-$name.XXXXXX")"
	tmpbin="$dir/.$name.tmp.$$"
	# shellcheck disable=SC2064 # expand now: the paths are this build's.
	trap "rm -rf '$tmpsrc' '$tmpbin'" EXIT

	# Go's output (a line per module downloaded, hundreds) goes to the log;
	# what failed is shown from it.
	buildlog="$dir/build.log"
	: >"$buildlog"
	case "$name" in
	terraform)
		log "terraform: building Terraform v$TERRAFORM_VERSION from github.com/hashicorp/terraform (about 3 minutes; log: $buildlog)"
		modroot="$(module_dir github.com/hashicorp/terraform "$TERRAFORM_VERSION" "$buildlog")"
		copy_source "$modroot" "$tmpsrc"
		prepare_terraform "$tmpsrc"
		pkg=. ldflags="-s -w -X github.com/hashicorp/terraform/version.dev=no"
		;;
	tofu)
		log "tofu: building OpenTofu v$TOFU_VERSION from github.com/opentofu/opentofu (about 4 minutes; log: $buildlog)"
		modroot="$(module_dir github.com/opentofu/opentofu "$TOFU_VERSION" "$buildlog")"
		copy_source "$modroot" "$tmpsrc"
		# version.dev=no, as OpenTofu's release builds set it: without it the
		# binary says v1.12.6-dev, a prerelease to tfversion checks.
		pkg=./cmd/tofu ldflags="-s -w -X github.com/opentofu/opentofu/version.dev=no"
		;;
	esac
	log "$name: source downloaded; downloading its dependencies and compiling"
	if ! (cd "$tmpsrc" && GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath \
		-ldflags "$ldflags" -o "$tmpbin" "$pkg") >>"$buildlog" 2>&1; then
		log "ERROR: go build of $name v$(want_version "$name" | sed 's/.* v//') failed; its last lines (all of it: $buildlog):"
		grep -v '^go: downloading ' "$buildlog" | tail -n 15 | sed 's/^/  | /' >&2
		if grep -q -E 'go: .*(dial tcp|x509|certificate|tls:|sum\.golang\.org|proxy\.golang\.org|unexpected EOF|i/o timeout)' "$buildlog"; then
			log "$(go_hint "$(grep -E 'go: ' "$buildlog" | grep -v '^go: downloading ' | tail -n 3)")"
		else
			log "A build that fails on a good download is a bug of this recipe for $(want_version "$name"); put a terraform (1.11 or later) on PATH meanwhile: make demo and make test use it instead."
		fi
		return 1
	fi

	if ! is_good "$tmpbin" "$name"; then
		log "ERROR: the $name just built does not report $(want_version "$name"); its version output:"
		CHECKPOINT_DISABLE=1 "$tmpbin" version >&2 || true
		return 1
	fi
	mv -f "$tmpbin" "$bin"
	rm -rf "$tmpsrc"
	trap - EXIT
	exec 9>&-
	log "$name: built $bin in $((SECONDS - start))s"
}

mkdir -p "$CACHE"
missing=0
if [[ $build -eq 1 ]]; then
	for name in "${names[@]}"; do
		build_one "$name"
	done
fi
for name in "${names[@]}"; do
	bin="$(bin_path "$name")"
	if is_good "$bin" "$name"; then
		echo "$bin"
	else
		log "$name: not built at $bin (run scripts/build-clis.sh or make clis)"
		missing=1
	fi
done
exit "$missing"
