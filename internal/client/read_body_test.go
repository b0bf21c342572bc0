package client

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadBody_ContentLength reads answers whose Content-Length is right, wrong or
// unknown: always the whole body, whatever the buffer was sized for.
func TestReadBody_ContentLength(t *testing.T) {
	body := strings.Repeat("payments ", 300) // 2,700 bytes, over io.ReadAll's first 512
	for _, tc := range []struct {
		name   string
		length int64
	}{
		{"exact", int64(len(body))},
		{"unknown", -1},
		{"announced shorter", 10},
		{"announced longer", int64(len(body)) * 2},
		{"announced empty", 0},
		{"over the limit announced", maxResponseBytes + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readBody(iotest.OneByteReader(strings.NewReader(body)), tc.length)
			if err != nil || string(got) != body {
				t.Fatalf("readBody(length %d) = %d bytes, %v; want the %d bytes of the body", tc.length, len(got), err, len(body))
			}
		})
	}
}

// TestReadBody_Error passes on a read error with what came before it.
func TestReadBody_Error(t *testing.T) {
	boom := errors.New("connection reset")
	got, err := readBody(io.MultiReader(strings.NewReader("partial"), errReader{boom}), 100)
	if !errors.Is(err, boom) || string(got) != "partial" {
		t.Fatalf("readBody = %q, %v; want %q and %v", got, err, "partial", boom)
	}
}

// TestBodyBytes_NoCopy hands over an attempt's answer without a copy, and reads
// anything else, or an answer already partly read, as readBody does.
func TestBodyBytes_NoCopy(t *testing.T) {
	all := []byte(`{"id":"cus_1"}`)
	whole := &readBodyCloser{Reader: bytes.NewReader(all), all: all}
	got, err := bodyBytes(whole, int64(len(all)))
	if err != nil || &got[0] != &all[0] {
		t.Fatalf("bodyBytes(an unread answer) = %q, %v; want the answer's own bytes", got, err)
	}
	if n, _ := whole.Read(make([]byte, 1)); n != 0 {
		t.Fatalf("the answer after bodyBytes still reads %d bytes; want it consumed", n)
	}

	partly := &readBodyCloser{Reader: bytes.NewReader(all), all: all}
	_, _ = partly.Read(make([]byte, 2))
	got, err = bodyBytes(partly, -1)
	if err != nil || string(got) != string(all[2:]) {
		t.Fatalf("bodyBytes(an answer read 2 bytes into) = %q, %v; want the rest, %q", got, err, all[2:])
	}

	got, err = bodyBytes(strings.NewReader(string(all)), int64(len(all)))
	if err != nil || string(got) != string(all) {
		t.Fatalf("bodyBytes(another reader) = %q, %v; want %q", got, err, all)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
