# A subscription as the service has it now: what renewals did.
data "payments_subscription" "acme" {
  id = "sub_7Hq2LmXw9RtK4sVb1NcY6pDz"
}

output "acme_status" {
  value = data.payments_subscription.acme.status
}

output "acme_renews_at" {
  value = data.payments_subscription.acme.current_period_end
}
