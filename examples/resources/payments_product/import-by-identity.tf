import {
  to = payments_product.example
  identity = {
    id = "prod_7kQ2mZxR4fE9bT1nLw8yHs3V"
  }
}
