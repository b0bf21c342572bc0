package client

// EncodedSize is the size in bytes of the form body the client sends for
// p, on create and on update alike: the same encoding, so that a caller can
// compare it with MaxRequestBodyBytes before sending anything. Metadata
// takes most of it; a character outside ASCII takes up to 9 bytes once
// percent-encoded (€ is %E2%82%AC).
func (p *CustomerParams) EncodedSize() int {
	return len(p.form().Encode())
}

// EncodedSize is the size in bytes of the form body the client sends for
// p, on create and on update alike, as for CustomerParams.
func (p *ProductParams) EncodedSize() int {
	return len(p.form().Encode())
}

// EncodedSize is the size in bytes of the form body CreatePrice sends.
func (p *PriceParams) EncodedSize() int {
	return len(p.form().Encode())
}

// EncodedSize is the size in bytes of the form body UpdatePrice sends.
func (p *PriceUpdateParams) EncodedSize() int {
	return len(p.form().Encode())
}
