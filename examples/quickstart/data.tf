# Grace as the API sees her once her cards are attached.
data "payments_customer" "grace" {
  id = payments_customer.grace.id

  depends_on = [
    payments_customer_source.grace_mastercard,
    payments_customer_source.grace_amex,
  ]
}

# Every payment charged to Grace, newest first.
data "payments_payments" "grace" {
  customer = payments_customer.grace.id

  depends_on = [
    payments_payment.grace_seats,
    payments_payment.grace_addon,
    payments_payment.grace_deposit,
  ]
}

# The account's approved payments since a date. Read at plan time (it has
# no depends_on, because latest_approved counts its results), so a first
# apply shows the payments that existed before it; the next shows all.
data "payments_payments" "approved" {
  status        = "approved"
  created_after = var.since
  limit         = 50
}

# The newest approved payment, in full, when there is one.
data "payments_payment" "latest_approved" {
  count = length(data.payments_payments.approved.payments) > 0 ? 1 : 0

  id = data.payments_payments.approved.payments[0].id
}

# The account's declined payments.
data "payments_payments" "declined" {
  status = "declined"
}
