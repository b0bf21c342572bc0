import {
  to = payments_customer_source.example
  id = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V/src_9KpL2wQx7RmN4tYb6VcZ1aHd"
}
