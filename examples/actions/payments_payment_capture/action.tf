# Capture a payment that an application under test authorized (with
# capture = false), once Terraform has made what it needs: here, when the
# terraform_data below is created. Terraform 1.14 or later.
variable "authorized_payment_id" {
  type = string
}

action "payments_payment_capture" "order" {
  config {
    payment = var.authorized_payment_id
    amount  = 1500 # less than authorized: the rest is released
  }
}

resource "terraform_data" "order_shipped" {
  input = var.authorized_payment_id

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.payments_payment_capture.order]
    }
  }
}

# Or on demand, without a trigger:
#   terraform apply -invoke=action.payments_payment_capture.order
