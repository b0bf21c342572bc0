output "customer_ids" {
  description = "The customers' ids; `make demo` makes a declined charge to Alan between two applies."
  value = {
    ada   = payments_customer.ada.id
    grace = payments_customer.grace.id
    alan  = payments_customer.alan.id
  }
}

output "cards" {
  description = "Each stored card, as the API describes it."
  value = {
    for name, s in {
      ada_visa         = payments_customer_source.ada_visa
      grace_mastercard = payments_customer_source.grace_mastercard
      grace_amex       = payments_customer_source.grace_amex
      alan_visa        = payments_customer_source.alan_visa
    } : name => "${s.brand} ending ${s.last4}, expires ${s.exp_month}/${s.exp_year}"
  }
}

output "grace_default_card" {
  description = "Grace's default card, read back through the payments_customer data source."
  value = one([
    for s in data.payments_customer.grace.sources : "${s.brand} ending ${s.last4}"
    if s.id == data.payments_customer.grace.default_source
  ])
}

output "grace_payments" {
  description = "Grace's payments: id, status, amount."
  value       = [for p in data.payments_payments.grace.payments : "${p.id} ${p.status} ${provider::payments::format_amount(p.amount, p.currency)}"]
}

output "approved_total_by_currency" {
  description = "The sum of the approved payments, per currency."
  value = {
    for currency, amounts in {
      for p in data.payments_payments.approved.payments : p.currency => p.amount...
    } : currency => provider::payments::format_amount(sum(amounts), currency)
  }
}

output "declined_payments" {
  description = "Declined payments and the customers they belong to."
  value       = { for p in data.payments_payments.declined.payments : p.id => p.customer }
}

output "latest_approved_payment" {
  description = "The newest approved payment, read by id with the payments_payment data source."
  value = one([
    for p in data.payments_payment.latest_approved : {
      id          = p.id
      amount      = provider::payments::format_amount(p.amount, p.currency)
      description = p.description
      card        = p.source == null ? null : "${p.source.brand} ending ${p.source.last4}"
      captured    = p.captured
    }
  ])
}

output "payments" {
  description = "The payments Terraform made: id, status, amount, amount refunded, card."
  value = {
    for name, p in {
      ada_first_month  = payments_payment.ada_first_month
      ada_second_month = payments_payment.ada_second_month
      grace_seats      = payments_payment.grace_seats
      grace_addon      = payments_payment.grace_addon
      grace_deposit    = payments_payment.grace_deposit
      alan_trial       = payments_payment.alan_trial
    } : name => "${p.id} ${p.status} ${provider::payments::format_amount(p.amount, p.currency)}, ${provider::payments::format_amount(p.amount_refunded, p.currency)} refunded, ${p.brand} ending ${p.last4}"
  }
}

output "pending_payment_ids" {
  description = "Payments waiting for 3-D Secure, which `make demo` completes with the sandbox's control."
  value       = [for p in [payments_payment.grace_addon] : p.id if p.status == "pending"]
}

output "ada_subscription" {
  description = "Ada's subscription: id, status, and when the current period ends."
  value       = "${payments_subscription.ada_pro.id} ${payments_subscription.ada_pro.status} until ${payments_subscription.ada_pro.current_period_end}"
}
