variable "since" {
  description = "List approved payments created at or after this RFC 3339 time."
  type        = string
  default     = "2020-01-01T00:00:00Z"
}
