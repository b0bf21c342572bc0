package sandbox

import (
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
)

// The sandbox writes its JSON by hand (package jsonw); these are the short
// names its handlers call.

func appendString(b []byte, s string) []byte { return jsonw.String(b, s) }

// jsonLen is the length of s as appendString writes it, without the quotes.
func jsonLen(s string) int { return jsonw.Len(s) }

// appendOptString writes "" as null: a cleared or never-set field.
func appendOptString(b []byte, s string) []byte { return jsonw.OptString(b, s) }

func appendInt(b []byte, n int64) []byte { return jsonw.Int(b, n) }

func appendBool(b []byte, v bool) []byte { return jsonw.Bool(b, v) }

// appendTime writes unix seconds as RFC 3339 UTC, second precision, Z.
func appendTime(b []byte, unix int64) []byte { return jsonw.Time(b, unix) }

// appendOptTime writes 0 as null: a time that has not come.
func appendOptTime(b []byte, unix int64) []byte { return jsonw.OptTime(b, unix) }
