#!/usr/bin/env bash
# make validate-examples: every folder of .tf files under examples/ must
# pass `terraform validate` against the provider built from this tree, so no
# example (and no docs page that shows one) rots. Runs offline: Terraform
# takes the provider from a dev_overrides CLI configuration, no init.
#
# Examples shown on registry pages (examples/resources/..., data-sources/...)
# carry no `terraform` block; for them, a required_providers block naming
# paymentsdev/payments is added to the copy that is validated. The import.sh
# files are checked for shell syntax and for the resource type they name.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

command -v terraform >/dev/null 2>&1 || { echo "validate-examples: the Terraform CLI is not on PATH" >&2; exit 1; }
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0

scratch=$(mktemp -d "${TMPDIR:-/tmp}/payments-examples.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

go build -trimpath -o "$scratch/bin/terraform-provider-payments" .
cat >"$scratch/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/paymentsdev/payments" = "$scratch/bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE="$scratch/terraformrc"
unset TF_CLI_CONFIG_PATH TF_PLUGIN_CACHE_DIR TF_DATA_DIR TF_WORKSPACE

failed=0

if ! terraform fmt -check -recursive -diff examples; then
	echo "validate-examples: examples/ is not formatted; run make generate" >&2
	failed=1
fi

# Action blocks need Terraform 1.14 or later; older CLIs skip those folders.
actions_ok=0
if terraform version -json | grep -Eq '"terraform_version": *"(1\.(1[4-9]|[2-9][0-9])|[2-9][0-9]*)\.'; then
	actions_ok=1
fi

count=0
while IFS= read -r dir; do
	rel=${dir#examples/}
	if [[ "$actions_ok" == 0 ]] && grep -q '^action "' "$dir"/*.tf; then
		echo "skipped $dir: actions need Terraform 1.14 or later"
		continue
	fi
	work="$scratch/work/$rel"
	mkdir -p "$work"
	cp "$dir"/*.tf "$work/"
	if ! grep -q 'required_providers' "$dir"/*.tf; then
		cat >"$work/zz_required_providers.tf" <<'EOF'
terraform {
  required_providers {
    payments = {
      source = "paymentsdev/payments"
    }
  }
}
EOF
	fi
	if out=$(terraform -chdir="$work" validate -no-color 2>&1); then
		echo "ok      $dir"
	else
		echo "FAILED  $dir"
		printf '%s\n' "$out" | sed 's/^/        /'
		failed=1
	fi
	count=$((count + 1))
done < <(find examples -name '*.tf' -not -path '*/.terraform/*' -exec dirname {} \; | sort -u)

while IFS= read -r script; do
	type=$(basename "$(dirname "$script")")
	if ! bash -n "$script"; then
		echo "FAILED  $script: shell syntax"
		failed=1
	elif ! grep -Eq "^terraform import ${type}\.[a-z_0-9]+ " "$script"; then
		echo "FAILED  $script: has no 'terraform import ${type}.NAME ID' line"
		failed=1
	else
		echo "ok      $script"
	fi
done < <(find examples -name import.sh | sort)

if [[ "$count" == 0 ]]; then
	echo "validate-examples: found no examples" >&2
	exit 1
fi
if [[ "$failed" != 0 ]]; then
	echo "validate-examples: some examples do not validate" >&2
	exit 1
fi
echo "validate-examples: all $count example folders validate"
