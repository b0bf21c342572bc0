package model

import (
	"fmt"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Refusal is a rule's no: the parameter at fault (none when it is the
// object's state that refuses), the wire error code, and a message that
// says what to do instead. The handlers answer it as a 400
// invalid_request_error, or a 402 card_error when Card is set.
type Refusal struct {
	Param   string
	Code    string
	Message string
	// Card marks a refusal of a card's details: a 402 card_error.
	Card bool
}

func (r *Refusal) Error() string { return r.Message }

// invalid is a refusal of parameter param's value.
func invalid(param, format string, args ...any) *Refusal {
	return &Refusal{Param: param, Code: wire.ErrorCodeParameterInvalid, Message: fmt.Sprintf(format, args...)}
}

// unexpected is a refusal by the object's state, under code.
func unexpected(code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Message: fmt.Sprintf(format, args...)}
}

// cardRefusal is a refusal of a card's detail param, under code.
func cardRefusal(param, code, format string, args ...any) *Refusal {
	return &Refusal{Param: param, Code: code, Message: fmt.Sprintf(format, args...), Card: true}
}

// clip bounds text from a request quoted back in a message, as the
// handlers' refusals do: anything like a key masked, then cut short.
func clip(s string) string { return wire.Clip(wire.MaskKeys(s), wire.ErrorEchoMaxLength) }
