# imports.tf: what to bring under management, by id.
import {
  to = payments_customer.ada
  id = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
}

# A source's import id is its customer's id and its own, joined by a slash.
import {
  to = payments_customer_source.ada_visa
  id = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V/src_9KpL2wQx7RmN4tYb6VcZ1aHd"
}
