package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/paymentsdev/terraform-provider-payments/internal/journal"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox/idem"
)

// journalStates returns the journal server and, for each resource type, a
// state whose attributes are all set (or null where a value of the type
// cannot be made simply) and whose id is id.
func journalStates(t testing.TB, id tftypes.Value) (*journalServer, map[string]*tfprotov6.DynamicValue) {
	t.Helper()
	s, ok := NewServer("test", journal.New(t.TempDir()))().(*journalServer)
	if !ok {
		t.Fatal("NewServer with a journal did not return the journal server")
	}
	resp, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]*tfprotov6.DynamicValue{}
	for typ, sch := range resp.ResourceSchemas {
		ot, ok := sch.ValueType().(tftypes.Object)
		if !ok {
			t.Fatalf("%s: the schema's type is %s, not an object", typ, sch.ValueType())
		}
		vals := map[string]tftypes.Value{}
		for name, at := range ot.AttributeTypes {
			vals[name] = sampleValue(at)
		}
		if _, has := ot.AttributeTypes["id"]; !has {
			continue
		}
		vals["id"] = id
		dv, err := tfprotov6.NewDynamicValue(ot, tftypes.NewValue(ot, vals))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		states[typ] = &dv
	}
	return s, states
}

// sampleValue is a value of t that a msgpack reader must skip over.
func sampleValue(t tftypes.Type) tftypes.Value {
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, "a value to skip")
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, 1234.5)
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, true)
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": sampleValue(t.(tftypes.Map).ElementType)})
	case t.Is(tftypes.List{}):
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.(tftypes.List).ElementType)})
	case t.Is(tftypes.Object{}):
		vals := map[string]tftypes.Value{}
		for name, at := range t.(tftypes.Object).AttributeTypes {
			vals[name] = sampleValue(at)
		}
		return tftypes.NewValue(t, vals)
	}
	return tftypes.NewValue(t, tftypes.UnknownValue)
}

// TestJournalServer_IDReadsTheMsgpackAsTheSchemaDoes checks the reader of
// a state's id that skips the other attributes against the decode by the
// schema, for every resource type with an id.
func TestJournalServer_IDReadsTheMsgpackAsTheSchemaDoes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		id   tftypes.Value
		want string
	}{
		{"known", tftypes.NewValue(tftypes.String, "obj_0123456789"), "obj_0123456789"},
		{"null", tftypes.NewValue(tftypes.String, nil), ""},
		{"unknown", tftypes.NewValue(tftypes.String, tftypes.UnknownValue), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, states := journalStates(t, tc.id)
			if len(states) == 0 {
				t.Fatal("no resource type has an id")
			}
			for typ, st := range states {
				got, ok := msgpackID(st.MsgPack)
				if !ok || got != tc.want {
					t.Errorf("%s: msgpackID = %q, %v; want %q", typ, got, ok, tc.want)
				}
				if byType := s.schemaID(ctx, typ, st); byType != tc.want {
					t.Errorf("%s: the schema's decode gives %q; want %q", typ, byType, tc.want)
				}
			}
		})
	}
	for _, b := range [][]byte{{0x93, 1, 2, 3}, {0xa2, 'i', 'd'}, {0x81, 0xa2, 'i'}} {
		if id, ok := msgpackID(b); ok {
			t.Errorf("msgpackID(% x) = %q, true; want not ok", b, id)
		}
	}
}

// BenchmarkJournalServer_ID is what finding a created object's id costs
// the journal after every create: read from the msgpack, and decoded by
// the schema as it was before.
func BenchmarkJournalServer_ID(b *testing.B) {
	ctx := context.Background()
	s, states := journalStates(b, tftypes.NewValue(tftypes.String, "cus_0123456789abcdef"))
	st := states["payments_customer"]
	b.Run("msgpack", func(b *testing.B) {
		for b.Loop() {
			if s.id(ctx, "payments_customer", st) == "" {
				b.Fatal("no id")
			}
		}
	})
	b.Run("schema", func(b *testing.B) {
		for b.Loop() {
			if s.schemaID(ctx, "payments_customer", st) == "" {
				b.Fatal("no id")
			}
		}
	})
}

// TestJournalServer_EntriesExpireWithTheServicesKeys: an entry is of use
// only while the service replays its Idempotency-Key, so the journal
// drops entries after the sandbox's retention of keys, not another.
func TestJournalServer_EntriesExpireWithTheServicesKeys(t *testing.T) {
	if journal.Retention != idem.Retention {
		t.Errorf("the journal keeps entries %v; the sandbox keeps Idempotency-Keys %v", journal.Retention, idem.Retention)
	}
}
