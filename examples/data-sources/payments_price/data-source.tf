# The active price that holds a lookup key: it follows the key when a new
# price takes it (transfer_lookup_key), so this always names the current
# gold monthly price.
data "payments_price" "gold_monthly" {
  lookup_key = "gold_monthly"
}

# A price by its id, archived or not.
data "payments_price" "launch_offer" {
  id = "price_2nLw8yHs3V4fE9kQ2mZxR7bT"
}

output "gold_monthly" {
  value = "${provider::payments::format_amount(data.payments_price.gold_monthly.unit_amount, data.payments_price.gold_monthly.currency)} every ${data.payments_price.gold_monthly.interval_count} ${data.payments_price.gold_monthly.interval}"
}
