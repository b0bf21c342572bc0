# A subscription is imported by its id.
terraform import payments_subscription.example sub_2nLw8yHs3V4fE9kQ2mZxR7bT
