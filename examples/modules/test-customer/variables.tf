variable "email" {
  description = "The customer's email address."
  type        = string

  validation {
    condition     = can(regex("^[^@\\s]+@[^@\\s]+$", var.email))
    error_message = "email must be an address of the form local@domain."
  }
}

variable "name" {
  description = "The customer's name."
  type        = string
  default     = null
}

variable "metadata" {
  description = "Metadata for the customer; seeded_by is added."
  type        = map(string)
  default     = {}
}

variable "card_token" {
  description = "The token of the card to attach, such as the sandbox's tok_visa."
  type        = string
  default     = "tok_visa"
  sensitive   = true
}

variable "first_payment" {
  description = "A first payment to charge to the card, its amount in major units (\"19.99\"); null for none."
  type = object({
    amount      = string
    currency    = string
    description = optional(string)
  })
  default = null
}
