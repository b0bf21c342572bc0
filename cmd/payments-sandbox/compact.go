package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/storage"
)

// compactCommand is the subcommand that compacts a data file by hand,
// whatever its free space; a start compacts it only when most of it is
// free (the guide "Running a shared sandbox").
const compactCommand = "compact"

// compact runs `payments-sandbox compact -data FILE`: exit status 0 once
// the file is compacted, 1 when it could not be (it is then unchanged, or
// in use), 2 for a mistake in the flags.
func compact(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("payments-sandbox "+compactCommand, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	data := fs.String("data", "", "compact this data `file`, which no running payments-sandbox may be using; its write-ahead log, if a crash left one, stays valid beside it")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stdout, "Usage: payments-sandbox %s -data FILE\n\nRewrites a stopped sandbox's data file with its live pages only, so that it takes no more room\nthan its records need, and prints its sizes before and after.\n\nFlags:\n", compactCommand)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox %s: %v; see payments-sandbox %[1]s -h\n", compactCommand, err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "payments-sandbox %s: unexpected argument %q; see payments-sandbox %[1]s -h\n", compactCommand, fs.Arg(0))
		return 2
	}
	if *data == "" {
		fmt.Fprintf(stderr, "payments-sandbox %s: -data is missing; name the data file to compact\n", compactCommand)
		return 2
	}
	c, err := storage.Compact(*data)
	if err != nil {
		fmt.Fprintf(stderr, "payments-sandbox %s: %v%s\n", compactCommand, err, accessHint(err))
		return 1
	}
	fmt.Fprintf(stdout, "compacted data file %s from %v\n", *data, c)
	return 0
}
