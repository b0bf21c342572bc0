package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

func TestCreateToken_Cases(t *testing.T) {
	t.Parallel()
	c := newEnv(t).c
	year := int64(time.Now().Year() + 1)
	tok, err := c.CreateToken(context.Background(), &client.CardParams{Number: "4242424242424242", ExpMonth: 12, ExpYear: year, CVC: "123"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok.ID, wire.TokenIDPrefix) || tok.Card.Last4 != "4242" || tok.Card.ExpYear != year || tok.Used {
		t.Errorf("token = %+v", tok)
	}
	_, err = c.CreateToken(context.Background(), &client.CardParams{Number: "4242424242424241", ExpMonth: 12, ExpYear: year, CVC: "123"})
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.Code != wire.ErrorCodeIncorrectNumber || apiErr.Param != wire.ParamCardNumber {
		t.Fatalf("bad Luhn: %v", err)
	}
	if strings.Contains(err.Error(), "4242424242424241") {
		t.Errorf("the error quotes the card number: %v", err)
	}
}
