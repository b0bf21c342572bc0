package provider

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// idRandomPattern is the part of every identifier after its prefix.
var idRandomPattern = fmt.Sprintf("[A-Za-z0-9]{%d}", wire.IDRandomLength)

// idRegexp matches a whole identifier of the given wire prefix.
func idRegexp(prefix string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + idRandomPattern + "$")
}

// idShape is an identifier's shape in words, for descriptions and errors.
func idShape(prefix string) string {
	return fmt.Sprintf("%s followed by %d letters or digits", prefix, wire.IDRandomLength)
}

// Identifier patterns, built from the wire contract's prefixes and length.
var (
	customerIDRegexp = idRegexp(wire.CustomerIDPrefix)
	sourceIDRegexp   = idRegexp(wire.SourceIDPrefix)
	paymentIDRegexp  = idRegexp(wire.PaymentIDPrefix)
)

// Human-readable shapes of identifiers, for descriptions and errors.
var (
	customerIDShape = idShape(wire.CustomerIDPrefix)
	sourceIDShape   = idShape(wire.SourceIDPrefix)
	paymentIDShape  = idShape(wire.PaymentIDPrefix)
)

// sourceImportIDSeparator separates the customer and source ids of a
// payments_customer_source import id.
const sourceImportIDSeparator = "/"

// isCustomerID reports whether s has the shape of a customer id.
func isCustomerID(s string) bool { return customerIDRegexp.MatchString(s) }

// isSourceID reports whether s has the shape of a source id.
func isSourceID(s string) bool { return sourceIDRegexp.MatchString(s) }

// parseCustomerImportID checks a payments_customer import id.
func parseCustomerImportID(id string) (string, error) {
	return customerKind.parseImportID(id, "import ID")
}

// parseSourceImportID splits a payments_customer_source import id,
// "cus_…/src_…", into its customer and source ids.
func parseSourceImportID(id string) (customerID, sourceID string, err error) {
	customerID, sourceID, found := strings.Cut(id, sourceImportIDSeparator)
	if !found || !isCustomerID(customerID) || !isSourceID(sourceID) {
		return "", "", fmt.Errorf("the import ID %s is not of the form <customer id>%s<source id>: expected %s, "+
			"then %q, then %s, for example %s%s%s%s%s",
			quoteForError(id), sourceImportIDSeparator, customerIDShape, sourceImportIDSeparator, sourceIDShape,
			wire.CustomerIDPrefix, strings.Repeat("0", wire.IDRandomLength), sourceImportIDSeparator,
			wire.SourceIDPrefix, strings.Repeat("0", wire.IDRandomLength))
	}
	return customerID, sourceID, nil
}

// maxQuotedIDLength bounds how much of a bad id an error repeats.
const maxQuotedIDLength = 80

// quoteForError quotes user input for an error message: printable,
// bounded, and with anything shaped like a key masked, in case a key was
// pasted where an id belongs.
func quoteForError(s string) string {
	s = wire.MaskKeys(s)
	if len(s) > maxQuotedIDLength {
		s = s[:maxQuotedIDLength]
		// Do not cut a UTF-8 sequence in half; %q would show the stray bytes.
		for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] >= 0xC0 {
			s = s[:len(s)-1]
		}
		return fmt.Sprintf("%q…", s)
	}
	return fmt.Sprintf("%q", s)
}
