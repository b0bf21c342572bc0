package sandbox

import "github.com/paymentsdev/terraform-provider-payments/internal/sandbox/ids"

// rid is the random part of an object id (package ids), with the short
// names the handlers use.
type rid = ids.RID

func newRID() rid { return ids.New() }

// parseRID takes the random part out of prefix+24 alphanumerics; ok is
// false for anything else, which callers answer as "no such object".
func parseRID(s, prefix string) (rid, bool) {
	return ids.Parse(s, prefix)
}

// appendID writes prefix+r as a JSON string.
func appendID(b []byte, prefix string, r rid) []byte { return ids.Append(b, prefix, r) }

// newAuthorizationCode returns the issuer's code: six digits.
func newAuthorizationCode() string { return ids.AuthorizationCode() }
