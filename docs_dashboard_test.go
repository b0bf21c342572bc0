package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/dashboard"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// TestDocs_DashboardGuideImages: the dashboard guide's pictures exist as
// PNG files, at both widths, in docs/images/: a folder tfplugindocs
// neither rewrites nor validates, so `make generate` keeps them (its
// managed folders, such as docs/guides/, are emptied on every run).
func TestDocs_DashboardGuideImages(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("docs", "guides", "sandbox-dashboard.md"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`!\[[^\]]+\]\(\.\./images/([a-z0-9-]+\.png)\)`).FindAllSubmatch(guide, -1)
	if len(links) < 6 {
		t.Fatalf("the guide shows %d pictures from docs/images/, want at least 6", len(links))
	}
	for _, l := range links {
		b, err := os.ReadFile(filepath.Join("docs", "images", string(l[1])))
		if err != nil {
			t.Errorf("the guide links %s: %v (run make screenshots)", l[1], err)
			continue
		}
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s is not a PNG file", l[1])
		}
	}
	files, _ := filepath.Glob(filepath.Join("docs", "images", "dashboard-*.png"))
	for _, width := range []string{"-1440.png", "-375.png"} {
		if !slices.ContainsFunc(files, func(f string) bool { return strings.HasSuffix(f, width) }) {
			t.Errorf("no screenshot at %s in docs/images/", strings.TrimSuffix(strings.TrimPrefix(width, "-"), ".png"))
		}
	}
	// The guide states the values the dashboard and the sandbox use.
	for _, want := range []string{
		"**30 minutes**", "**1,000**", "every 2 seconds",
	} {
		if !bytes.Contains(guide, []byte(want)) {
			t.Errorf("the guide does not say %q", want)
		}
	}
	if dashboard.DefaultIdleTimeout.Minutes() != 30 || wire.RequestLogSize != 1000 {
		t.Errorf("the guide says 30 minutes and 1,000 requests; the code has %s and %d", dashboard.DefaultIdleTimeout, wire.RequestLogSize)
	}
}
