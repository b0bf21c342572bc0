package sandbox

import (
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
)

// The sandbox writes its JSON by hand (package jsonw); these are the short
// names its handlers call.

func appendString(b []byte, s string) []byte { return jsonw.String(b, s) }

// appendOptString writes "" as null: a cleared or never-set field.
func appendOptString(b []byte, s string) []byte { return jsonw.OptString(b, s) }

func appendInt(b []byte, n int64) []byte { return jsonw.Int(b, n) }

// appendTime writes unix seconds as RFC 3339 UTC, second precision, Z.
func appendTime(b []byte, unix int64) []byte { return jsonw.Time(b, unix) }
