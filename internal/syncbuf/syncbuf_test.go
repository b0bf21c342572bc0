package syncbuf_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/syncbuf"
)

// TestBuffer_ConcurrentWriters writes from many goroutines while reading
// (run with -race): every write lands whole.
func TestBuffer_ConcurrentWriters(t *testing.T) {
	const writers, lines = 8, 100
	var b syncbuf.Buffer
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range lines {
				if _, err := b.Write([]byte("line\n")); err != nil {
					t.Error(err)
				}
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := strings.Count(b.String(), "line\n"); got != writers*lines {
		t.Fatalf("got %d lines, want %d", got, writers*lines)
	}
}
