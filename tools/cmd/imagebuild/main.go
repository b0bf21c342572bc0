// Command imagebuild builds payments-sandbox's container image from
// image/Dockerfile without a daemon, and reproducibly: every file in the
// layer has the commit's time, fixed owners and modes, and the config
// holds no build host's names, so one commit gives one image ID. It reads
// the FROM scratch subset of a Dockerfile (dockerfile.go) and writes a
// docker-archive, which `podman load` and `docker load` read; that format
// keeps the HEALTHCHECK, which OCI image configs have no field for.
//
//	imagebuild -dockerfile image/Dockerfile -context DIR -platform linux/amd64 \
//	    -build-arg VERSION=v1.2.3 -build-arg REVISION=abc... -created 1767225600 \
//	    -tag localhost/payments-sandbox:dev -o payments-sandbox-image.tar
//
// It prints the image ID, the digest of the image's config.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

type argList map[string]string

func (a argList) String() string { return "" }

func (a argList) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not NAME=value", v)
	}
	a[k] = val
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "imagebuild: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("imagebuild", flag.ContinueOnError)
	dockerfile := fs.String("dockerfile", "image/Dockerfile", "the Dockerfile `path`")
	context := fs.String("context", ".", "the build context `directory` COPY reads from")
	platform := fs.String("platform", "linux/amd64", "the image's `os/arch`, also the build argument TARGETPLATFORM")
	created := fs.Int64("created", 0, "the image's creation time and every file's, in Unix `seconds` (the commit's time, SOURCE_DATE_EPOCH)")
	tag := fs.String("tag", "", "the `name:tag` to load the image as")
	out := fs.String("o", "", "write the docker-archive to this `file`")
	buildArgs := argList{}
	fs.Var(buildArgs, "build-arg", "set an ARG, `NAME=value` (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *tag == "" {
		return errors.New("-o and -tag are required; see imagebuild -h")
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; see imagebuild -h", fs.Arg(0))
	}
	if v := os.Getenv("SOURCE_DATE_EPOCH"); *created == 0 && v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds", v)
		}
		*created = n
	}
	goos, goarch, ok := strings.Cut(*platform, "/")
	if !ok {
		return fmt.Errorf("-platform %q is not os/arch, such as linux/amd64", *platform)
	}
	buildArgs["TARGETPLATFORM"] = *platform
	r, err := parseDockerfile(*dockerfile, buildArgs)
	if err != nil {
		return err
	}
	when := time.Unix(*created, 0).UTC()
	files, err := r.files(*context)
	if err != nil {
		return err
	}
	layer, err := tarLayer(files, when)
	if err != nil {
		return err
	}
	id, archive, err := dockerArchive(r, layer, goos, goarch, when, *tag)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, archive, 0o644); err != nil {
		return err
	}
	fmt.Println(id)
	return nil
}
