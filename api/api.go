// Package api holds the payments API's wire contract as an OpenAPI 3.1
// document, openapi.yaml, the one description of every path, parameter,
// answer, error and header that the client and the sandbox share.
package api

import _ "embed"

// OpenAPI is the text of openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte
