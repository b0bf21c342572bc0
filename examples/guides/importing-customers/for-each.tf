# Terraform 1.7 and later: many customers at once, from a map holding each
# customer's id and the values it has at the service. The resource block
# sets every field the customers have, so the import changes none of them:
# an empty block would plan email, name and metadata to null and clear them.
locals {
  existing_customers = {
    grace = {
      id       = "cus_8sD3fG5hJ7kL9zX1cV2bN4mQ"
      email    = "grace@example.com"
      name     = "Grace Hopper"
      metadata = { team = "compilers" }
    }
    alan = {
      id       = "cus_2wE4rT6yU8iO0pA1sD3fG5hJ"
      email    = "alan@example.com"
      name     = "Alan Turing"
      metadata = null
    }
  }
}

import {
  for_each = local.existing_customers
  to       = payments_customer.existing[each.key]
  id       = each.value.id
}

resource "payments_customer" "existing" {
  for_each = local.existing_customers

  email    = each.value.email
  name     = each.value.name
  metadata = each.value.metadata
}
