package sandbox

import "time"

// SetAfterReserve lets the external tests hold a request inside the window
// between reserving its Idempotency-Key and acting, where a concurrent
// repeat must get idempotency_key_in_use.
func SetAfterReserve(s *Server, f func()) { s.afterReserve = f }

// WebhookSettings are the delivery settings a server runs with: attempts,
// first retry wait and per-attempt timeout.
func WebhookSettings(s *Server) (attempts int, retryBase, timeout time.Duration) {
	return s.hooks.attempts, s.hooks.base, s.hooks.timeout
}
