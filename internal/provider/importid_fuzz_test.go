package provider

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// importIDSeeds are the seed corpus of the import-id fuzz targets; `go test`
// runs each of them, `go test -fuzz` grows from them.
var importIDSeeds = []string{
	"",
	"/",
	"//",
	"cus_",
	"cus_/src_",
	"cus_" + strings.Repeat("A", wire.IDRandomLength),
	"cus_" + strings.Repeat("A", wire.IDRandomLength) + "/src_" + strings.Repeat("b", wire.IDRandomLength),
	"cus_" + strings.Repeat("A", wire.IDRandomLength) + "/src_" + strings.Repeat("b", wire.IDRandomLength) + "/",
	"cus_" + strings.Repeat("A", wire.IDRandomLength) + "//src_" + strings.Repeat("b", wire.IDRandomLength),
	"src_" + strings.Repeat("b", wire.IDRandomLength) + "/cus_" + strings.Repeat("A", wire.IDRandomLength),
	"cus_" + strings.Repeat("A", wire.IDRandomLength+1) + "/src_" + strings.Repeat("b", wire.IDRandomLength),
	"cus_" + strings.Repeat("é", wire.IDRandomLength) + "/src_" + strings.Repeat("b", wire.IDRandomLength),
	" cus_" + strings.Repeat("A", wire.IDRandomLength) + "/src_" + strings.Repeat("b", wire.IDRandomLength),
	"cus_" + strings.Repeat("A", wire.IDRandomLength) + "\n/src_" + strings.Repeat("b", wire.IDRandomLength),
	"sk_sandbox_" + strings.Repeat("k", 24),
	"sk_live_" + strings.Repeat("k", 24) + "/src_" + strings.Repeat("b", wire.IDRandomLength),
	"cus_" + strings.Repeat("A", wire.IDRandomLength) + "/sk_live_" + strings.Repeat("k", 100),
	strings.Repeat("x", 10_000),
	strings.Repeat("é", 200),
	"\xff\xfe/\xc3",
	"cus_%2F/src_..",
}

// FuzzParseSourceImportID checks that any import id of a
// payments_customer_source either splits into a well-formed customer id
// and source id that join back into it, or fails with a bounded, valid
// UTF-8 message that never repeats anything shaped like a key.
func FuzzParseSourceImportID(f *testing.F) {
	for _, s := range importIDSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		cus, src, err := parseSourceImportID(id)
		if err == nil {
			if !isCustomerID(cus) || !isSourceID(src) {
				t.Fatalf("parseSourceImportID(%q) accepted malformed parts %q and %q", id, cus, src)
			}
			if cus+sourceImportIDSeparator+src != id {
				t.Fatalf("parseSourceImportID(%q) = %q, %q, which do not join back into the id", id, cus, src)
			}
			return
		}
		if cus != "" || src != "" {
			t.Fatalf("parseSourceImportID(%q) failed but returned parts %q and %q", id, cus, src)
		}
		checkImportIDError(t, id, err)
	})
}

// FuzzParseCustomerImportID is FuzzParseSourceImportID for payments_customer.
func FuzzParseCustomerImportID(f *testing.F) {
	for _, s := range importIDSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		cus, err := parseCustomerImportID(id)
		if err == nil {
			if cus != id || !isCustomerID(cus) {
				t.Fatalf("parseCustomerImportID(%q) = %q, want the id itself, well formed", id, cus)
			}
			return
		}
		checkImportIDError(t, id, err)
	})
}

// maxImportIDErrorLength bounds an import-id error: the message itself plus
// at most maxQuotedIDLength characters of the id, escaped (up to 10 bytes
// each, as in \U0001f600).
const maxImportIDErrorLength = 400 + 10*maxQuotedIDLength

func checkImportIDError(t *testing.T, id string, err error) {
	t.Helper()
	msg := err.Error()
	if !utf8.ValidString(msg) {
		t.Fatalf("error for %q is not valid UTF-8: %q", id, msg)
	}
	if len(msg) > maxImportIDErrorLength {
		t.Fatalf("error for an id of %d bytes is %d bytes long, over %d", len(id), len(msg), maxImportIDErrorLength)
	}
	if k := anyKeyPattern.FindString(msg); k != "" {
		t.Fatalf("error for %q repeats something shaped like a key (%q): %s", id, k, msg)
	}
	if !strings.Contains(msg, "expected") {
		t.Fatalf("error for %q does not say what is expected: %s", id, msg)
	}
}
