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
#   --path-ran  the summary also lists the terraform on PATH, whose run
#               (with the unit tests) `make test` did just before
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
for arg in "$@"; do
	case "$arg" in
	--build) build=1 ;;
	--if-built) build=0 ;;
	--require) require=1 ;;
	--path-ran) path_ran=1 ;;
	*)
		echo "testacc-clis.sh: unknown argument ${arg@Q}; expected --build, --if-built or --require." >&2
		exit 2
		;;
	esac
done

GO="${GO:-go}"
export CHECKPOINT_DISABLE=1

summary=()
failed=0
if [[ $path_ran -eq 1 ]]; then
	summary+=("ok      $({ terraform version 2>/dev/null || true; } | grep -E -m 1 '^(Terraform|OpenTofu) v' || true) ($(command -v terraform)), with the unit tests, above")
fi
for name in terraform tofu; do
	if [[ $build -eq 1 ]]; then
		cli="$(./scripts/build-clis.sh "$name")" || cli=""
	else
		cli="$(./scripts/build-clis.sh --no-build "$name" 2>/dev/null)" || cli=""
	fi
	if [[ -z "$cli" ]]; then
		if [[ $require -eq 1 ]]; then
			summary+=("MISSING $name: not built; run make clis (scripts/build-clis.sh)")
			failed=1
		else
			summary+=("skipped $name: not built (make clis builds it)")
		fi
		continue
	fi
	label="$({ "$cli" version 2>/dev/null || true; } | grep -E -m 1 '^(Terraform|OpenTofu) v' || true) ($cli)"
	# Without a terraform of its own on PATH, make test put the built one
	# there (scripts/prereqs.sh): it has just run; once is enough.
	if [[ $path_ran -eq 1 && $name == terraform && "$(command -v terraform 2>/dev/null || true)" == "$cli" ]]; then
		summary+=("ok      $label: PATH's terraform, with the unit tests, above")
		summary=("${summary[@]:1}")
		continue
	fi
	printf '\n==> acceptance tests on %s\n' "$label"
	start=$SECONDS
	# TF_ACC_PROVIDER_HOST and _NAMESPACE are left to the tests, which set
	# them for OpenTofu (internal/provider/cli_version_test.go).
	if TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" "$GO" test -count=1 -timeout "${TESTACC_TIMEOUT:-20m}" \
		-parallel "${TEST_PARALLEL:-4}" -run "${TESTACC_RUN:-^TestAcc}" ./...; then
		summary+=("ok      $label in $((SECONDS - start))s")
	else
		summary+=("FAILED  $label in $((SECONDS - start))s")
		failed=1
	fi
done

printf '\n==> acceptance tests by CLI:\n'
printf '    %s\n' "${summary[@]}"
exit "$failed"
