# A product is imported by its id.
terraform import payments_product.example prod_7kQ2mZxR4fE9bT1nLw8yHs3V
