package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/paymentsdev/terraform-provider-payments/internal/provider"
)

// These tests keep the lists a reader starts from complete: the README's
// tables of types and provider arguments against what the provider
// registers and its schema, and the guide lists of the README and the
// provider page against docs/guides. A new type, argument or guide fails
// here until it is listed, and the failure says the line to add.

// docKind is one kind of registered type: its README label and the folder
// of its generated pages.
type docKind struct {
	label, dir string
}

var (
	kindResource  = docKind{"Resource", "resources"}
	kindEphemeral = docKind{"Ephemeral resource", "ephemeral-resources"}
	kindAction    = docKind{"Action", "actions"}
	kindList      = docKind{"List resource", "list-resources"}
	kindData      = docKind{"Data source", "data-sources"}
	kindFunction  = docKind{"Function", "functions"}
	docKinds      = []docKind{kindResource, kindEphemeral, kindAction, kindList, kindData, kindFunction}
)

// registeredNames lists every type the provider registers, by kind: the
// Terraform name (payments_customer, provider::payments::minor_units).
func registeredNames(t *testing.T) map[docKind][]string {
	t.Helper()
	ctx := context.Background()
	p := provider.New("test")()
	tn := providerTypeName
	out := map[docKind][]string{}
	add := func(k docKind, name string) { out[k] = append(out[k], name) }
	for _, f := range p.Resources(ctx) {
		var r resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: tn}, &r)
		add(kindResource, r.TypeName)
	}
	for _, f := range p.DataSources(ctx) {
		var r datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: tn}, &r)
		add(kindData, r.TypeName)
	}
	if pe, ok := p.(fwprovider.ProviderWithEphemeralResources); ok {
		for _, f := range pe.EphemeralResources(ctx) {
			var r ephemeral.MetadataResponse
			f().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: tn}, &r)
			add(kindEphemeral, r.TypeName)
		}
	}
	if pa, ok := p.(fwprovider.ProviderWithActions); ok {
		for _, f := range pa.Actions(ctx) {
			var r action.MetadataResponse
			f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: tn}, &r)
			add(kindAction, r.TypeName)
		}
	}
	if pl, ok := p.(fwprovider.ProviderWithListResources); ok {
		for _, f := range pl.ListResources(ctx) {
			// A list resource's metadata is a resource's.
			var r resource.MetadataResponse
			f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: tn}, &r)
			add(kindList, r.TypeName)
		}
	}
	if pf, ok := p.(fwprovider.ProviderWithFunctions); ok {
		for _, f := range pf.Functions(ctx) {
			var r function.MetadataResponse
			f().Metadata(ctx, function.MetadataRequest{}, &r)
			add(kindFunction, "provider::"+tn+"::"+r.Name)
		}
	}
	return out
}

// pageOf is the generated page of a type, relative to the repository.
func pageOf(k docKind, name string) string {
	short := name[strings.LastIndex(name, ":")+1:]
	short = strings.TrimPrefix(short, providerTypeName+"_")
	return "docs/" + k.dir + "/" + short + ".md"
}

// tableRows returns the cells of each row of the markdown table whose
// header row starts with header.
func tableRows(text, header string) [][]string {
	var rows [][]string
	in := false
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "| "+header+" |"):
			in = true
		case !in:
		case !strings.HasPrefix(line, "|"):
			return rows
		case strings.HasPrefix(line, "|---"):
		default:
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows = append(rows, cells)
		}
	}
	return rows
}

var typeCell = regexp.MustCompile("^\\[`([^`]+)`\\]\\(([^)]+)\\)$")

func TestDocs_ReadmeTableListsEveryRegisteredType(t *testing.T) {
	registered := registeredNames(t)
	if len(registered[kindResource]) == 0 || len(registered[kindData]) == 0 {
		t.Fatalf("the provider registers no resources or no data sources: %v", registered)
	}
	rows := tableRows(readFile(t, "README.md"), "Type | Name")
	if len(rows) == 0 {
		t.Fatal("README.md has no table whose header starts with \"| Type | Name |\"")
	}
	listed := map[docKind][]string{}
	for _, row := range rows {
		i := slices.IndexFunc(docKinds, func(k docKind) bool { return k.label == row[0] })
		m := typeCell.FindStringSubmatch(row[1])
		if i < 0 || m == nil || len(row) < 3 {
			t.Errorf("README.md: the row %q does not read | Kind | [`name`](docs/…/page.md) | What it does |; kinds: Resource, Ephemeral resource, Action, List resource, Data source, Function", strings.Join(row, " | "))
			continue
		}
		k := docKinds[i]
		listed[k] = append(listed[k], m[1])
		if want := pageOf(k, m[1]); m[2] != want {
			t.Errorf("README.md: the %s %s links to %s; link it to %s", strings.ToLower(k.label), m[1], m[2], want)
		}
	}
	for _, k := range docKinds {
		for _, name := range registered[k] {
			if !slices.Contains(listed[k], name) {
				t.Errorf("README.md: the provider registers the %s %s, which the table \"Resources and data sources\" does not list; add the row\n| %s | [`%s`](%s) | … |",
					strings.ToLower(k.label), name, k.label, name, pageOf(k, name))
			}
		}
		for _, name := range listed[k] {
			if !slices.Contains(registered[k], name) {
				t.Errorf("README.md lists the %s %s, which the provider does not register; remove its row", strings.ToLower(k.label), name)
			}
		}
	}
}

var envInDescription = regexp.MustCompile("Falls back to the `([A-Z0-9_]+)` environment variable")

func TestDocs_ReadmeTableListsEveryProviderArgument(t *testing.T) {
	ctx := context.Background()
	var resp fwprovider.SchemaResponse
	provider.New("test")().Schema(ctx, fwprovider.SchemaRequest{}, &resp)
	env := map[string]string{}
	for name, a := range resp.Schema.Attributes {
		env[name] = ""
		if m := envInDescription.FindStringSubmatch(a.GetMarkdownDescription()); m != nil {
			env[name] = m[1]
		}
		if _, ok := a.(schema.StringAttribute); ok && a.IsSensitive() {
			env[name] = env[name] + " (sensitive)"
		}
	}
	if len(env) == 0 {
		t.Fatal("the provider's schema has no attributes")
	}
	rows := tableRows(readFile(t, "README.md"), "Provider argument")
	if len(rows) == 0 {
		t.Fatal("README.md has no table whose header starts with \"| Provider argument |\"")
	}
	listed := map[string]bool{}
	argCell := regexp.MustCompile("^`([a-z0-9_]+)`( \\(sensitive\\))?$")
	for _, row := range rows {
		m := argCell.FindStringSubmatch(row[0])
		if m == nil || len(row) < 3 {
			t.Errorf("README.md: the row %q does not read | `argument` | `ENVIRONMENT_VARIABLE` or nothing | Meaning |", strings.Join(row, " | "))
			continue
		}
		name := m[1]
		listed[name] = true
		wantEnv, known := env[name]
		if !known {
			t.Errorf("README.md lists the provider argument %s, which the schema does not have; remove its row", name)
			continue
		}
		wantEnv, sensitive := strings.CutSuffix(wantEnv, " (sensitive)")
		if sensitive != (m[2] != "") {
			t.Errorf("README.md: write the provider argument %s as %q", name, argumentCell(name, sensitive))
		}
		if got := strings.Trim(row[1], "`"); got != wantEnv {
			t.Errorf("README.md: the provider argument %s falls back to %q, not %q; write %q in its second column",
				name, wantEnv, got, envCell(wantEnv))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(env)) {
		if !listed[name] {
			e, sensitive := strings.CutSuffix(env[name], " (sensitive)")
			t.Errorf("README.md: the provider argument %s is missing from the table \"Provider argument\"; add the row\n| %s | %s | … |",
				name, argumentCell(name, sensitive), envCell(e))
		}
	}
}

func argumentCell(name string, sensitive bool) string {
	if sensitive {
		return "`" + name + "` (sensitive)"
	}
	return "`" + name + "`"
}

func envCell(env string) string {
	if env == "" {
		return ""
	}
	return "`" + env + "`"
}

// guides reads docs/guides: each guide's file name and page title.
func guides(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("docs/guides/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no guides in docs/guides (%v)", err)
	}
	out := map[string]string{}
	title := regexp.MustCompile(`(?m)^page_title: "([^"]+)"$`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := title.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s has no page_title in its front matter", f)
			continue
		}
		out[filepath.Base(f)] = string(m[1])
	}
	return out
}

func TestDocs_GuideListsNameEveryGuide(t *testing.T) {
	all := guides(t)
	for _, tc := range []struct {
		// end is what follows the list: the section runs to it.
		file, template, section, end, prefix string
	}{
		// The README's paragraph after the table of types.
		{file: "README.md", section: "Guides:", end: "\n\n", prefix: "docs/guides/"},
		// The provider page's "Guides" list, generated from its template.
		{file: "docs/index.md", template: "templates/index.md.tmpl", section: "## Guides", end: "\n## ", prefix: "guides/"},
	} {
		text := readFile(t, tc.file)
		start := strings.Index(text, tc.section)
		if start < 0 {
			t.Errorf("%s has no %q section listing the guides", tc.file, tc.section)
			continue
		}
		list := text[start:]
		if end := strings.Index(list[len(tc.section):], tc.end); end >= 0 {
			list = list[:len(tc.section)+end]
		}
		edit := tc.file
		if tc.template != "" {
			edit = tc.template + " (then make generate, or the same line in " + tc.file + ")"
		}
		for _, name := range slices.Sorted(maps.Keys(all)) {
			link := "](" + tc.prefix + name + ")"
			if !strings.Contains(list, link) {
				item := "[" + all[name] + "](" + tc.prefix + name + ")"
				if tc.section == "## Guides" {
					item = "- " + item
				}
				t.Errorf("%s: the guide %s is missing from its %q list; add %s to %s", tc.file, name, tc.section, item, edit)
			}
		}
		for _, m := range regexp.MustCompile(`\]\(`+regexp.QuoteMeta(tc.prefix)+`([^)#]+)`).FindAllStringSubmatch(list, -1) {
			if _, ok := all[m[1]]; !ok {
				t.Errorf("%s: its %q list links to %s%s, which is not in docs/guides; remove it", tc.file, tc.section, tc.prefix, m[1])
			}
		}
	}
}

// TestDocs_RelativeLinksResolve follows every link of README.md and docs/
// that stays in the repository. Links between pages are written one way,
// as relative paths to the .md files: GitHub and a clone resolve them, and
// so does the registry, which publishes docs/ as it is. An absolute link to
// this provider's registry pages points nowhere until the provider is
// published, and a page name without .md resolves only on the registry.
func TestDocs_RelativeLinksResolve(t *testing.T) {
	files := []string{"README.md"}
	err := filepath.WalkDir("docs", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, filepath.ToSlash(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	fence := regexp.MustCompile("(?ms)^\\s*```.*?^\\s*```")
	checked := 0
	for _, f := range files {
		text := fence.ReplaceAllString(readFile(t, f), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if own, ok := strings.CutPrefix(target, "https://registry.terraform.io/providers/paymentsdev/payments"); ok {
				t.Errorf("%s links to %s; link to the page's .md file by a relative path (%s) so that the link works before the provider is published",
					f, target, suggestRelative(f, own))
				continue
			}
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
				continue
			}
			path, _, _ := strings.Cut(target, "#")
			resolved := filepath.ToSlash(filepath.Join(filepath.Dir(f), filepath.FromSlash(path)))
			checked++
			if _, err := os.Stat(resolved); err != nil {
				hint := ""
				if _, err := os.Stat(resolved + ".md"); err == nil {
					hint = "; write it as " + path + ".md"
				}
				t.Errorf("%s links to %s, which is not in the repository (%s)%s", f, target, resolved, hint)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: the link pattern is broken")
	}
}

// suggestRelative is the relative link from file to this provider's
// registry path own (/latest/docs/guides/x).
func suggestRelative(file, own string) string {
	_, page, ok := strings.Cut(own, "/docs")
	if !ok {
		return "docs/index.md"
	}
	target := "docs" + page
	if page == "" {
		target = "docs/index"
	}
	rel, err := filepath.Rel(filepath.Dir(file), target+".md")
	if err != nil {
		return target + ".md"
	}
	return filepath.ToSlash(rel)
}
