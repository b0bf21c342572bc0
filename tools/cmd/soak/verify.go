package main

import (
	"context"
	"fmt"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// verification is what state and the service hold after a run.
type verification struct {
	instances int   // resource instances in state
	extra     int64 // objects at the service that state does not name
	missing   int   // objects in state that the service does not have
	stats     *wire.Stats
}

// verify compares terraform's state with the account's objects at the
// service. Objects outside state are counted from the sandbox's stats; each
// customer in state is read to find sources that state does not name.
func verify(ctx context.Context, tf *tfcli.Runner, api *client.Client) (*verification, error) {
	customers, sources, err := stateIDs(ctx, tf)
	if err != nil {
		return nil, err
	}
	st, err := sandboxclient.New(api).Stats(ctx)
	if err != nil {
		return nil, err
	}
	v := &verification{instances: len(customers) + len(sources), stats: st}
	var presentCustomers, presentSources int64
	sourcesOf := map[string]map[string]bool{}
	for _, id := range customers {
		c, err := api.GetCustomer(ctx, id)
		if client.IsNotFound(err) {
			v.missing++
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading customer %s: %w", id, err)
		}
		presentCustomers++
		sourcesOf[id] = map[string]bool{}
		for _, s := range c.Sources.Data {
			sourcesOf[id][s.ID] = true
		}
	}
	for id, cus := range sources {
		if sourcesOf[cus] == nil {
			// Its customer was not in state: ask the service directly.
			if _, err := api.GetSource(ctx, cus, id); err != nil {
				if client.IsNotFound(err) {
					v.missing++
					continue
				}
				return nil, fmt.Errorf("reading source %s of %s: %w", id, cus, err)
			}
		} else if !sourcesOf[cus][id] {
			v.missing++
			continue
		}
		presentSources++
	}
	v.extra = (st.Customers - presentCustomers) + (st.Sources - presentSources)
	return v, nil
}

// stateIDs returns the ids of the customers and of the sources (mapped to
// their customer) in state.
func stateIDs(ctx context.Context, tf *tfcli.Runner) (customers []string, sources map[string]string, err error) {
	resources, err := tf.State(ctx)
	if err != nil {
		return nil, nil, err
	}
	sources = map[string]string{}
	for _, res := range resources {
		switch res.Type {
		case "payments_customer":
			customers = append(customers, res.ID())
		case "payments_customer_source":
			sources[res.ID()] = res.Attr("customer")
		}
	}
	return customers, sources, nil
}
