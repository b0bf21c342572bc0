package sandbox

// SetAfterReserve lets the external tests hold a request inside the window
// between reserving its Idempotency-Key and acting, where a concurrent
// repeat must get idempotency_key_in_use.
func SetAfterReserve(s *Server, f func()) { s.afterReserve = f }
