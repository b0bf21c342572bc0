import {
  to = payments_price.example
  id = "price_2nLw8yHs3V4fE9kQ2mZxR7bT"
}
