package examples_test

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/paymentsdev/terraform-provider-payments/internal/wire"
)

// manifest is what examples/ci/kubernetes.yaml declares.
type manifest struct {
	secret      *corev1.Secret
	service     *corev1.Service
	statefulSet *appsv1.StatefulSet
}

// decodeManifest decodes each document of a manifest strictly into its
// Kubernetes API type: a field the type does not have, misspelt (in any
// letter's case) or misplaced, or a value of the wrong type, is an error,
// as the API server's strict field validation makes it.
func decodeManifest(b []byte) (*manifest, error) {
	m := &manifest{}
	for i, doc := range bytes.Split(b, []byte("\n---\n")) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		var obj any
		switch tm.APIVersion + " " + tm.Kind {
		case "v1 Secret":
			m.secret = &corev1.Secret{}
			obj = m.secret
		case "v1 Service":
			m.service = &corev1.Service{}
			obj = m.service
		case "apps/v1 StatefulSet":
			m.statefulSet = &appsv1.StatefulSet{}
			obj = m.statefulSet
		default:
			return nil, fmt.Errorf("document %d: a %s %s, want a v1 Secret, a v1 Service and an apps/v1 StatefulSet", i+1, tm.APIVersion, tm.Kind)
		}
		if err := decodeStrict(doc, obj); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, tm.Kind, err)
		}
	}
	if m.secret == nil || m.service == nil || m.statefulSet == nil {
		return nil, fmt.Errorf("want a Secret, a Service and a StatefulSet")
	}
	return m, nil
}

// TestKubernetes_Manifest checks examples/ci/kubernetes.yaml against the
// Kubernetes API's types, and that its sandbox keeps its data file on a
// volume claim, is ready and live by /healthz, runs as the image's
// non-root user on a read-only root filesystem, takes its keys from the
// Secret, and asks Prometheus to scrape /metrics.
func TestKubernetes_Manifest(t *testing.T) {
	_, content := readExample(t, "kubernetes.yaml")
	m, err := decodeManifest(content)
	if err != nil {
		t.Fatal(err)
	}
	sts, svc := m.statefulSet, m.service
	pod := sts.Spec.Template
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("want one container, have %d", len(pod.Spec.Containers))
	}
	c := pod.Spec.Containers[0]
	if !imageTag.MatchString(c.Image) {
		t.Errorf("the image is %q, want %s with a tag", c.Image, sandboxImage)
	}
	var port *corev1.ContainerPort
	for i := range c.Ports {
		if fmt.Sprint(c.Ports[i].ContainerPort) == sandboxPort {
			port = &c.Ports[i]
		}
	}
	if port == nil || port.Name == "" {
		t.Fatalf("the container declares no named port %s: %v", sandboxPort, c.Ports)
	}

	// The Service and the StatefulSet find the pods.
	if sts.Spec.Selector == nil || !subset(sts.Spec.Selector.MatchLabels, pod.Labels) {
		t.Errorf("the StatefulSet's selector %v does not match its pods' labels %v", sts.Spec.Selector, pod.Labels)
	}
	if !subset(svc.Spec.Selector, pod.Labels) || len(svc.Spec.Selector) == 0 {
		t.Errorf("the Service's selector %v does not match the pods' labels %v", svc.Spec.Selector, pod.Labels)
	}
	if sts.Spec.ServiceName != svc.Name || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("the StatefulSet's service is %q; want the headless Service %q (clusterIP None, have %q)", sts.Spec.ServiceName, svc.Name, svc.Spec.ClusterIP)
	}
	if len(svc.Spec.Ports) != 1 || fmt.Sprint(svc.Spec.Ports[0].Port) != sandboxPort || svc.Spec.Ports[0].TargetPort != intstr.FromString(port.Name) {
		t.Errorf("the Service's ports are %v, want %s to the container's port %q", svc.Spec.Ports, sandboxPort, port.Name)
	}

	// The data file on a volume claim.
	var dataMount string
	for _, vm := range c.VolumeMounts {
		if vm.MountPath == "/data" {
			dataMount = vm.Name
		}
	}
	claimed := false
	for _, vct := range sts.Spec.VolumeClaimTemplates {
		claimed = claimed || (vct.Name == dataMount && vct.Spec.Resources.Requests.Storage().Sign() > 0)
	}
	if dataMount == "" || !claimed {
		t.Errorf("/data is not mounted from a volume claim template with a size (mount %q)", dataMount)
	}

	// Ready and live by /healthz on the sandbox's port.
	for name, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != wire.PathHealth || p.HTTPGet.Port != intstr.FromString(port.Name) {
			t.Errorf("the %s probe is %+v, want GET %s on the port %q", name, p, wire.PathHealth, port.Name)
		}
	}

	// Non-root, read-only, nothing more than it needs.
	psc, csc := pod.Spec.SecurityContext, c.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser != 65532 || psc.FSGroup == nil || *psc.FSGroup != 65532 {
		t.Errorf("the pod's security context %+v: want runAsNonRoot, runAsUser 65532 (the image's user) and fsGroup 65532 (so it can write the claim)", psc)
	}
	if csc == nil || csc.ReadOnlyRootFilesystem == nil || !*csc.ReadOnlyRootFilesystem ||
		csc.AllowPrivilegeEscalation == nil || *csc.AllowPrivilegeEscalation ||
		csc.Capabilities == nil || len(csc.Capabilities.Drop) != 1 || csc.Capabilities.Drop[0] != "ALL" {
		t.Errorf("the container's security context %+v: want a read-only root filesystem, no privilege escalation, every capability dropped", csc)
	}
	if g := pod.Spec.TerminationGracePeriodSeconds; g == nil || *g <= 10 {
		t.Errorf("terminationGracePeriodSeconds %v: want more than the 10 seconds the sandbox takes to stop cleanly", g)
	}

	// The keys from the Secret.
	var keysFrom *corev1.SecretKeySelector
	for _, e := range c.Env {
		if e.Name == "PAYMENTS_SANDBOX_KEYS" && e.ValueFrom != nil {
			keysFrom = e.ValueFrom.SecretKeyRef
		}
	}
	if keysFrom == nil || keysFrom.Name != m.secret.Name {
		t.Fatalf("PAYMENTS_SANDBOX_KEYS does not come from the Secret %q: %+v", m.secret.Name, keysFrom)
	}
	keys, ok := m.secret.StringData[keysFrom.Key]
	if !ok {
		t.Fatalf("the Secret has no entry %q", keysFrom.Key)
	}
	checkKeys(t, "the Secret", keys, "")

	// Scraped by Prometheus.
	want := map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": sandboxPort, "prometheus.io/path": wire.PathMetrics}
	for k, v := range want {
		if pod.Annotations[k] != v {
			t.Errorf("the pods' annotation %s is %q, want %q", k, pod.Annotations[k], v)
		}
	}
}

func subset(sub, of map[string]string) bool {
	for k, v := range sub {
		if w, ok := of[k]; !ok || w != v {
			return false
		}
	}
	return len(sub) > 0 || maps.Equal(sub, of)
}

// TestKubernetes_DecodeCatches checks that the decoding is strict: each
// mutation of the manifest fails it.
func TestKubernetes_DecodeCatches(t *testing.T) {
	_, content := readExample(t, "kubernetes.yaml")
	for _, m := range []mutation{
		{name: "a misspelt probe", old: "          readinessProbe:\n", new: "          readinesProbe:\n", want: `unknown field "spec.template.spec.containers[0].readinesProbe"`},
		{name: "a field's wrong case", old: "readOnlyRootFilesystem: true", new: "readOnlyRootFileSystem: true", want: "readOnlyRootFileSystem"},
		{name: "a field in the wrong place", old: "      automountServiceAccountToken: false\n", new: "      automountServiceAccountToken: false\n      readOnlyRootFilesystem: true\n", want: "readOnlyRootFilesystem"},
		{name: "a port that is not a number", old: "containerPort: 12111", new: `containerPort: "12111"`, want: "cannot unmarshal string"},
		{name: "a misspelt claim field", old: "        accessModes: [ReadWriteOnce]\n", new: "        accessMode: [ReadWriteOnce]\n", want: "accessMode"},
		{name: "a kind the test does not know", old: "kind: Secret\n", new: "kind: Secrets\n", want: "Secrets"},
	} {
		t.Run(m.name, func(t *testing.T) {
			_, err := decodeManifest(mutate(t, content, m))
			if err == nil || !strings.Contains(err.Error(), m.want) {
				t.Errorf("got %v, want an error with %q", err, m.want)
			}
		})
	}
}
