package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// These tests keep the registry pages honest: every resource and data
// source the provider registers has its examples and a generated page (with
// an import section for resources), and the API assumptions guide states
// the values the client actually uses. `make generate` renders docs/; these
// tests fail when a new type has no example, or when a constant in
// internal/wire changes and the guide does not.

const providerTypeName = "payments"

func registeredTypes(t *testing.T) (resources, dataSources []string) {
	t.Helper()
	ctx := context.Background()
	p := provider.New("test")()
	for _, newResource := range p.Resources(ctx) {
		var resp resource.MetadataResponse
		newResource().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: providerTypeName}, &resp)
		resources = append(resources, resp.TypeName)
	}
	for _, newDataSource := range p.DataSources(ctx) {
		var resp datasource.MetadataResponse
		newDataSource().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: providerTypeName}, &resp)
		dataSources = append(dataSources, resp.TypeName)
	}
	var meta fwprovider.MetadataResponse
	p.Metadata(ctx, fwprovider.MetadataRequest{}, &meta)
	if meta.TypeName != providerTypeName {
		t.Fatalf("provider type name is %q, the docs are generated for %q", meta.TypeName, providerTypeName)
	}
	if len(resources) == 0 || len(dataSources) == 0 {
		t.Fatalf("the provider registers %d resources and %d data sources; expected some of each", len(resources), len(dataSources))
	}
	return resources, dataSources
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return ""
	}
	return string(b)
}

// requireContains reports each of wants missing from text. Runs of white
// space count as one space, so rewrapping a paragraph breaks nothing.
func requireContains(t *testing.T, path, text string, wants ...string) {
	t.Helper()
	text = strings.Join(strings.Fields(text), " ")
	for _, want := range wants {
		if !strings.Contains(text, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("%s does not contain %q", path, want)
		}
	}
}

func TestDocs_EveryResourceHasExamplesAndAPageWithImport(t *testing.T) {
	resources, _ := registeredTypes(t)
	for _, name := range resources {
		dir := "examples/resources/" + name
		readFile(t, dir+"/resource.tf")
		requireContains(t, dir+"/import.sh", readFile(t, dir+"/import.sh"), "terraform import "+name+".")
		requireContains(t, dir+"/import-by-string-id.tf", readFile(t, dir+"/import-by-string-id.tf"), "to = "+name+".")

		page := "docs/resources/" + strings.TrimPrefix(name, providerTypeName+"_") + ".md"
		requireContains(t, page, readFile(t, page), "# "+name+" (Resource)", "## Example Usage", "## Schema", "## Import", "terraform import "+name+".")
	}
}

func TestDocs_EveryDataSourceHasAnExampleAndAPage(t *testing.T) {
	_, dataSources := registeredTypes(t)
	for _, name := range dataSources {
		example := "examples/data-sources/" + name + "/data-source.tf"
		requireContains(t, example, readFile(t, example), `data "`+name+`"`)

		page := "docs/data-sources/" + strings.TrimPrefix(name, providerTypeName+"_") + ".md"
		requireContains(t, page, readFile(t, page), "# "+name+" (Data Source)", "## Example Usage", "## Schema", `data "`+name+`"`)
	}
}

func TestDocs_ReadmeListsEveryResourceAndDataSource(t *testing.T) {
	resources, dataSources := registeredTypes(t)
	readme := readFile(t, "README.md")
	for _, name := range resources {
		requireContains(t, "README.md", readme, "docs/resources/"+strings.TrimPrefix(name, providerTypeName+"_")+".md")
	}
	for _, name := range dataSources {
		requireContains(t, "README.md", readme, "docs/data-sources/"+strings.TrimPrefix(name, providerTypeName+"_")+".md")
	}
}

func TestDocs_EveryPageHasAnExample(t *testing.T) {
	pages, err := filepath.Glob("docs/*/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "docs/index.md")
	for _, page := range pages {
		requireContains(t, page, readFile(t, page), "```terraform")
	}
}

// withThousands formats n as the guide writes amounts: 99,999,999.
func withThousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestDocs_APIAssumptionsGuideStatesTheClientsValues(t *testing.T) {
	const guide = "templates/guides/api-assumptions.md.tmpl"
	text := readFile(t, guide)
	requireContains(t, guide, text,
		fmt.Sprintf("`%s`, `%s`, `%s`) and %d characters", wire.CustomerIDPrefix, wire.SourceIDPrefix, wire.PaymentIDPrefix, wire.IDRandomLength),
		fmt.Sprintf("`%s` header", wire.HeaderRequestID),
		fmt.Sprintf("`%s: true`", wire.HeaderIdempotentReplayed),
		fmt.Sprintf("`%s` header on any POST**, at most %d characters, kept %d hours", wire.HeaderIdempotencyKey, wire.IdempotencyKeyMaxLength, int(sandbox.IdempotencyKeyRetention.Hours())),
		fmt.Sprintf("metadata at most %d keys, keys at most %d characters, values at most %d characters", wire.MetadataMaxKeys, wire.MetadataKeyMaxLength, wire.MetadataValueMaxLength),
		fmt.Sprintf("at most %d KiB", wire.MaxRequestBodyBytes>>10),
		fmt.Sprintf("at most %d characters", wire.EmailMaxLength),
		fmt.Sprintf("%d to %d digits", wire.PhoneMinDigits, wire.PhoneMaxDigits),
		fmt.Sprintf("at most %d characters", wire.NameMaxLength),
		fmt.Sprintf("`limit` (%d to %d, default %d)", wire.ListLimitMin, wire.ListLimitMax, wire.ListLimitDefault),
		fmt.Sprintf("from %d to %s", wire.PaymentAmountMin, withThousands(wire.PaymentAmountMax)),
		"(at least "+strings.Join(wire.Currencies, ", ")+")",
	)
	for _, code := range []string{
		wire.ErrorCodeParameterUnknown, wire.ErrorCodeResourceMissing, wire.ErrorCodeSecretKeyRequired,
		wire.ErrorCodeMissingAPIKey, wire.ErrorCodeInvalidAPIKey, wire.ErrorCodeIdempotencyKeyReused,
		wire.ErrorCodeIdempotencyKeyInUse, wire.ErrorCodeTokenInvalid, wire.ErrorCodeMissingSource,
		wire.ErrorCodePaymentUnexpectedState,
		wire.ErrorTypeInvalidRequest, wire.ErrorTypeAuthentication, wire.ErrorTypeCard, wire.ErrorTypePermission,
		wire.ErrorTypeIdempotency, wire.ErrorTypeRateLimit, wire.ErrorTypeAPI,
		sandbox.TokenVisa, sandbox.TokenMastercard, sandbox.TokenAmex, sandbox.TokenDeclined, sandbox.Token3DS, sandbox.TokenDispute,
	} {
		requireContains(t, guide, text, "`"+code+"`")
	}
	for from, tos := range sandbox.PaymentTransitions {
		requireContains(t, guide, text, "`"+from+"`")
		for _, to := range tos {
			requireContains(t, guide, text, "`"+to+"`")
		}
	}
}
