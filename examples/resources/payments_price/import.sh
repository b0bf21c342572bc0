# A price is imported by its id.
terraform import payments_price.example price_2nLw8yHs3V4fE9kQ2mZxR7bT
