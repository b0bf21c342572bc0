variable "name" {
  type        = string
  description = "The customer's name."
}

variable "email" {
  type        = string
  description = "The customer's e-mail address."
  default     = null
}

variable "price" {
  type        = string
  description = "The id of the recurring price (price_...) the customer subscribes to."
}

variable "quantity" {
  type        = number
  description = "How many of the price."
  default     = 1

  validation {
    condition     = var.quantity >= 1
    error_message = "quantity must be at least 1."
  }
}

variable "card_token" {
  type        = string
  description = "The token of the card charged every period, such as the sandbox's tok_visa."
  default     = "tok_visa"
}

variable "test_clock" {
  type        = string
  description = "The id of a test clock (clock_...) to put the customer on, for tests; null for real time."
  default     = null
}
