#!/usr/bin/env bash
# make demo: from a fresh clone to a working `terraform apply`, offline.
#
# Builds the provider and the sandbox, starts a sandbox on a free loopback
# port with a fresh account, points Terraform at the freshly built provider
# through a CLI configuration with dev_overrides (so no `terraform init` and
# no registry), applies examples/quickstart, makes payments in the sandbox,
# applies again so the data sources read them, prints the outputs, proves a
# second plan is empty, destroys, and stops the sandbox. It prints the
# sandbox's dashboard URL, where the run can be watched. Unless KEEP_DEMO=1,
# the sandbox it started is stopped on exit, whatever happens.
#
# Needs only Go and the Terraform CLI. Environment knobs:
#   KEEP_DEMO=1   on success, leave the sandbox running (its dashboard shows
#                 the demo's payments, events and requests; the script says
#                 how to sign in and how to stop it) and keep the scratch
#                 folder (.demo/run.*)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null 2>&1 || die "Go is not on PATH"
command -v terraform >/dev/null 2>&1 || die "the Terraform CLI is not on PATH"

export CHECKPOINT_DISABLE=1 # no call home to checkpoint-api.hashicorp.com
export TF_IN_AUTOMATION=1   # shorter output, no "run terraform apply next" hints
export TF_INPUT=0           # never wait for input

say "Building the provider, the sandbox and the demo's payment maker into bin/"
mkdir -p bin
go build -trimpath -o bin/terraform-provider-payments .
go build -trimpath -o bin/payments-sandbox ./cmd/payments-sandbox
go -C tools build -trimpath -o "$root/bin/demo-seed" ./cmd/demo-seed

mkdir -p .demo
scratch=$(mktemp -d "$root/.demo/run.XXXXXX")
sandbox_pid=""
dashboard_url=""
key=""
ok=0

cleanup() {
	local status=$?
	trap - EXIT INT TERM
	if [[ "$ok" == 1 && "${KEEP_DEMO:-}" == 1 && -n "$sandbox_pid" ]] && kill -0 "$sandbox_pid" 2>/dev/null; then
		say "KEEP_DEMO=1: the sandbox keeps running (pid $sandbox_pid)"
		# The key goes to a file only the user can read, never to the
		# terminal, whose output ends up in CI logs.
		(umask 077 && printf '%s\n' "$key" >"$scratch/secret-key")
		echo "Look around: open $dashboard_url and sign in with the secret key in $scratch/secret-key"
		echo "Stop it with: kill $sandbox_pid"
		sandbox_pid=""
	fi
	if [[ -n "$sandbox_pid" ]] && kill -0 "$sandbox_pid" 2>/dev/null; then
		kill -TERM "$sandbox_pid" 2>/dev/null || true
		for _ in $(seq 1 50); do
			kill -0 "$sandbox_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$sandbox_pid" 2>/dev/null || true
		wait "$sandbox_pid" 2>/dev/null || true
		echo "demo: stopped the sandbox (pid $sandbox_pid)"
	fi
	if [[ "$ok" == 1 && "${KEEP_DEMO:-}" != 1 ]]; then
		rm -rf "$scratch"
	else
		echo "demo: scratch folder kept: $scratch (sandbox log: $scratch/sandbox.log)" >&2
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "Starting a sandbox on a free loopback port"
bin/payments-sandbox -addr 127.0.0.1:0 >"$scratch/sandbox.log" 2>&1 &
sandbox_pid=$!
base_url=""
for _ in $(seq 1 300); do
	line=$(grep -m1 '^payments-sandbox listening on http://' "$scratch/sandbox.log" 2>/dev/null || true)
	if [[ -n "$line" ]]; then
		base_url=${line#payments-sandbox listening on }
		break
	fi
	kill -0 "$sandbox_pid" 2>/dev/null || { cat "$scratch/sandbox.log" >&2; die "the sandbox exited before it listened"; }
	sleep 0.1
done
[[ -n "$base_url" ]] || { cat "$scratch/sandbox.log" >&2; die "the sandbox did not print its address within 30 seconds"; }
for _ in $(seq 1 50); do
	line=$(grep -m1 '^dashboard at http://' "$scratch/sandbox.log" 2>/dev/null || true)
	if [[ -n "$line" ]]; then
		dashboard_url=${line#dashboard at }
		break
	fi
	sleep 0.1
done
[[ -n "$dashboard_url" ]] || { cat "$scratch/sandbox.log" >&2; die "the sandbox did not print its dashboard line"; }
echo "sandbox: $base_url (pid $sandbox_pid)"
echo "dashboard: $dashboard_url (sign in with the demo's key; KEEP_DEMO=1 keeps it running afterwards)"

# Any well-formed sandbox key is its own, empty account: a fresh one per run.
key="sk_sandbox_demo$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export PAYMENTS_SECRET_KEY="$key"
export PAYMENTS_BASE_URL="$base_url"

# Terraform takes the freshly built provider from bin/ instead of the
# registry. Our own CLI configuration, whatever TF_CLI_CONFIG_FILE said
# before (unset, or naming a file that does not exist).
cat >"$scratch/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/paymentsdev/payments" = "$root/bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE="$scratch/terraformrc"
unset TF_CLI_CONFIG_PATH TF_PLUGIN_CACHE_DIR TF_DATA_DIR TF_WORKSPACE

# Work on a copy, so the example folder stays free of state files.
work="$scratch/quickstart"
mkdir -p "$work"
cp examples/quickstart/*.tf "$work/"
# Colours on a terminal only; one line per warning (the dev_overrides one
# repeats on every command otherwise).
flags=(-compact-warnings)
[[ -t 1 ]] || flags+=(-no-color)
tf() {
	local cmd=$1
	shift
	case "$cmd" in
	apply | plan | destroy) terraform -chdir="$work" "$cmd" "${flags[@]}" "$@" ;;
	*) terraform -chdir="$work" "$cmd" "$@" ;;
	esac
}

say "terraform apply: customers, their cards, one default card, their payments"
tf apply -auto-approve

say "Sandbox controls: completing the 3-D Secure payment, and a declined charge"
tf output -json | bin/demo-seed payments

say "terraform apply again: the data sources now read the completed and declined payments"
tf apply -auto-approve

say "Outputs"
if [[ -t 1 ]]; then tf output; else tf output -no-color; fi

say "A second plan must be empty"
set +e
tf plan -detailed-exitcode
plan_status=$?
set -e
case "$plan_status" in
0) echo "demo: the second plan is empty" ;;
2) die "the second plan is not empty" ;;
*) die "terraform plan failed" ;;
esac

say "terraform destroy"
tf destroy -auto-approve
bin/demo-seed destroyed

ok=1
if [[ "${KEEP_DEMO:-}" == 1 ]]; then
	say "Demo finished: everything Terraform created is destroyed (the payments and events stay in the sandbox)"
else
	say "Demo finished: everything it created is destroyed, and the sandbox stops now"
fi
