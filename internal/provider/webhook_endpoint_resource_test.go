package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paymentsdev/terraform-provider-payments/internal/sandbox"
	"github.com/paymentsdev/terraform-provider-payments/internal/sandboxclient"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/paymentsdev/terraform-provider-payments/internal/client"
	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

const testAccWebhookAddr = "payments_webhook_endpoint.test"

var (
	webhookEndpointIDCheck = knownvalue.StringRegexp(webhookEndpointIDRegexp)
	webhookSecretCheck     = knownvalue.StringRegexp(regexp.MustCompile(`^whsec_[A-Za-z0-9]{32}$`))
)

// testAccCheckWebhookEndpointsDestroyed checks, against the sandbox, that
// every payments_webhook_endpoint in the state is gone.
func (a *testAccAccount) testAccCheckWebhookEndpointsDestroyed(s *terraform.State) error {
	return testAccCheckGone(s, "payments_webhook_endpoint", "webhook endpoint", func(id string) error {
		_, err := a.Client.GetWebhookEndpoint(context.Background(), id)
		return err
	})
}

func (a *testAccAccount) testAccCheckWebhookEndpointAtService(id *string, check func(*client.WebhookEndpoint) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ep, err := a.Client.GetWebhookEndpoint(context.Background(), *id)
		if err != nil {
			return fmt.Errorf("reading webhook endpoint %s: %w", *id, err)
		}
		return check(ep)
	}
}

func (a *testAccAccount) webhookConfig(body string) string {
	return a.ProviderConfig() + "resource \"payments_webhook_endpoint\" \"test\" {\n" + body + "\n}\n"
}

func TestAccWebhookEndpoint_CreateImportUpdate(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	sameID, sameSecret := statecheck.CompareValue(compare.ValuesSame()), statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: acct.webhookConfig(`
  url            = "http://127.0.0.1:4242/webhooks"
  enabled_events = ["payment.approved", "customer.created"]
  description    = "Orders service"
  metadata       = { team = "billing" }
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("id"), webhookEndpointIDCheck),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("url"), knownvalue.StringExact("http://127.0.0.1:4242/webhooks")),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("enabled_events"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("payment.approved"), knownvalue.StringExact("customer.created"),
					})),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("description"), knownvalue.StringExact("Orders service")),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("disabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret_version"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("api_version"), knownvalue.StringExact(wire.APIVersion)),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("livemode"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("created_at"),
						knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					sameID.AddStateValue(testAccWebhookAddr, tfjsonpath.New("id")),
					sameSecret.AddStateValue(testAccWebhookAddr, tfjsonpath.New("secret")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectSensitiveValue(testAccWebhookAddr, tfjsonpath.New("secret"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: testAccCaptureID(testAccWebhookAddr, &id),
			},
			{
				ResourceName:            testAccWebhookAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"secret", "secret_version"},
			},
			{
				// Every argument changes in place, and the secret stays.
				Config: acct.webhookConfig(`
  url            = "http://localhost:4343/hooks"
  enabled_events = ["*"]
  disabled       = true
  metadata       = { team = "payments", env = "test" }
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccWebhookAddr, tfjsonpath.New("id")),
					sameSecret.AddStateValue(testAccWebhookAddr, tfjsonpath.New("secret")),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("description"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("disabled"), knownvalue.Bool(true)),
				},
				Check: acct.testAccCheckWebhookEndpointAtService(&id, func(ep *client.WebhookEndpoint) error {
					if ep.URL != "http://localhost:4343/hooks" || !slices.Equal(ep.EnabledEvents, []string{"*"}) || ep.Description != "" ||
						!ep.Disabled || !maps.Equal(ep.Metadata, map[string]string{"team": "payments", "env": "test"}) {
						return fmt.Errorf("the service has %+v", ep)
					}
					return nil
				}),
			},
			{
				// api_version is taken at create only: setting it replaces
				// the endpoint, with a new secret.
				Config: acct.webhookConfig(`
  url            = "http://localhost:4343/hooks"
  enabled_events = ["*"]
  disabled       = true
  metadata       = { team = "payments", env = "test" }
  api_version    = "2025-03-31.basil"
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("api_version"), knownvalue.StringExact("2025-03-31.basil")),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
				},
				Check: resource.ComposeTestCheckFunc(testAccCaptureID(testAccWebhookAddr, &id),
					acct.testAccCheckWebhookEndpointAtService(&id, func(ep *client.WebhookEndpoint) error {
						if ep.APIVersion != "2025-03-31.basil" {
							return fmt.Errorf("the service has api_version %q", ep.APIVersion)
						}
						return nil
					})),
			},
			{
				ResourceName:            testAccWebhookAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"secret", "secret_version"},
			},
		},
	})
}

func TestAccWebhookEndpoint_SecretVersionRoll(t *testing.T) {
	acct := newTestAccAccount(t)
	config := func(version string) string {
		return acct.webhookConfig(`
  url            = "http://127.0.0.1:4242/webhooks"
  enabled_events = ["*"]
  ` + version)
	}
	sameID := statecheck.CompareValue(compare.ValuesSame())
	rolled := statecheck.CompareValue(compare.ValuesDiffer())
	kept := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: config("secret_version = 1"),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccWebhookAddr, tfjsonpath.New("id")),
					rolled.AddStateValue(testAccWebhookAddr, tfjsonpath.New("secret")),
				},
			},
			{
				Config: config("secret_version = 2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testAccWebhookAddr, tfjsonpath.New("secret")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccWebhookAddr, tfjsonpath.New("id")),
					rolled.AddStateValue(testAccWebhookAddr, tfjsonpath.New("secret")),
					kept.AddStateValue(testAccWebhookAddr, tfjsonpath.New("secret")),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
				},
			},
			{
				// Removing secret_version rolls nothing.
				Config: config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testAccWebhookAddr, tfjsonpath.New("id")),
					kept.AddStateValue(testAccWebhookAddr, tfjsonpath.New("secret")),
				},
			},
		},
	})
}

// TestAccWebhookEndpoint_ImportKeepsSecret: an import rolls nothing; the
// secret is null until the next change of secret_version.
func TestAccWebhookEndpoint_ImportKeepsSecret(t *testing.T) {
	acct := newTestAccAccount(t)
	ep, err := acct.Client.CreateWebhookEndpoint(context.Background(), &client.WebhookEndpointParams{
		URL: webhookTestString("http://127.0.0.1:4242/imported"), EnabledEvents: []string{"payment.approved"},
	})
	if err != nil {
		t.Fatal(err)
	}
	config := func(version string) string {
		return acct.webhookConfig(`
  url            = "http://127.0.0.1:4242/imported"
  enabled_events = ["payment.approved"]
  ` + version)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{
			{
				Config:             config("secret_version = 1"),
				ResourceName:       testAccWebhookAddr,
				ImportState:        true,
				ImportStateId:      ep.ID,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].ID != ep.ID {
						return fmt.Errorf("imported %d objects", len(states))
					}
					if s := states[0].Attributes["secret"]; s != "" {
						return fmt.Errorf("imported secret is set; want null")
					}
					return nil
				},
			},
			{
				// The configured secret_version is recorded, without a roll
				// and without a replacement.
				Config: config("secret_version = 1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("id"), knownvalue.StringExact(ep.ID)),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), knownvalue.Null()),
				},
			},
			{
				Config: config("secret_version = 2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testAccWebhookAddr, tfjsonpath.New("secret")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("id"), knownvalue.StringExact(ep.ID)),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
				},
			},
		},
	})
}

func TestAccWebhookEndpoint_DriftRepaired(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.webhookConfig(`
  url            = "http://127.0.0.1:4242/webhooks"
  enabled_events = ["payment.approved"]
  description    = "Drift"
  metadata       = { team = "billing" }
`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccWebhookAddr, &id)},
			{
				PreConfig: func() {
					disabled := true
					if _, err := acct.Client.UpdateWebhookEndpoint(context.Background(), id, &client.WebhookEndpointParams{
						URL: webhookTestString("http://127.0.0.1:9999/elsewhere"), EnabledEvents: []string{"*"}, Description: webhookTestString(""),
						Disabled: &disabled, Metadata: map[string]string{"extra": "added outside"},
					}); err != nil {
						t.Fatalf("changing webhook endpoint %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("url"), knownvalue.StringExact("http://127.0.0.1:4242/webhooks")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acct.testAccCheckWebhookEndpointAtService(&id, func(ep *client.WebhookEndpoint) error {
					if ep.URL != "http://127.0.0.1:4242/webhooks" || !slices.Equal(ep.EnabledEvents, []string{"payment.approved"}) ||
						ep.Description != "Drift" || ep.Disabled || !maps.Equal(ep.Metadata, map[string]string{"team": "billing"}) {
						return fmt.Errorf("the service has %+v; want the configuration back", ep)
					}
					return nil
				}),
			},
		},
	})
}

func TestAccWebhookEndpoint_DeletedOutside(t *testing.T) {
	acct := newTestAccAccount(t)
	var id string
	config := acct.webhookConfig(`
  url            = "http://127.0.0.1:4242/webhooks"
  enabled_events = ["*"]
`)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{
			{Config: config, Check: testAccCaptureID(testAccWebhookAddr, &id)},
			{
				PreConfig: func() {
					if _, err := acct.Client.DeleteWebhookEndpoint(context.Background(), id); err != nil {
						t.Fatalf("deleting webhook endpoint %s behind Terraform's back: %v", id, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccWebhookAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("id"), knownvalue.StringFunc(func(v string) error {
						if v == id {
							return fmt.Errorf("id is still %s, want a new endpoint", v)
						}
						return nil
					})),
					statecheck.ExpectKnownValue(testAccWebhookAddr, tfjsonpath.New("secret"), webhookSecretCheck),
				},
			},
		},
	})
}

// TestAccWebhookEndpoint_Invalid rejects bad arguments at plan time, bad
// import ids, and reports a URL the service refuses on the url attribute.
func TestAccWebhookEndpoint_Invalid(t *testing.T) {
	acct := newTestAccAccount(t)
	planError := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: acct.webhookConfig(body), PlanOnly: true, ExpectError: expectErrorRe(want...)}
	}
	const events = `enabled_events = ["*"]`
	const url = `url = "http://127.0.0.1:4242/webhooks"`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{
			planError(`url = "ftp://127.0.0.1/hooks"`+"\n"+events, "Invalid Webhook URL", "not an https or http URL"),
			planError(`url = "/hooks"`+"\n"+events, "Invalid Webhook URL"),
			planError(`url = "http://127.0.0.1/hooks#part"`+"\n"+events, "Invalid Webhook URL", "fragment"),
			planError(`url = "http://127.0.0.1/`+strings.Repeat("a", wire.WebhookURLMaxLength)+`"`+"\n"+events, "Invalid Webhook URL", "at most 2048"),
			planError(url+"\n"+`enabled_events = ["payment.exploded"]`, "enabled_events", "payment.approved"),
			planError(url+"\n"+`enabled_events = []`, "enabled_events", "at least 1"),
			planError(url+"\n"+events+"\n"+`description = ""`, "description", "between 1 and 5000"),
			planError(url+"\n"+events+"\n"+`metadata = { k = "" }`, "Empty Metadata Value"),
			planError(url+"\n"+events+"\n"+`api_version = "basil"`, "api_version", "2025-03-31.basil"),
			{
				Config:        acct.webhookConfig(url + "\n" + events),
				ResourceName:  testAccWebhookAddr,
				ImportState:   true,
				ImportStateId: "we_123",
				ExpectError:   expectErrorRe("Invalid Webhook Endpoint Import ID", "we_ followed by 24 letters or digits"),
			},
			{
				// Valid for the provider; the sandbox calls only loopback.
				Config:      acct.webhookConfig(`url = "https://example.com/hooks"` + "\n" + events),
				ExpectError: expectErrorRe("Error Creating Webhook Endpoint", "refused url", "example.com", "loopback"),
			},
		},
	})
}

// TestAccWebhookEndpoint_DeliversSignedEvents is the whole path: Terraform
// creates an endpoint for a receiver in the test, a payment is made through
// the API, and the receiver verifies payment.approved with the secret from
// state.
func TestAccWebhookEndpoint_DeliversSignedEvents(t *testing.T) {
	acct := newTestAccAccount(t)
	type delivery struct {
		event  client.Event
		verify error
	}
	got := make(chan delivery, 16)
	var mu sync.Mutex
	var secret string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		s := secret
		mu.Unlock()
		var d delivery
		d.verify = wire.VerifySignature(r.Header.Get(wire.HeaderSignature), s, body, wire.SignatureTolerance, time.Now())
		if err := json.Unmarshal(body, &d.event); err != nil {
			d.verify = err
		}
		if d.verify != nil {
			http.Error(w, d.verify.Error(), http.StatusBadRequest)
		}
		got <- d
	}))
	defer receiver.Close()

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             acct.testAccCheckWebhookEndpointsDestroyed,
		Steps: []resource.TestStep{{
			Config: acct.webhookConfig(fmt.Sprintf(`
  url            = %q
  enabled_events = ["payment.approved"]
`, receiver.URL+"/webhooks")),
			Check: func(s *terraform.State) error {
				rs, ok := s.RootModule().Resources[testAccWebhookAddr]
				if !ok {
					return fmt.Errorf("%s is not in the state", testAccWebhookAddr)
				}
				mu.Lock()
				secret = rs.Primary.Attributes["secret"]
				mu.Unlock()
				ctx := context.Background()
				if _, err := acct.Client.CreateCustomer(ctx, &client.CustomerParams{Name: webhookTestString("Not subscribed")}); err != nil {
					return err
				}
				p, err := acct.Client.CreatePayment(ctx, &client.PaymentParams{Amount: 1999, Currency: "USD", Source: sandbox.TokenVisa})
				if err != nil {
					return err
				}
				select {
				case d := <-got:
					if d.verify != nil {
						return fmt.Errorf("the receiver could not verify the delivery: %w", d.verify)
					}
					if d.event.Type != wire.EventPaymentApproved || !strings.Contains(string(d.event.Data.Object), p.ID) {
						return fmt.Errorf("the receiver got %s about %s, want payment.approved about %s", d.event.Type, d.event.Data.Object, p.ID)
					}
				case <-time.After(15 * time.Second):
					return fmt.Errorf("the receiver got nothing within 15s")
				}
				// The attempt is recorded once the receiver has answered.
				var ds *sandboxclient.DeliveryList
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
					if ds, err = sandboxclient.New(acct.Client).Deliveries(ctx, "", rs.Primary.ID); err != nil {
						return err
					}
					if len(ds.Data) > 0 || time.Now().After(deadline) {
						break
					}
				}
				if len(ds.Data) != 1 || ds.Data[0].Status != http.StatusOK || ds.Data[0].Error != "" {
					return fmt.Errorf("deliveries: %+v; want one, answered 200", ds.Data)
				}
				return nil
			},
		}},
	})
}

// webhookTestString is a pointer to s, for client parameters.
func webhookTestString(s string) *string { return &s }
