package provider

import (
	"strings"
	"testing"
)

func TestParseSourceImportID_Shapes(t *testing.T) {
	t.Parallel()
	cus := "cus_" + strings.Repeat("a1B2", 6)
	src := "src_" + strings.Repeat("Z9y8", 6)
	for _, tc := range []struct {
		name, id         string
		wantCus, wantSrc string
		wantErr          bool
	}{
		{name: "valid", id: cus + "/" + src, wantCus: cus, wantSrc: src},
		{name: "empty", id: "", wantErr: true},
		{name: "separator only", id: "/", wantErr: true},
		{name: "customer only", id: cus, wantErr: true},
		{name: "source only", id: src, wantErr: true},
		{name: "trailing separator", id: cus + "/", wantErr: true},
		{name: "leading separator", id: "/" + src, wantErr: true},
		{name: "reversed", id: src + "/" + cus, wantErr: true},
		{name: "extra segment", id: cus + "/" + src + "/x", wantErr: true},
		{name: "double separator", id: cus + "//" + src, wantErr: true},
		{name: "other separator", id: cus + ":" + src, wantErr: true},
		{name: "customer too short", id: cus[:len(cus)-1] + "/" + src, wantErr: true},
		{name: "source too long", id: cus + "/" + src + "x", wantErr: true},
		{name: "wrong customer prefix", id: "cus-" + cus[4:] + "/" + src, wantErr: true},
		{name: "upper-case prefix", id: "CUS_" + cus[4:] + "/" + src, wantErr: true},
		{name: "non-alphanumeric", id: cus[:len(cus)-1] + "_/" + src, wantErr: true},
		{name: "spaces", id: " " + cus + "/" + src, wantErr: true},
		{name: "payment id", id: cus + "/pay_" + src[4:], wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gotCus, gotSrc, err := parseSourceImportID(tc.id)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("parseSourceImportID(%q) = %q, %q, want an error", tc.id, gotCus, gotSrc)
				}
				if gotCus != "" || gotSrc != "" {
					t.Errorf("parseSourceImportID(%q) failed but returned %q, %q", tc.id, gotCus, gotSrc)
				}
				for _, want := range []string{"cus_", "/", "src_", "expected"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not mention %q", err, want)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("parseSourceImportID(%q): %v", tc.id, err)
			}
			if gotCus != tc.wantCus || gotSrc != tc.wantSrc {
				t.Errorf("parseSourceImportID(%q) = %q, %q, want %q, %q", tc.id, gotCus, gotSrc, tc.wantCus, tc.wantSrc)
			}
		})
	}
}

func TestParseCustomerImportID_Shapes(t *testing.T) {
	t.Parallel()
	cus := "cus_" + strings.Repeat("Ab3", 8)
	if got, err := parseCustomerImportID(cus); err != nil || got != cus {
		t.Errorf("parseCustomerImportID(%q) = %q, %v, want the id", cus, got, err)
	}
	for _, id := range []string{"", "cus_", cus + "0", cus[:len(cus)-1], "src_" + cus[4:], cus + "/src_x", "sk_sandbox_" + cus[4:]} {
		if _, err := parseCustomerImportID(id); err == nil {
			t.Errorf("parseCustomerImportID(%q) succeeded, want an error", id)
		}
	}
}

func TestQuoteForError_RedactsAndCuts(t *testing.T) {
	t.Parallel()
	if got := quoteForError("x sk_live_abcdefgh123 y"); strings.Contains(got, "sk_live_abcdefgh123") {
		t.Errorf("quoteForError kept the key: %s", got)
	}
	long := strings.Repeat("é", 100)
	got := quoteForError(long)
	if !strings.HasSuffix(got, "…") || strings.Contains(got, `\x`) {
		t.Errorf("quoteForError(long) = %s, want a clean cut ending in …", got)
	}
}
