# Terraform 1.7 and later: many customers at once, from a map of ids.
locals {
  existing_customers = {
    grace = "cus_8sD3fG5hJ7kL9zX1cV2bN4mQ"
    alan  = "cus_2wE4rT6yU8iO0pA1sD3fG5hJ"
  }
}

import {
  for_each = local.existing_customers
  to       = payments_customer.existing[each.key]
  id       = each.value
}

resource "payments_customer" "existing" {
  for_each = local.existing_customers
}
