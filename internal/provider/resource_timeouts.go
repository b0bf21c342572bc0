package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// resourceTimeouts are the default time limits of a resource's operations,
// retries included.
type resourceTimeouts struct {
	Create, Read, Update, Delete time.Duration
}

// block is the resource's `timeouts` block, with descriptions that name
// each default, so that the docs cannot drift from the code.
func (d resourceTimeouts) block(ctx context.Context, resourceName string) schema.Block {
	desc := func(op string, def time.Duration) string {
		return fmt.Sprintf("How long %s may take, retries included, as a Go duration such as `30s` or `2m`. Defaults to `%s`.",
			op, durationString(def))
	}
	block := timeouts.Block(ctx, timeouts.Opts{
		Create: true, Read: true, Update: true, Delete: true,
		CreateDescription: desc("creating the "+resourceName, d.Create),
		ReadDescription:   desc("reading the "+resourceName+" (on every refresh and plan)", d.Read),
		UpdateDescription: desc("updating the "+resourceName, d.Update),
		DeleteDescription: desc("deleting the "+resourceName, d.Delete),
	})
	// The library sets no description on the block itself.
	if b, ok := block.(schema.SingleNestedBlock); ok {
		b.MarkdownDescription = fmt.Sprintf("Time limits for the operations on this %s.", resourceName)
		return b
	}
	return block
}
