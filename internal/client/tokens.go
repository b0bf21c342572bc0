package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// Token is a card token.
type Token = wire.Token

// CardParams are a card's details to tokenize. The number and CVC are
// sent once, in the request body, and kept nowhere by the client.
type CardParams struct {
	Number   string
	ExpMonth int64
	ExpYear  int64
	CVC      string
}

// CreateToken exchanges a card's details for a single-use token.
func (c *Client) CreateToken(ctx context.Context, p *CardParams) (*Token, error) {
	v := url.Values{}
	v.Set(wire.ParamCardNumber, p.Number)
	v.Set(wire.ParamCardExpMonth, strconv.FormatInt(p.ExpMonth, 10))
	v.Set(wire.ParamCardExpYear, strconv.FormatInt(p.ExpYear, 10))
	v.Set(wire.ParamCardCVC, p.CVC)
	var out Token
	return &out, c.call(ctx, http.MethodPost, wire.PathTokens, nil, v, &out)
}
