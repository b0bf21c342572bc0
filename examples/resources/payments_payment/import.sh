# A payment is imported by its id. The service never returns the token a
# payment charged, so the next apply stores the configured source in place:
# an import never replaces (charges again) a payment.
terraform import payments_payment.example pay_7Hq2LmXw9RtK4sVb1NcY6pDz
