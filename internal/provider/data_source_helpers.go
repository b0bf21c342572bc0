package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
)

// dataSourceReadTimeoutDefault bounds a data source's read when
// timeouts.read is unset. It leaves room for the client's retries with
// backoff and, for payments_payments, for many pages.
const dataSourceReadTimeoutDefault = 5 * time.Minute

// dataSourceTimeoutsBlock is the `timeouts` block of every data source, a
// block like the resources' own.
func dataSourceTimeoutsBlock(ctx context.Context) schema.Block {
	block := timeouts.BlockWithOpts(ctx, timeouts.Opts{
		ReadDescription: fmt.Sprintf("How long the read may take, retries included, as a Go duration such as `30s` or `2m`. Defaults to `%s`.",
			client.FormatDuration(dataSourceReadTimeoutDefault)),
	})
	// The library sets no description on the block itself; the schema
	// description test catches a library change that defeats this.
	if b, ok := block.(schema.SingleNestedBlock); ok {
		b.MarkdownDescription = "Time limits for this data source's read."
		return b
	}
	return block
}

// dataSourceModel is a data source's model, with its timeouts block.
type dataSourceModel interface {
	readTimeouts() timeouts.Value
}

// beginRead is the opening of every data source's Read, as
// resourceTimeouts.begin is of every resource operation: it reads the model
// m from the configuration, checks that the provider configured a client,
// and returns ctx bounded by timeouts.read. ok is false when diags hold an
// error; cancel must be called otherwise.
func beginRead(ctx context.Context, c *client.Client, config configGetter, m dataSourceModel,
	diags *diag.Diagnostics) (_ context.Context, cancel context.CancelFunc, ok bool) {
	diags.Append(config.Get(ctx, m)...)
	if diags.HasError() {
		return ctx, func() {}, false
	}
	if c == nil {
		diags.Append(notConfiguredDiagnostic())
		return ctx, func() {}, false
	}
	d, td := m.readTimeouts().Read(ctx, dataSourceReadTimeoutDefault)
	diags.Append(td...)
	if diags.HasError() {
		return ctx, func() {}, false
	}
	ctx, cancel = context.WithTimeout(ctx, d)
	return ctx, cancel, true
}

// quotedList formats values as Markdown code spans: `a`, `b` or `c`.
func quotedList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "`" + v + "`"
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// rfc3339Validator checks that a string is an RFC 3339 timestamp.
var rfc3339Validator = stringCheck{
	markdown: "value must be an RFC 3339 timestamp, such as `2025-01-31T00:00:00Z`",
	check: func(p path.Path, s string, diags *diag.Diagnostics) {
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			diags.AddAttributeError(p, "Invalid RFC 3339 Timestamp",
				fmt.Sprintf("%s: %q is not an RFC 3339 timestamp. Use a date, time and offset such as 2025-01-31T00:00:00Z or 2025-01-31T09:30:00+02:00.", p, s))
		}
	},
}
