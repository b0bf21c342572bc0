# Import blocks by resource identity (Terraform 1.12 and later): the
# identity names the object with one attribute per part, instead of an id
# string to assemble. terraform query writes blocks of this form.
import {
  to = payments_customer.ada
  identity = {
    id = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
  }
}

import {
  to = payments_customer_source.ada_visa
  identity = {
    customer = "cus_4fE9kQ2mZxR7bT1nLw8yHs3V"
    id       = "src_9KpL2wQx7RmN4tYb6VcZ1aHd"
  }
}

resource "payments_customer" "ada" {
  email = "ada@example.com"
  name  = "Ada Lovelace"
}

resource "payments_customer_source" "ada_visa" {
  customer = payments_customer.ada.id
  token    = "tok_visa"
  default  = true
}
