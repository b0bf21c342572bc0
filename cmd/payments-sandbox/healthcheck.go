package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// healthcheckCommand is the subcommand that asks a running sandbox for
// GET /healthz: the container image's HEALTHCHECK, since the image has no
// shell or curl to ask with.
const healthcheckCommand = "healthcheck"

// healthcheck runs `payments-sandbox healthcheck [-addr host:port]`: exit
// status 0 when the sandbox at addr answers /healthz with 200, 1 when it
// answers otherwise or not at all, 2 for a mistake in the flags.
func healthcheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("payments-sandbox healthcheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:12111", "ask the sandbox listening on this `host:port` (a wildcard host such as 0.0.0.0 asks loopback)")
	timeout := fs.Duration("timeout", 3*time.Second, "give up after this `duration`")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stdout, "Usage: payments-sandbox %s [flags]\n\nExits 0 when the sandbox answers GET %s with 200, 1 otherwise.\n\nFlags:\n", healthcheckCommand, wire.PathHealth)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox %s: %v; see payments-sandbox %[1]s -h\n", healthcheckCommand, err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "payments-sandbox %s: unexpected argument %q; see payments-sandbox %[1]s -h\n", healthcheckCommand, fs.Arg(0))
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "payments-sandbox %s: -timeout %s is not positive; give a duration such as 3s\n", healthcheckCommand, *timeout)
		return 2
	}
	target, err := healthTarget(*addr)
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox %s: %v\n", healthcheckCommand, err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+target+wire.PathHealth, nil)
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox %s: %v\n", healthcheckCommand, err)
		return 2
	}
	// No proxy from the environment: the sandbox is local to the check.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox %s: unhealthy: %v\n", healthcheckCommand, err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "payments-sandbox %s: unhealthy: GET %s answered %s: %s\n", healthcheckCommand, wire.PathHealth, resp.Status, body)
		return 1
	}
	fmt.Fprintf(stdout, "healthy: %s\n", body)
	return 0
}

// healthTarget is the host:port to ask for addr, the sandbox's -addr:
// a wildcard or empty host is asked on loopback, where it also listens.
func healthTarget(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return "", fmt.Errorf("-addr %q is not a host:port with a port; give the address the sandbox listens on, such as 127.0.0.1:12111", addr)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
