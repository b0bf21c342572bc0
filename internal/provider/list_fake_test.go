package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeList is a list endpoint over ids (newest first) that pages as the
// service does, by limit and starting_after, and ignores every filter. It
// keeps the raw query of each request it answers.
type fakeList struct {
	URL     string
	mu      sync.Mutex
	queries []string
}

// startFakeList serves the list at path, rendering the object at index i
// of ids with object(i); the server closes when the test ends.
func startFakeList(t *testing.T, path string, ids []string, object func(i int) string) *fakeList {
	t.Helper()
	f := &fakeList{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.queries = append(f.queries, r.URL.RawQuery)
		f.mu.Unlock()
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		start := 0
		if after := q.Get("starting_after"); after != "" {
			start = slices.Index(ids, after) + 1
		}
		end := min(start+limit, len(ids))
		var data []string
		for i := start; i < end; i++ {
			data = append(data, object(i))
		}
		fmt.Fprintf(w, `{"object":"list","url":%q,"has_more":%t,"data":[%s]}`, path, end < len(ids), strings.Join(data, ","))
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// take returns the queries answered since the last take, and forgets them.
func (f *fakeList) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.queries
	f.queries = nil
	return q
}
