package provider

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/journal"
)

// The create journal (internal/journal) wraps the framework's server
// rather than each resource's Create: it sees every create, read, plan and
// delete of every resource type in one place, with the planned state as
// Terraform sent it, so that a new resource type is covered without a
// line of its own. ARCHITECTURE.md records the design.

// journalUpstream is what the framework's server implements and the
// plugin server looks for: hiding any of it would hide list resources or
// actions from Terraform.
type journalUpstream interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
}

// createJournal is the journal as the provider uses it: the journal of
// the working directory and the digests of the configured key.
type createJournal struct {
	j    *journal.Journal
	keys atomic.Pointer[journal.Keys]
	warn sync.Once
}

// setKey is called by Configure with the key every request is sent with.
func (c *createJournal) setKey(secretKey string) {
	if c == nil {
		return
	}
	k := journal.KeysFor(secretKey)
	c.keys.Store(&k)
}

type journalServer struct {
	journalUpstream
	cj *createJournal

	typesOnce sync.Once
	types     map[string]tftypes.Type
}

// NewServer returns the provider's protocol 6 server for the plugin
// process, keeping the create journal j; a nil j is the framework's server
// alone, as in tests that serve the provider in-process.
func NewServer(version string, j *journal.Journal) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		cj := &createJournal{j: j}
		p := &paymentsProvider{version: version}
		if j != nil {
			p.journal = cj
		}
		inner := providerserver.NewProtocol6(p)()
		up, ok := inner.(journalUpstream)
		if j == nil || !ok {
			return inner
		}
		return &journalServer{journalUpstream: up, cj: cj}
	}
}

func (s *journalServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	s.settle(ctx, req.TypeName, req.CurrentState)
	return s.journalUpstream.ReadResource(ctx, req)
}

func (s *journalServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	// A plan with a prior state sees the object in state even with
	// -refresh=false, when no read does.
	s.settle(ctx, req.TypeName, req.PriorState)
	return s.journalUpstream.PlanResourceChange(ctx, req)
}

func (s *journalServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	if !isNull(req.PriorState) || isNull(req.PlannedState) {
		s.settle(ctx, req.TypeName, req.PriorState)
		return s.journalUpstream.ApplyResourceChange(ctx, req)
	}
	return s.create(ctx, req)
}

// create runs a create with the journal: it adopts the object of an
// orphaned entry of the same configuration, or records a new entry before
// the create is sent and the object's id when it answers.
func (s *journalServer) create(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	j := s.cj.j
	keys := s.cj.keys.Load()
	if keys == nil {
		return s.journalUpstream.ApplyResourceChange(ctx, req)
	}
	if err := j.Open(); err != nil {
		resp, rerr := s.journalUpstream.ApplyResourceChange(ctx, req)
		s.unavailable(ctx, resp, err)
		return resp, rerr
	}
	config := keys.Digest(req.TypeName, plannedBytes(req.PlannedState))
	fields := map[string]any{"resource_type": req.TypeName}

	if e := j.Claim(req.TypeName, config, keys.Account); e != nil {
		fields["entry_age"] = time.Since(e.At).Round(time.Second).String()
		fields["recorded_id"] = e.ID
		tflog.Info(ctx, "Create journal: replaying the idempotency key of a create sent by a run that did not end cleanly", fields)
		resp, err := s.journalUpstream.ApplyResourceChange(client.WithIdempotencySeed(ctx, e.Seed), req)
		id := ""
		if err == nil && resp != nil && !hasErrors(resp.Diagnostics) {
			id = s.id(ctx, req.TypeName, resp.NewState)
		}
		switch {
		case id == "":
			j.Discard(e)
			tflog.Info(ctx, "Create journal: the replayed create made no object; the entry is dropped", fields)
			return resp, err
		case s.gone(ctx, req.TypeName, resp):
			j.Discard(e)
			fields["id"] = id
			tflog.Info(ctx, "Create journal: the object of the replayed create no longer exists; creating a new one", fields)
		default:
			if aerr := j.Answered(e, id); aerr != nil {
				tflog.Warn(ctx, "Create journal: recording an adopted object's id failed", map[string]any{"error": aerr.Error()})
			}
			fields["id"] = id
			tflog.Info(ctx, "Create journal: adopted the object of an interrupted create", fields)
			resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{
				Severity: tfprotov6.DiagnosticSeverityWarning,
				Summary:  "Adopted Object From An Interrupted Run",
				Detail: fmt.Sprintf("%s %s was created by an earlier run that ended before Terraform recorded it "+
					"(Terraform was stopped while the create was in flight; the run started %s ago). "+
					"This run sent the same create again with its idempotency key, so the service answered "+
					"with that object instead of making a second one, and it is now in state.",
					req.TypeName, id, fields["entry_age"]),
			})
			return resp, nil
		}
	}

	e, err := j.Begin(req.TypeName, config, keys.Account)
	if err != nil {
		resp, rerr := s.journalUpstream.ApplyResourceChange(ctx, req)
		s.unavailable(ctx, resp, err)
		return resp, rerr
	}
	resp, err := s.journalUpstream.ApplyResourceChange(client.WithIdempotencySeed(ctx, e.Seed), req)
	if err == nil && resp != nil {
		if id := s.id(ctx, req.TypeName, resp.NewState); id != "" {
			if aerr := j.Answered(e, id); aerr != nil {
				tflog.Warn(ctx, "Create journal: recording a created object's id failed", map[string]any{"error": aerr.Error()})
			}
			return resp, err
		}
	}
	// Nothing was made, or whatever was is unknown to this run too: the
	// entry stays only until the run ends cleanly.
	if err == nil && resp != nil && isNull(resp.NewState) {
		j.Done(e)
	}
	return resp, err
}

// gone reports whether the object an adopted create answered with has
// since been deleted: the service replays a stored answer even then. It
// asks the resource's own Read, which answers a null state for an object
// not found.
func (s *journalServer) gone(ctx context.Context, typ string, created *tfprotov6.ApplyResourceChangeResponse) bool {
	rr, err := s.journalUpstream.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
		TypeName: typ, CurrentState: created.NewState, Private: created.Private,
	})
	return err == nil && rr != nil && !hasErrors(rr.Diagnostics) && isNull(rr.NewState)
}

// unavailable says once per process, in a warning, that the journal is
// off because its directory cannot be written: creates then behave as
// without it.
func (s *journalServer) unavailable(ctx context.Context, resp *tfprotov6.ApplyResourceChangeResponse, err error) {
	s.cj.warn.Do(func() {
		tflog.Warn(ctx, "Create journal unavailable", map[string]any{"error": err.Error()})
		if resp == nil {
			return
		}
		resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityWarning,
			Summary:  "Create Journal Unavailable",
			Detail: fmt.Sprintf("The provider could not keep its create journal in the working directory (%s), "+
				"so creates in this run are not recorded: should Terraform be killed while one is in flight, "+
				"the next apply may create that object again. Set %s=off to turn the journal off and silence this warning.",
				err, journal.EnvDisable),
		})
	})
}

// settle tells the journal that Terraform showed the provider the object
// in state, when the journal has any orphan that could be it.
func (s *journalServer) settle(ctx context.Context, typ string, state *tfprotov6.DynamicValue) {
	if isNull(state) || !s.cj.j.WantsSettle() {
		return
	}
	if id := s.id(ctx, typ, state); id != "" && s.cj.j.Settle(id) {
		tflog.Debug(ctx, "Create journal: settled the entry of an object Terraform has in state", map[string]any{"resource_type": typ, "id": id})
	}
}

// id returns the id attribute of a state, or "".
func (s *journalServer) id(ctx context.Context, typ string, state *tfprotov6.DynamicValue) string {
	if isNull(state) {
		return ""
	}
	if id, ok := msgpackID(state.MsgPack); ok {
		return id
	}
	return s.schemaID(ctx, typ, state)
}

// schemaID decodes the whole state by its resource type's schema: for a
// state in JSON, or one msgpackID does not read.
func (s *journalServer) schemaID(ctx context.Context, typ string, state *tfprotov6.DynamicValue) string {
	s.typesOnce.Do(func() {
		s.types = map[string]tftypes.Type{}
		resp, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || resp == nil {
			return
		}
		for name, sch := range resp.ResourceSchemas {
			s.types[name] = sch.ValueType()
		}
	})
	t, ok := s.types[typ]
	if !ok {
		return ""
	}
	v, err := state.Unmarshal(t)
	if err != nil || v.IsNull() || !v.IsKnown() {
		return ""
	}
	var attrs map[string]tftypes.Value
	if v.As(&attrs) != nil {
		return ""
	}
	var id string
	if a, ok := attrs["id"]; !ok || !a.IsKnown() || a.As(&id) != nil {
		return ""
	}
	return id
}

// msgpackID reads the top-level id of an object's state in msgpack, as
// Terraform sends it, skipping the other attributes undecoded: after
// every create, decoding the whole state by its schema cost more than the
// journal's writes. ok is false when the state is not such a map; ""
// with ok is an id that is null or unknown.
func msgpackID(b []byte) (id string, ok bool) {
	if len(b) == 0 {
		return "", false
	}
	d := msgpack.NewDecoder(bytes.NewReader(b))
	n, err := d.DecodeMapLen()
	if err != nil || n < 0 {
		return "", false
	}
	for range n {
		key, err := d.DecodeString()
		if err != nil {
			return "", false
		}
		if key != "id" {
			if d.Skip() != nil {
				return "", false
			}
			continue
		}
		c, err := d.PeekCode()
		if err != nil {
			return "", false
		}
		if !msgpcode.IsString(c) {
			return "", true // null, or unknown (an extension)
		}
		id, err := d.DecodeString()
		return id, err == nil
	}
	return "", true
}

// plannedBytes is the planned state as Terraform encoded it: the same
// configuration gives the same bytes, run after run.
func plannedBytes(v *tfprotov6.DynamicValue) []byte {
	if len(v.MsgPack) > 0 {
		return v.MsgPack
	}
	return v.JSON
}

// isNull reports whether a state is absent or null, as a create's prior
// state and a delete's planned state are, without decoding it.
func isNull(v *tfprotov6.DynamicValue) bool {
	if v == nil {
		return true
	}
	if len(v.MsgPack) > 0 {
		return len(v.MsgPack) == 1 && v.MsgPack[0] == 0xc0 // msgpack nil
	}
	return len(v.JSON) == 0 || string(v.JSON) == "null"
}

func hasErrors(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}
