//go:build generate

// Package tools runs the documentation generators. Its module (go.mod
// beside this file) pins them with `tool` directives, so the provider's own
// go.mod carries none of their dependencies. `make generate` runs
// `go generate` here; go generate sets the "generate" build tag, so no
// build ever sees this file.
package tools

// Format the examples first: tfplugindocs copies them into docs/ verbatim.
//go:generate terraform fmt -recursive ../examples/

// Render docs/ from the provider's schema, templates/ and examples/, then
// check the result the way the Registry does.
//go:generate go tool tfplugindocs generate --provider-dir .. --provider-name payments
//go:generate go tool tfplugindocs validate --provider-dir .. --provider-name payments
