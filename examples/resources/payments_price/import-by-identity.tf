import {
  to = payments_price.example
  identity = {
    id = "price_2nLw8yHs3V4fE9kQ2mZxR7bT"
  }
}
