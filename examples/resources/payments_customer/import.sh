# A customer is imported by its id.
terraform import payments_customer.example cus_4fE9kQ2mZxR7bT1nLw8yHs3V
