package reqlog

import (
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/apierr"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/jsonw"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// AppendJSON writes the line as a request object of GET
// /_sandbox/requests.
func (e *Line) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonw.String(b, e.ID)
	b = append(b, `,"object":"request","at":"`...)
	b = e.At.UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, `","method":`...)
	b = jsonw.String(b, e.Method)
	b = append(b, `,"path":`...)
	b = jsonw.String(b, e.Path)
	b = append(b, `,"status":`...)
	b = jsonw.Int(b, int64(e.Status))
	b = append(b, `,"duration_ms":`...)
	b = jsonw.Millis(b, e.Duration)
	b = append(b, `,"idempotency_key":`...)
	b = jsonw.OptString(b, e.IdemKey)
	b = append(b, `,"replayed":`...)
	b = jsonw.Bool(b, e.Replayed)
	b = append(b, `,"error_code":`...)
	b = jsonw.OptString(b, e.Code)
	return append(b, '}')
}

// StatusClass reads the status_class filter: "" keeps every line, 2xx
// those answered 200 to 299, and so on from 1xx to 5xx.
func StatusClass(class string) (keep func(*Line) bool, e *apierr.Error) {
	if class == "" {
		return func(*Line) bool { return true }, nil
	}
	if len(class) != 3 || class[0] < '1' || class[0] > '5' || class[1:] != "xx" {
		return nil, apierr.Invalid(wire.ParamStatusClass, "status_class %q is not a status class; use 2xx, 3xx, 4xx or 5xx (1xx too).", apierr.Clip(class))
	}
	lo := int(class[0]-'0') * 100
	return func(e *Line) bool { return e.Status >= lo && e.Status < lo+100 }, nil
}
