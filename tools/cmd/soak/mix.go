package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/tfcli"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// runMix runs apply, verify, plan and destroy for one mix on a fresh account.
func (s *soak) runMix(ctx context.Context, r *result) error {
	key := wire.SecretKeySandboxPrefix + rand.Text()
	s.keys = append(s.keys, key)
	api, err := client.New(client.Config{BaseURL: s.baseURL, SecretKey: key, MaxRetries: 20, UserAgent: "payments-soak"})
	if err != nil {
		return err
	}
	dir := filepath.Join(s.work, strings.NewReplacer("/", "-", "%", "pct").Replace(r.Mix.Name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(configHCL(s.cfg, s.baseURL, r.Mix.Name)), 0o644); err != nil {
		return err
	}
	tf := s.tf
	// The key reaches the provider through its environment variable, never
	// through the configuration file.
	tf.Dir, tf.Env = dir, tfcli.Env(os.Environ(), s.cliConfig, "PAYMENTS_SECRET_KEY="+key)
	f := faults{api: api, mix: r.Mix}

	// Apply under faults. The interrupt mix stops the first run part way
	// and checks that every object made by then is in state.
	if err := f.on(ctx); err != nil {
		return err
	}
	if r.Mix.Interrupt {
		if err := s.interruptedApply(ctx, &tf, api, r); err != nil {
			return err
		}
		if err := f.off(ctx); err != nil {
			return err
		}
		v, err := verify(ctx, &tf, api)
		if err != nil {
			return err
		}
		r.InterruptState = v.instances
		r.InterruptOrphans = v.extra
		r.Orphans += v.extra
		r.Missing += v.missing
		if err := f.on(ctx); err != nil {
			return err
		}
	}
	for range 2 {
		res, err := tf.Apply(ctx)
		r.ApplyRuns++
		if err == nil {
			r.ApplyErr = ""
			break
		}
		if !isExit(err) {
			return err
		}
		// An apply under faults may stop with a clear error; a second run
		// must converge without duplicating anything.
		r.ApplyErr = tfcli.FirstError(res.Output)
	}

	if err := f.off(ctx); err != nil {
		return err
	}
	v, err := verify(ctx, &tf, api)
	if err != nil {
		return err
	}
	r.Resources = v.instances
	r.Customers, r.Sources = v.stats.Customers, v.stats.Sources
	r.Duplicates = v.extra
	r.Missing += v.missing

	// A re-plan under the same faults must be empty.
	if err := f.on(ctx); err != nil {
		return err
	}
	changes, res, err := tf.Plan(ctx, "-lock=false")
	switch {
	case changes:
		r.PlanErr = "changes: " + planSummary(res.Output)
	case isExit(err):
		r.PlanErr = tfcli.FirstError(res.Output)
	case err != nil:
		return err
	default:
		r.PlanEmpty = true
	}

	// Destroy under faults leaves nothing.
	if res, err := tf.Destroy(ctx); isExit(err) {
		r.DestroyErr = tfcli.FirstError(res.Output)
	} else if err != nil {
		return err
	}
	if err := f.off(ctx); err != nil {
		return err
	}
	st, err := sandboxclient.New(api).Stats(ctx)
	if err != nil {
		return err
	}
	r.LeftAfterDelete = st.Customers + st.Sources
	r.Orphans += r.LeftAfterDelete
	r.Injected = st.Faults
	r.Requests = st.Requests.Total
	return nil
}

// interruptedApply starts an apply and sends terraform SIGINT once a third
// of the customers exist at the service, then waits for it to stop.
func (s *soak) interruptedApply(ctx context.Context, tf *tfcli.Runner, api *client.Client, r *result) error {
	cmd, err := tf.Start(ctx, tf.ApplyArgs()...)
	if err != nil {
		return err
	}
	r.ApplyRuns++
	done := make(chan error, 1)
	go func() { _, err := cmd.Wait(); done <- err }()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err == nil {
				return fmt.Errorf("the interrupted apply exited 0; it was not interrupted in time:\n%s", tfcli.Tail(cmd.Output(), 10))
			}
			// Stopped before the signal: a failure under faults, which
			// the apply runs that follow must mend.
			return nil
		case <-tick.C:
			st, err := sandboxclient.New(api).Stats(ctx)
			if err != nil || st.Customers < int64(s.cfg.n/3) {
				continue
			}
			r.InterruptAt = int(st.Customers)
			if err := cmd.Interrupt(); err != nil {
				return err
			}
			if err := <-done; err == nil {
				return fmt.Errorf("the interrupted apply exited 0; it was not interrupted in time:\n%s", tfcli.Tail(cmd.Output(), 10))
			}
			return nil
		}
	}
}

// isExit reports whether err is terraform exiting non-zero, as opposed to
// terraform not running at all.
func isExit(err error) bool {
	var exit *tfcli.ExitError
	return errors.As(err, &exit)
}
