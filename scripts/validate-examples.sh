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

# The CLI: $TERRAFORM when set; otherwise Terraform 1.16.4 from the CLI
# cache (scripts/build-clis.sh) when it is there, because only a current
# Terraform validates every example (identity import blocks need 1.12,
# list resources and query files 1.14); otherwise the terraform on PATH,
# which skips the examples it cannot read.
tf=${TERRAFORM:-}
if [[ -z "$tf" ]]; then
	cached="${PAYMENTS_CLI_CACHE:-$HOME/.cache/terraform-provider-payments/clis}/terraform-1.16.4/terraform"
	if [[ -x "$cached" ]]; then tf=$cached; else tf=terraform; fi
fi
command -v "$tf" >/dev/null 2>&1 || { echo "validate-examples: the Terraform CLI ($tf) is not found" >&2; exit 1; }
terraform() { command "$tf" "$@"; }
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
# (The output is read whole first: grep -q stopping early would kill the
# CLI with SIGPIPE, which pipefail turns into "no".)
version_json=$(terraform version -json 2>/dev/null || true)
if grep -Eq '"terraform_version": *"(1\.(1[4-9]|[2-9][0-9])|[2-9][0-9]*)\.' <<<"$version_json"; then
	actions_ok=1
fi

# Import blocks by identity need Terraform 1.12, query files (list
# resources) 1.14; OpenTofu has neither, whatever its version number.
identity_ok=0 query_ok=0
version=$(terraform version 2>/dev/null | head -n 1)
echo "validate-examples: with $version ($(command -v "$tf"))"
if [[ "$version" != *OpenTofu* ]]; then
	if grep -Eq '"terraform_version": *"(1\.(1[2-9]|[2-9][0-9])|[2-9][0-9]*)\.' <<<"$version_json"; then identity_ok=1; fi
	if [[ "$actions_ok" == 1 ]]; then query_ok=1; fi
fi

count=0
while IFS= read -r dir; do
	rel=${dir#examples/}
	if [[ "$actions_ok" == 0 ]] && grep -qs '^action "' /dev/null "$dir"/*.tf </dev/null; then
		echo "skipped $dir: actions need Terraform 1.14 or later"
		continue
	fi
	# A resource's import-by-identity.tf (for its docs page) imports the same
	# address as its import-by-string-id.tf: it is validated in a second
	# pass below, in place of the other.
	if [[ "$identity_ok" == 0 ]] && grep -Eqs '^ *identity *= *\{' /dev/null $(ls "$dir"/*.tf 2>/dev/null | grep -v '/import-by-identity\.tf$' || true) </dev/null; then
		echo "skipped $dir: import blocks by identity need Terraform 1.12 or later"
		continue
	fi
	query=()
	if compgen -G "$dir/*.tfquery.hcl" >/dev/null; then
		if [[ "$query_ok" == 0 ]]; then
			echo "skipped $dir: query files (list resources) need Terraform 1.14 or later"
			continue
		fi
		query=(-query)
	fi
	work="$scratch/work/$rel"
	mkdir -p "$work"
	cp "$dir"/*.tf "$dir"/*.tfquery.hcl "$work/" 2>/dev/null || true
	rm -f "$work/import-by-identity.tf"
	if ! grep -qs 'required_providers' /dev/null "$dir"/*.tf </dev/null; then
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
	if out=$(terraform -chdir="$work" validate -no-color "${query[@]}" 2>&1); then
		echo "ok      $dir"
	else
		echo "FAILED  $dir"
		printf '%s\n' "$out" | sed 's/^/        /'
		failed=1
	fi
	if [[ -f "$dir/import-by-identity.tf" ]]; then
		if [[ "$identity_ok" == 0 ]]; then
			echo "skipped $dir/import-by-identity.tf: import blocks by identity need Terraform 1.12 or later"
		else
			rm -f "$work/import-by-string-id.tf"
			cp "$dir/import-by-identity.tf" "$work/"
			if out=$(terraform -chdir="$work" validate -no-color 2>&1); then
				echo "ok      $dir/import-by-identity.tf"
			else
				echo "FAILED  $dir/import-by-identity.tf"
				printf '%s\n' "$out" | sed 's/^/        /'
				failed=1
			fi
		fi
	fi
	count=$((count + 1))
done < <(find examples \( -name '*.tf' -o -name '*.tfquery.hcl' \) -not -path '*/.terraform/*' -exec dirname {} \; | sort -u)

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
