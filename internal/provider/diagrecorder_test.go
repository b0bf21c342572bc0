package provider

import (
	"context"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// diagRecorder keeps the warnings the provider returned from plans and
// applies, which plugin-testing does not expose, so that a test can assert
// that a warning was shown. Its factories serve the provider in-process,
// as testAccProtoV6ProviderFactories do.
type diagRecorder struct {
	mu       sync.Mutex
	warnings []string // "summary: detail"
}

func (r *diagRecorder) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"payments": func() (tfprotov6.ProviderServer, error) {
			s, err := providerserver.NewProtocol6WithError(New("test")())()
			if err != nil {
				return nil, err
			}
			return &recordingServer{ProviderServer: s, rec: r}, nil
		},
	}
}

func (r *diagRecorder) record(diags []*tfprotov6.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range diags {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityWarning {
			r.warnings = append(r.warnings, d.Summary+": "+d.Detail)
		}
	}
}

// take returns the warnings recorded since the last call whose text holds
// every one of phrases, and forgets all warnings recorded so far.
func (r *diagRecorder) take(phrases ...string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, w := range r.warnings {
		all := true
		for _, p := range phrases {
			all = all && strings.Contains(w, p)
		}
		if all {
			out = append(out, w)
		}
	}
	r.warnings = nil
	return out
}

// recordingServer is a provider server whose plan and apply answers pass
// through a diagRecorder.
type recordingServer struct {
	tfprotov6.ProviderServer
	rec *diagRecorder
}

func (s *recordingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.rec.record(resp.Diagnostics)
	}
	return resp, err
}

func (s *recordingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		s.rec.record(resp.Diagnostics)
	}
	return resp, err
}
