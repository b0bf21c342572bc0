import {
  to = payments_webhook_endpoint.example
  id = "we_7hT2kQ9mZxR4bN1cLw8yPs3V"
}
