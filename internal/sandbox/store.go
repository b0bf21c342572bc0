package sandbox

// Store keeps a sandbox's state across restarts. Open one with OpenStore.
type Store interface {
	// Close flushes and releases the store.
	Close() error
}
