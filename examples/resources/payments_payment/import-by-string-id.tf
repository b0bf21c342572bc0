import {
  to = payments_payment.example
  id = "pay_7Hq2LmXw9RtK4sVb1NcY6pDz"
}
