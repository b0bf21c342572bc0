module github.com/paymentsdev/terraform-provider-payments/examples/stripe-go

go 1.26.8

require github.com/stripe/stripe-go/v82 v82.5.1
