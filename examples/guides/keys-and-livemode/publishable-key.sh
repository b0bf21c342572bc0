#!/usr/bin/env bash
# Reads the sandbox account's publishable key with its secret key, then
# tokenizes a test card with the publishable key alone, as a browser or
# an app would. The publishable key is safe to put in a test web app: it
# cannot be turned back into the secret key.
set -euo pipefail
: "${PAYMENTS_SECRET_KEY:?set it to a sandbox secret key, sk_sandbox_...}"
base_url=${PAYMENTS_BASE_URL:-http://127.0.0.1:12111}

account=$(curl -fsS -u "$PAYMENTS_SECRET_KEY:" "$base_url/_sandbox/account")
# {"object":"sandbox_account","publishable_key":"pk_sandbox_…"}
publishable_key=$(printf '%s' "$account" | sed -E 's/.*"publishable_key":"([^"]+)".*/\1/')
echo "publishable key: $publishable_key"

exp_year=$(( $(date +%Y) + 2 ))
curl -fsS -u "$publishable_key:" "$base_url/v1/tokens" \
  -d 'card[number]=4242424242424242' -d 'card[exp_month]=12' \
  -d "card[exp_year]=$exp_year" -d 'card[cvc]=123'
echo
