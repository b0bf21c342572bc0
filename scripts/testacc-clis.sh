#!/usr/bin/env bash
# testacc-clis.sh runs the acceptance tests (^TestAcc) on the CLIs that
# scripts/build-clis.sh builds: Terraform 1.16.4 and OpenTofu 1.12.6. The
# terraform on PATH is tested by `make test` and `make testacc` directly.
#
#   scripts/testacc-clis.sh [--build | --if-built] [--require]
#
#   --build     build the CLIs that are missing first (the default)
#   --if-built  use only the CLIs already built; skip the others
#   --require   a CLI that is not built is an error (for CI)
#   --path-ran  the terraform on PATH has just been tested (make test,
#               scripts/test.sh): a built CLI that is that same binary is
#               not run again
#   --summary-file FILE
#               write the summary's lines to FILE instead of printing
#               them (scripts/test.sh prints them with its own)
#
# Each CLI's run goes on after another failed, so one run shows every CLI's
# failures; the exit status is 1 when any failed (or, with --require, was
# missing). The last lines summarise which CLIs ran and how each ended.
#
# Environment: GO (default go), TEST_PARALLEL (default 4), TESTACC_RUN (the
# -run pattern, default ^TestAcc), TESTACC_TIMEOUT (default 20m), and
# PAYMENTS_CLI_CACHE as for build-clis.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
require=0
path_ran=0
summary_file=""
while [[ $# -gt 0 ]]; do
	case "$1" in
	--build) build=1 ;;
	--if-built) build=0 ;;
	--require) require=1 ;;
	--path-ran) path_ran=1 ;;
	--summary-file)
		summary_file="${2:?--summary-file needs a file}"
		shift
		;;
	*)
		echo "testacc-clis.sh: unknown argument ${1@Q}; expected --build, --if-built, --require, --path-ran or --summary-file FILE." >&2
		exit 2
		;;
	esac
	shift
done

GO="${GO:-go}"
export CHECKPOINT_DISABLE=1

summary=()
failed=0
# The summary's line per CLI; the status word padded to one width.
add() { summary+=("$(printf '%-8s %s' "$1" "$2")"); }
declare -A product=([terraform]="Terraform" [tofu]="OpenTofu")
for name in terraform tofu; do
	if [[ $build -eq 1 ]]; then
		cli="$(./scripts/build-clis.sh "$name")" || cli=""
	else
		cli="$(./scripts/build-clis.sh --no-build "$name" 2>/dev/null)" || cli=""
	fi
	if [[ -z "$cli" ]]; then
		if [[ $require -eq 1 ]]; then
			add MISSING "acceptance tests on ${product[$name]}: not built; make clis (scripts/build-clis.sh) builds it"
			failed=1
		else
			add "not run" "acceptance tests on ${product[$name]}: not built (make clis builds it)"
		fi
		continue
	fi
	label="$({ "$cli" version 2>/dev/null || true; } | grep -E -m 1 '^(Terraform|OpenTofu) v' || true) ($cli)"
	# Without a terraform of its own on PATH, make test put the built one
	# there (scripts/prereqs.sh): it has just run; once is enough.
	if [[ $path_ran -eq 1 && $name == terraform && "$(command -v terraform 2>/dev/null || true)" == "$cli" ]]; then
		add "above" "acceptance tests on $label: the terraform on PATH, tested above"
		continue
	fi
	printf '\n==> acceptance tests on %s\n' "$label"
	start=$SECONDS
	# TF_ACC_PROVIDER_HOST and _NAMESPACE are left to the tests, which set
	# them for OpenTofu (internal/provider/cli_version_test.go).
	if TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" "$GO" test -count=1 -timeout "${TESTACC_TIMEOUT:-20m}" \
		-parallel "${TEST_PARALLEL:-4}" -run "${TESTACC_RUN:-^TestAcc}" ./...; then
		add ok "acceptance tests on $label in $((SECONDS - start))s"
	else
		add FAILED "acceptance tests on $label in $((SECONDS - start))s"
		failed=1
	fi
done

if [[ -n "$summary_file" ]]; then
	printf '%s\n' "${summary[@]}" >"$summary_file"
else
	printf '\n==> acceptance tests by CLI:\n'
	printf '    %s\n' "${summary[@]}"
fi
exit "$failed"
