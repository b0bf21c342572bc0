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
# It shows what a person reads: each command's plan summary and outcome,
# its warnings once each, and the outputs once; Terraform's whole output
# goes to demo.log in the scratch folder (.demo/run.*), Go's to build.log
# beside it, and a command that fails shows its last lines. Ctrl-C is an
# interruption, not a failure: it stops the sandbox, removes the scratch
# folder and exits 130.
#
# Needs only Go and the Terraform CLI (make demo builds one when there is
# none: scripts/prereqs.sh). Environment knobs:
#   KEEP_DEMO=1   on success, destroy nothing: the seeded customers, cards,
#                 payments and events stay in the running sandbox for its
#                 dashboard (the script says how to sign in), and the
#                 script prints the one command that destroys them, stops
#                 the sandbox and removes the scratch folder
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null 2>&1 || die "Go is not on PATH"
command -v terraform >/dev/null 2>&1 || die "the Terraform CLI is not on PATH; make demo builds one (scripts/prereqs.sh)"

export CHECKPOINT_DISABLE=1 # no call home to checkpoint-api.hashicorp.com
export TF_IN_AUTOMATION=1   # shorter output, no "run terraform apply next" hints
export TF_INPUT=0           # never wait for input

mkdir -p .demo
scratch=$(mktemp -d "$root/.demo/run.XXXXXX")
log="$scratch/demo.log"
: >"$log"
sandbox_pid=""
dashboard_url=""
key=""
ok=0
interrupted=0

# The terminal, for cleanup: a signal's trap runs where the shell was, in
# the middle of a command whose output goes to the log.
exec 3>&1 4>&2
cleanup() {
	local status=$?
	trap - EXIT INT TERM
	exec 1>&3 2>&4
	if [[ "$ok" == 1 && "${KEEP_DEMO:-}" == 1 && -n "$sandbox_pid" ]] && kill -0 "$sandbox_pid" 2>/dev/null; then
		say "KEEP_DEMO=1: the sandbox keeps running (pid $sandbox_pid), with everything the demo made"
		# The key goes to a file only the user can read, never to the
		# terminal, whose output ends up in CI logs.
		(umask 077 && printf '%s\n' "$key" >"$scratch/secret-key")
		write_finish
		echo "Look around: open $dashboard_url and sign in with the secret key in $scratch/secret-key"
		echo "When done, destroy it all, stop the sandbox and remove the scratch folder with:"
		echo "  $scratch/finish.sh"
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
	if [[ "$interrupted" == 1 ]]; then
		# Nothing to look into: the user stopped it. The sandbox kept its
		# objects in memory, so they went with it.
		rm -rf "$scratch"
		echo "demo: interrupted; nothing is left: the sandbox held what the demo made in memory, and the scratch folder is removed" >&2
	elif [[ "$ok" == 1 && "${KEEP_DEMO:-}" != 1 ]]; then
		rm -rf "$scratch"
	elif [[ "$ok" != 1 ]]; then
		echo "demo: scratch folder kept: $scratch (its logs: build.log for Go, demo.log for Terraform, sandbox.log for the sandbox)" >&2
	fi
	exit "$status"
}
trap cleanup EXIT
# Ctrl-C reaches every process of the terminal's group: Terraform stops
# what it was doing and fails, which here is no failure to explain.
trap 'interrupted=1; exit 130' INT
trap 'interrupted=1; exit 143' TERM

# Go's output on a first run (a "go: downloading" line per module, about
# 190) goes to a log, shown when a build fails.
say "Building the provider, the sandbox and the demo's payment maker into bin/"
build_log="$scratch/build.log"
mkdir -p bin
echo "Go's output goes to $build_log (a first run downloads and compiles the modules it needs: several minutes)"
# go_build runs one go command with its output in the build log.
go_build() {
	printf '$ go %s\n' "$*" >>"$build_log"
	go "$@" >>"$build_log" 2>&1 && return 0
	[[ "$interrupted" == 0 ]] || exit 130
	echo "demo: go $* failed; its last lines (all of it is in $build_log):" >&2
	grep -v '^go: downloading ' "$build_log" | tail -n 15 >&2
	exit 1
}
start=$SECONDS
go_build build -trimpath -o bin/terraform-provider-payments .
go_build build -trimpath -o bin/payments-sandbox ./cmd/payments-sandbox
go_build -C tools build -trimpath -o "$root/bin/demo-seed" ./cmd/demo-seed
echo "demo: built bin/terraform-provider-payments, bin/payments-sandbox and bin/demo-seed in $((SECONDS - start))s"

say "Starting a sandbox on a free loopback port"
# In a session of its own, Ctrl-C does not reach it: it must keep serving
# while Terraform winds down, until cleanup stops it.
setsid bin/payments-sandbox -addr 127.0.0.1:0 >"$scratch/sandbox.log" 2>&1 &
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
# One line per warning (the dev_overrides one repeats on every command
# otherwise), and plain text: the output is filtered and logged.
flags=(-compact-warnings -no-color)
tf() {
	local cmd=$1
	shift
	case "$cmd" in
	apply | plan | destroy) terraform -chdir="$work" "$cmd" "${flags[@]}" "$@" ;;
	*) terraform -chdir="$work" "$cmd" "$@" ;;
	esac
}

# summarize prints the lines of Terraform's output a person reads: the
# plan summary, the outcome, and each warning once with its count. The
# ephemeral resource's Opening/Closing lines, each object's progress, the
# plan's details and the outputs (shown once, at the end) stay in the log.
summarize() {
	awk '
	function flush(   i) {
		for (i = 1; i <= m; i++) {
			printf "  warning: %s%s\n", order[i], (n[order[i]] > 1 ? " (" n[order[i]] " times)" : "")
			delete n[order[i]]
		}
		m = 0
	}
	/^Warnings:$/ { inw = 1; next }
	inw && /^To see the full warning notes/ { inw = 0; flush(); next }
	inw && /^- / {
		w = substr($0, 3)
		if (w ~ /^Provider development overrides are in effect/) next
		if (!(w in n)) order[++m] = w
		n[w]++
		next
	}
	/^(Plan: |Apply complete!|Destroy complete!|No changes\.)/ { print "  " $0 }
	END { flush() }
	'
}

# run_tf runs a terraform command with its whole output in the log, and
# shows its summary; when it fails, its last lines too.
run_tf() {
	local first status=0
	first=$(($(wc -l <"$log") + 1))
	printf '\n$ terraform %s\n' "$*" >>"$log"
	tf "$@" >>"$log" 2>&1 || status=$?
	[[ "$interrupted" == 0 ]] || exit 130
	tail -n +"$first" "$log" | summarize
	if [[ $status -ne 0 && ! ($1 == plan && $status -eq 2) ]]; then
		echo "demo: terraform $1 failed; its last lines (all of it is in $log):" >&2
		tail -n +"$first" "$log" | tail -n 40 >&2
	fi
	return "$status"
}

# write_finish writes the one command that ends a kept demo: terraform
# destroy against the running sandbox, then stop it and remove the scratch
# folder. It reads the key from its file: the key is never printed.
write_finish() {
	cat >"$scratch/finish.sh" <<EOF
#!/usr/bin/env bash
# Ends the demo that KEEP_DEMO=1 kept: destroys what Terraform made, stops
# the sandbox (pid $sandbox_pid) and removes this folder.
set -euo pipefail
if kill -0 $sandbox_pid 2>/dev/null; then
	export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0
	export TF_CLI_CONFIG_FILE="$scratch/terraformrc" PAYMENTS_BASE_URL="$base_url"
	PAYMENTS_SECRET_KEY="\$(cat "$scratch/secret-key")"
	export PAYMENTS_SECRET_KEY
	"$(command -v terraform)" -chdir="$work" destroy -auto-approve -compact-warnings -no-color >>"$log" 2>&1 ||
		{ echo "terraform destroy failed; its output is in $log. The sandbox and the folder stay." >&2; exit 1; }
	echo "Destroyed everything the demo's configuration made."
	kill -TERM $sandbox_pid 2>/dev/null || true
	# It is not this shell's child: watch its process until it is gone (or
	# a zombie, which init reaps), for 10 seconds, then kill it.
	for _ in \$(seq 1 100); do
		state=\$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' /proc/$sandbox_pid/status 2>/dev/null || true)
		[[ -n "\$state" && "\$state" != Z ]] || break
		sleep 0.1
	done
	if [[ -n "\$state" && "\$state" != Z ]]; then
		kill -KILL $sandbox_pid 2>/dev/null || true
		echo "The sandbox (pid $sandbox_pid) did not stop within 10 seconds of SIGTERM; killed it."
	else
		echo "Stopped the sandbox (pid $sandbox_pid)."
	fi
else
	echo "The sandbox (pid $sandbox_pid) is no longer running: its objects went with it."
fi
rm -rf "$scratch"
echo "Removed $scratch."
EOF
	chmod 700 "$scratch/finish.sh"
}

echo "Terraform's whole output goes to $log"

say "terraform apply: customers, their cards, one default card, their payments"
run_tf apply -auto-approve

say "Sandbox controls: completing the 3-D Secure payment, and a declined charge"
tf output -json | bin/demo-seed payments

say "terraform apply again: the data sources now read the completed and declined payments"
run_tf apply -auto-approve

say "Outputs"
tf output -no-color

say "A second plan must be empty"
set +e
run_tf plan -detailed-exitcode
plan_status=$?
set -e
case "$plan_status" in
0) echo "demo: the second plan is empty" ;;
2) die "the second plan is not empty (the plan is in $log)" ;;
*) die "terraform plan failed" ;;
esac

ok=1
if [[ "${KEEP_DEMO:-}" == 1 ]]; then
	say "Demo finished: the customers, cards, payments and events it made stay in the sandbox"
	exit 0
fi

say "terraform destroy"
run_tf destroy -auto-approve
bin/demo-seed destroyed

say "Demo finished: everything it created is destroyed, and the sandbox stops now"
