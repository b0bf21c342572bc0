package wire

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Webhook endpoints and events: their wire facts [assumed] (the service
// publishes only that webhooks exist), and the one signature function that
// the sandbox signs with and every receiver (tests, the docs' examples)
// verifies with.

// Identifier and secret prefixes. [assumed]
const (
	WebhookEndpointIDPrefix = "we_"
	EventIDPrefix           = "evt_"
	WebhookSecretPrefix     = "whsec_"
	// WebhookSecretRandomLength is the number of [A-Za-z0-9] characters
	// after WebhookSecretPrefix.
	WebhookSecretRandomLength = 32
)

// Paths of the webhook endpoints and events. [assumed]
const (
	PathWebhookEndpoints = APIVersionPrefix + "/webhook_endpoints"
	PathEvents           = APIVersionPrefix + "/events"
	// PathRollSecret follows PathWebhookEndpoints/:id.
	PathRollSecret = "/roll_secret"
	// PathSandboxDeliveries lists delivery attempts (sandbox only).
	PathSandboxDeliveries = PathSandbox + "/deliveries"

	// Templates in the form of the other paths (see ExpandPath).
	PathWebhookEndpoint           = PathWebhookEndpoints + "/{id}"
	PathWebhookEndpointRollSecret = PathWebhookEndpoint + PathRollSecret
	PathEvent                     = PathEvents + "/{id}"
)

// Form and query parameter names. [assumed]
const (
	ParamURL           = "url"
	ParamEnabledEvents = "enabled_events"
	// ParamEnabledEventsItem is the repeated form name of one enabled event.
	ParamEnabledEventsItem = ParamEnabledEvents + "[]"
	ParamDisabled          = "disabled"
	ParamType              = "type"
	ParamEvent             = "event"
	ParamEndpoint          = "endpoint"
	// ParamAPIVersion is the version of the API a webhook endpoint's
	// events are written for, taken at its create only, as Stripe's.
	ParamAPIVersion = "api_version"
)

// APIVersion is the version of this API: what an event's api_version
// says when it is listed or retrieved (the account's default version),
// and in the deliveries to an endpoint created without an api_version.
// It names no version of Stripe's: its date is this API's, its release
// name "payments". [own decision]
const APIVersion = "2026-11-29.payments"

// APIVersionPattern is the form of an api_version: a date, YYYY-MM-DD,
// then optionally a dot and a release name of 1 to 32 lower-case letters,
// as Stripe writes its versions (2024-06-20, 2025-03-31.basil). The date
// must be one of the calendar. [own decision]
const APIVersionPattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}(\.[a-z]{1,32})?$`

// Limits. [assumed]
const (
	// MaxWebhookEndpoints is how many endpoints one account may have.
	MaxWebhookEndpoints = 16
	// WebhookURLMaxLength bounds an endpoint's url, in bytes.
	WebhookURLMaxLength = 2048
	// WebhookDescriptionMaxLength bounds an endpoint's description, in
	// characters (Stripe's bound) [assumed].
	WebhookDescriptionMaxLength = 5000
	// EventRetention is how long events are kept and listed.
	EventRetention = 30 * 24 * time.Hour
	// DeliveryTimeout is how long a receiver has to answer one attempt.
	DeliveryTimeout = 10 * time.Second
	// DeliveryMaxAttempts is the number of attempts of the real service.
	DeliveryMaxAttempts = 8
	// SignatureTolerance is the age past which a receiver should reject
	// a signature, to stop replays.
	SignatureTolerance = 5 * time.Minute
)

// EventTypeAll in enabled_events subscribes to every event type.
const EventTypeAll = "*"

// Event types. [assumed] payment.<status> is sent each time a payment
// enters that status.
const (
	EventCustomerCreated          = "customer.created"
	EventCustomerUpdated          = "customer.updated"
	EventCustomerDeleted          = "customer.deleted"
	EventCustomerSourceCreated    = "customer.source.created"
	EventCustomerSourceDeleted    = "customer.source.deleted"
	EventPaymentPending           = "payment.pending"
	EventPaymentApproved          = "payment.approved"
	EventPaymentAuthorized        = "payment.authorized"
	EventPaymentDeclined          = "payment.declined"
	EventPaymentRefunded          = "payment.refunded"
	EventPaymentPartiallyRefunded = "payment.partially_refunded"
	EventPaymentDisputed          = "payment.disputed"
	EventPaymentUpdated           = "payment.updated"
)

// EventTypes lists every event type, customers first.
var EventTypes = []string{
	EventCustomerCreated, EventCustomerUpdated, EventCustomerDeleted,
	EventCustomerSourceCreated, EventCustomerSourceDeleted,
	EventPaymentPending, EventPaymentApproved, EventPaymentAuthorized, EventPaymentDeclined,
	EventPaymentRefunded, EventPaymentPartiallyRefunded, EventPaymentDisputed, EventPaymentUpdated,
	EventProductCreated, EventProductUpdated, EventProductDeleted,
	EventPriceCreated, EventPriceUpdated,
	EventSubscriptionCreated, EventSubscriptionUpdated, EventSubscriptionDeleted, EventSubscriptionTrialWillEnd,
	EventInvoiceCreated, EventInvoiceFinalized, EventInvoicePaid, EventInvoicePaymentFailed,
	EventInvoicePaymentActionNeeded, EventInvoiceVoided, EventInvoiceMarkedUncollectible,
	EventTestClockCreated, EventTestClockAdvancing, EventTestClockReady, EventTestClockDeleted,
}

// PaymentStatusEvent is the event type sent when a payment enters status:
// one of the constants, not a new string each call (a renewal and a
// payment create each send one).
func PaymentStatusEvent(status string) string {
	const prefix = "payment."
	for _, t := range EventTypes {
		if len(t) == len(prefix)+len(status) && t[len(prefix):] == status && t[:len(prefix)] == prefix {
			return t
		}
	}
	return prefix + status
}

// IsEventType reports whether s is an event type (not EventTypeAll).
func IsEventType(s string) bool {
	for _, t := range EventTypes {
		if t == s {
			return true
		}
	}
	return false
}

// HeaderSignature carries a delivery's signature. [assumed]
const HeaderSignature = "Payments-Signature"

// The parts of a Payments-Signature header: t=<unix seconds>,v1=<hex>.
const (
	signatureTimestampKey = "t"
	signatureSchemeV1     = "v1"
)

// SignaturePayload is what is signed: "<unix seconds>.<body>".
func signaturePayload(unix int64, body []byte) []byte {
	b := strconv.AppendInt(make([]byte, 0, 21+len(body)), unix, 10)
	b = append(b, '.')
	return append(b, body...)
}

// ComputeSignature is the v1 signature: the hex HMAC-SHA256 of
// "<unix seconds>.<body>", keyed with the endpoint's secret (whsec_…, used
// whole as the key).
func ComputeSignature(secret string, t time.Time, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(signaturePayload(t.Unix(), body))
	return hex.EncodeToString(mac.Sum(nil))
}

// Sign returns the Payments-Signature header value for body sent at t:
// "t=<unix seconds>,v1=<signature>".
func Sign(secret string, t time.Time, body []byte) string {
	return signatureTimestampKey + "=" + strconv.FormatInt(t.Unix(), 10) + "," +
		signatureSchemeV1 + "=" + ComputeSignature(secret, t, body)
}

// Errors of VerifySignature; test them with errors.Is.
var (
	ErrSignatureMissing   = errors.New("no Payments-Signature header")
	ErrSignatureMalformed = errors.New("the Payments-Signature header is not of the form t=<unix seconds>,v1=<hex>")
	ErrSignatureMismatch  = errors.New("no v1 signature in the Payments-Signature header matches the body and the secret")
	ErrSignatureTooOld    = errors.New("the Payments-Signature timestamp is outside the tolerance")
)

// VerifySignature checks a Payments-Signature header against body and
// secret: one of its v1 signatures must match (compared in constant time),
// and its timestamp must be within tolerance of now, either way (0 skips
// the time check; use SignatureTolerance). Unknown schemes are ignored, so
// that a receiver keeps working when new ones are added.
func VerifySignature(header, secret string, body []byte, tolerance time.Duration, now time.Time) error {
	if header == "" {
		return ErrSignatureMissing
	}
	var (
		ts     int64
		tsRaw  string // signed as sent, not as reformatted
		haveTS bool
		sigs   [][]byte
	)
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrSignatureMalformed
		}
		switch k {
		case signatureTimestampKey:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || haveTS {
				return ErrSignatureMalformed
			}
			ts, tsRaw, haveTS = n, v, true
		case signatureSchemeV1:
			sig, err := hex.DecodeString(v)
			if err != nil {
				return ErrSignatureMalformed
			}
			sigs = append(sigs, sig)
		}
	}
	if !haveTS || len(sigs) == 0 {
		return ErrSignatureMalformed
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(tsRaw))
	mac.Write([]byte{'.'})
	mac.Write(body)
	want := mac.Sum(nil)
	matched := false
	for _, sig := range sigs {
		if hmac.Equal(sig, want) {
			matched = true
		}
	}
	if !matched {
		return ErrSignatureMismatch
	}
	if tolerance > 0 {
		if age := now.Sub(time.Unix(ts, 0)); age > tolerance || age < -tolerance {
			return fmt.Errorf("%w: signed at %s, %s from now, tolerance %s", ErrSignatureTooOld,
				time.Unix(ts, 0).UTC().Format(time.RFC3339), age.Round(time.Second), tolerance)
		}
	}
	return nil
}
