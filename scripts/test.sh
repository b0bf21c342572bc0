#!/usr/bin/env bash
# test.sh is `make test` after its set-up (scripts/prereqs.sh): go vet,
# the unit tests with -race and the acceptance tests on the terraform on
# PATH, the same for the tools module (tools/), then the acceptance tests on
# each CLI that `make clis` built (scripts/testacc-clis.sh).
#
#   scripts/test.sh [--require]
#
#   --require  a CLI that make clis has not built is a failure, not a skip
#              (make test TEST_ALL_CLIS=1)
#
# Every stage runs, even after one failed, so that one run shows every
# failure. However it ends (a failure, Ctrl-C), the last lines say how
# each stage and each CLI ended: ok, FAILED, or not run and why. It exits
# 1 when any failed, 130 when interrupted.
#
# Environment: GO (default go), TEST_PARALLEL (default 4).
set -euo pipefail
cd "$(dirname "$0")/.."

require=()
for arg in "$@"; do
	case "$arg" in
	--require) require=(--require) ;;
	*)
		echo "test.sh: unknown argument ${arg@Q}; expected --require." >&2
		exit 2
		;;
	esac
done

GO="${GO:-go}"
export GO CHECKPOINT_DISABLE=1

path_tf="$({ terraform version 2>/dev/null || true; } | grep -E -m 1 '^(Terraform|OpenTofu) v' || true)"
path_tf="${path_tf:-no terraform} ($(command -v terraform || echo "not on PATH"))"

# The stages in order: a label and a command. results holds one line per
# stage that ended; the summary lists the others as not run.
labels=(
	"go vet ./..."
	"unit tests (-race) and acceptance tests on $path_tf"
	"tools module: go vet ./..."
	"tools module: tests (-race)"
	"acceptance tests on the CLIs make clis built (Terraform, OpenTofu)"
)
results=()
clis_summary="$(mktemp)"
failed=0
interrupted=0

summary() {
	local status=$? i
	trap - EXIT INT TERM
	[[ $interrupted -eq 0 ]] || status=130
	printf '\n==> make test, by stage and by CLI:\n'
	for i in "${!labels[@]}"; do
		if [[ $i -lt ${#results[@]} ]]; then
			printf '    %s\n' "${results[$i]}"
		elif [[ $i -eq 4 && -s "$clis_summary" ]]; then
			sed 's/^/    /' "$clis_summary"
		elif [[ $interrupted -eq 1 ]]; then
			printf '    %-8s %s: interrupted\n' "not run" "${labels[$i]}"
		else
			printf '    %-8s %s: the run stopped before it (status %s)\n' "not run" "${labels[$i]}" "$status"
		fi
	done
	rm -f "$clis_summary"
	[[ $status -ne 0 ]] || status=$failed
	exit "$status"
}
trap summary EXIT
trap 'interrupted=1; exit 130' INT
trap 'interrupted=1; exit 143' TERM

# stage N COMMAND... runs a stage and records how it ended.
stage() {
	local i=$1 start=$SECONDS
	shift
	printf '\n==> %s\n' "${labels[$i]}"
	if "$@"; then
		results+=("$(printf '%-8s %s in %ss' ok "${labels[$i]}" $((SECONDS - start)))")
	else
		[[ $interrupted -eq 0 ]] || exit 130
		results+=("$(printf '%-8s %s in %ss' FAILED "${labels[$i]}" $((SECONDS - start)))")
		failed=1
	fi
}

stage 0 "$GO" vet ./...
stage 1 env -u TF_ACC_TERRAFORM_PATH TF_ACC=1 "$GO" test -race -count=1 -timeout 20m -parallel "${TEST_PARALLEL:-4}" ./...
stage 2 "$GO" -C tools vet ./...
stage 3 "$GO" -C tools test -race -count=1 ./...
# testacc-clis.sh writes its own line per CLI, which the summary shows in
# place of this stage's.
./scripts/testacc-clis.sh --if-built --path-ran "${require[@]}" --summary-file "$clis_summary" || {
	[[ $interrupted -eq 0 ]] || exit 130
	failed=1
}
