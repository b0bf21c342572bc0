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

// TestNewTable_Unbiased: every character of an alphabet takes as many bytes as
// every other, and the bytes left over are rejected (0), so that draw is
// unbiased.
func TestNewTable_Unbiased(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		table    *[256]byte
		digits   string
		each     int // bytes mapped to each character
		rejected int
	}{
		{"ids", alnumTable, alphabet, 4, 8},
		{"codes", digitTable, "0123456789", 25, 6},
	} {
		count := map[byte]int{}
		for b, c := range tc.table {
			count[c]++
			if c != 0 && c != tc.digits[b%len(tc.digits)] {
				t.Errorf("%s: byte %d maps to %q, want %q", tc.name, b, c, tc.digits[b%len(tc.digits)])
			}
			if c == 0 && b < 256-tc.rejected {
				t.Errorf("%s: byte %d rejected, below the limit", tc.name, b)
			}
		}
		if count[0] != tc.rejected {
			t.Errorf("%s: %d bytes rejected, want %d", tc.name, count[0], tc.rejected)
		}
		for i := range len(tc.digits) {
			if count[tc.digits[i]] != tc.each {
				t.Errorf("%s: %q takes %d bytes, want %d", tc.name, tc.digits[i], count[tc.digits[i]], tc.each)
			}
		}
	}
}
