package ids

import "testing"

// TestRefill_KeysAgainFromCryptoRand: a stream serves at most rekeyBytes
// before a new key is drawn, and a refill never repeats the buffer.
func TestRefill_KeysAgainFromCryptoRand(t *testing.T) {
	pool.Lock()
	defer pool.Unlock()
	for _, tc := range []struct {
		name   string
		drawn  int
		rekeys bool
	}{
		{"fresh", 0, false},
		{"one buffer short of the bound", rekeyBytes - len(pool.buf), false},
		{"at the bound", rekeyBytes, true},
		{"past the bound", rekeyBytes + 1, true},
	} {
		refill() // a stream to compare with
		before, prev := pool.stream, pool.buf
		pool.drawn, pool.off = tc.drawn, len(pool.buf)
		refill()
		if got := pool.stream != before; got != tc.rekeys {
			t.Errorf("%s: new key = %v, want %v", tc.name, got, tc.rekeys)
		}
		if want := len(pool.buf); tc.rekeys && pool.drawn != want {
			t.Errorf("%s: drawn = %d after a new key, want %d", tc.name, pool.drawn, want)
		}
		if pool.buf == prev {
			t.Errorf("%s: the refill repeated the buffer", tc.name)
		}
		if pool.off != 0 {
			t.Errorf("%s: off = %d after a refill, want 0", tc.name, pool.off)
		}
	}
}
