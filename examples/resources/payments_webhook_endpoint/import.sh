# A webhook endpoint is imported by its id. The service never shows a secret
# again, so after an import `secret` is null (and the endpoint's secret is
# unchanged) until secret_version changes and rolls it.
terraform import payments_webhook_endpoint.example we_7hT2kQ9mZxR4bN1cLw8yPs3V
