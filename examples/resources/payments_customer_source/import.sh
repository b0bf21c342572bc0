# A source is imported by its customer's id and its own id, joined by a slash.
terraform import payments_customer_source.example cus_4fE9kQ2mZxR7bT1nLw8yHs3V/src_9KpL2wQx7RmN4tYb6VcZ1aHd
