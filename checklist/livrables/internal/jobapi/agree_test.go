package jobapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/romeo-pret/pret/templates"
)

// decoded is what CheckJob reads of a Job, and how decoding ended.
type decoded struct {
	Err                     bool
	Strict                  []string
	Name, Restart, Priority string
	Backoff                 *int32
	Deadline                *int64
	Suspend                 *bool
	Containers              [][]string // image, then command
	Labels, TemplateLabels  map[string]string
}

func decodeWith(js []byte, job any) (decoded, error) {
	strict, err := kjson.UnmarshalStrict(js, job, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	var d decoded
	d.Err = err != nil
	for _, e := range strict {
		d.Strict = append(d.Strict, e.Error())
	}
	return d, err
}

func viaAPI(js []byte) decoded {
	var j batchv1.Job
	d, err := decodeWith(js, &j)
	if err != nil {
		return d
	}
	d.Name, d.Restart, d.Priority = j.Name, string(j.Spec.Template.Spec.RestartPolicy), j.Spec.Template.Spec.PriorityClassName
	d.Backoff, d.Deadline, d.Suspend = j.Spec.BackoffLimit, j.Spec.ActiveDeadlineSeconds, j.Spec.Suspend
	for _, c := range j.Spec.Template.Spec.Containers {
		d.Containers = append(d.Containers, append([]string{c.Image}, c.Command...))
	}
	d.Labels, d.TemplateLabels = j.Labels, j.Spec.Template.Labels
	return d
}

func viaMirror(js []byte) decoded {
	var j Job
	d, err := decodeWith(js, &j)
	if err != nil {
		return d
	}
	d.Name, d.Restart, d.Priority = j.Name, string(j.Spec.Template.Spec.RestartPolicy), j.Spec.Template.Spec.PriorityClassName
	d.Backoff, d.Deadline, d.Suspend = j.Spec.BackoffLimit, j.Spec.ActiveDeadlineSeconds, j.Spec.Suspend
	for _, c := range j.Spec.Template.Spec.Containers {
		d.Containers = append(d.Containers, append([]string{c.Image}, c.Command...))
	}
	d.Labels, d.TemplateLabels = j.Labels, j.Spec.Template.Labels
	return d
}

// agree checks that a YAML document decodes the same into the API's
// types and into these: refused alike, the same unknown fields, the same
// values read.
func agree(t *testing.T, doc []byte) {
	t.Helper()
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil || bigExponent.Match(js) {
		return
	}
	api, mirror := viaAPI(js), viaMirror(js)
	if !reflect.DeepEqual(api, mirror) {
		t.Fatalf("decoded differently from k8s.io/api:\n%s\napi    %+v\nmirror %+v", doc, api, mirror)
	}
}

func sample(old, new string) []byte {
	j, _ := templates.Model("sommeil-job.yaml")
	if !strings.Contains(string(j), old) {
		panic("not in the model: " + old)
	}
	return []byte(strings.Replace(string(j), old, new, 1))
}

var samples = [][]byte{
	sample("", ""),
	sample("backoffLimit: 0", "backoffLimit: zéro"),
	sample("backoffLimit: 0", "backoffLimit: 1.5"),
	sample("backoffLimit: 0", "backoffLimit: 3000000000"),
	sample("restartPolicy: Never", "restartpolicy: Never"),
	sample("  backoffLimit: 0", "  backoffLimit: 0\n  retries: 2"),
	sample("  name: sommeil\n", "  name: sommeil\n  labels:\n    kueue.x-k8s.io/queue-name: equipe\n  creationTimestamp: 2026-10-20T10:00:00Z\n"),
	sample("  name: sommeil\n", "  name: sommeil\n  creationTimestamp: hier\n"),
	sample("  name: sommeil\n", "  name: sommeil\n  uid: 12\n"),
	sample("      restartPolicy: Never", "      restartPolicy: Never\n      overhead:\n        cpu: 250m\n        memory: 1Gi"),
	sample("      restartPolicy: Never", "      restartPolicy: Never\n      overhead:\n        cpu: 2.5.1"),
	sample("      restartPolicy: Never", "      restartPolicy: Never\n      overhead:\n        cpu: [1]"),
	sample("      restartPolicy: Never", "      restartPolicy: Never\n      overhead:\n        cpu: 1e3\n        memory: 12E\n        pods: +"),
	sample("      restartPolicy: Never", "      restartPolicy: Never\n      terminationGracePeriodSeconds: true"),
	sample("  backoffLimit: 0", "  backoffLimit: 0\n  podFailurePolicy:\n    rules:\n    - action: Ignore\n      onExitCodes:\n        operator: In\n        values: [1, 2]"),
	sample("  backoffLimit: 0", "  backoffLimit: 0\n  managedFields: 3"),
	sample("  name: sommeil\n", "  name: sommeil\n  managedFields:\n  - fieldsV1: {f:spec: {}}\n    time: 2026-10-20T10:00:00+02:00\n"),
	[]byte(`{"apiVersion":"batch/v1","kind":"Job","spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":"80"}],"livenessProbe":{"httpGet":{"port":"http"}},"readinessProbe":{"tcpSocket":{"port":8080}},"startupProbe":{"grpc":{"port":true}}}]}}}}`),
}

// TestDecodesAsTheAPI: every sample decodes alike, and at least one of
// them is refused by each kind of check, so agreement is not vacuous.
func TestDecodesAsTheAPI(t *testing.T) {
	refused, unknown, accepted := 0, 0, 0
	for _, s := range samples {
		agree(t, s)
		js, _ := yaml.YAMLToJSONStrict(s)
		d := viaAPI(js)
		switch {
		case d.Err:
			refused++
		case len(d.Strict) > 0:
			unknown++
		default:
			accepted++
		}
	}
	if refused < 5 || unknown < 1 || accepted < 3 {
		t.Fatalf("samples too tame: %d refused, %d with unknown fields, %d accepted", refused, unknown, accepted)
	}
}

func FuzzDecodesAsTheAPI(f *testing.F) {
	for _, s := range samples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc []byte) { agree(t, doc) })
}

// FuzzCustomTypesAgree: the four stand-ins accept and refuse the same raw
// JSON values as the API's types.
func FuzzCustomTypesAgree(f *testing.F) {
	for _, s := range []string{`"1Gi"`, `"250m"`, `1.5`, `"1e3"`, `"12E"`, `"+"`, `"."`, `"1.2.3"`, `"e"`, `"1e"`, `" 5 "`, `"0"`, `"-0.5Ki"`, `"1E+9"`, `"1e99999999999999999999"`,
		`"2026-10-20T10:00:00Z"`, `"2026-10-20"`, `null`, `3`, `true`, `"80"`, `80`, `{"a":1}`, `[1]`, `"\u0031"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) || bigExponent.Match(raw) {
			// The API's resource.ParseQuantity computes 10^exponent: with
			// "9e9999991999999999" it runs for minutes. jobapi never
			// computes a quantity; that input is TestHugeExponent's.
			return
		}
		pairs := []struct {
			name        string
			api, mirror json.Unmarshaler
		}{
			{"Quantity", new(resource.Quantity), new(Quantity)},
			{"Time", new(metav1.Time), new(Time)},
			{"IntOrString", new(intstr.IntOrString), new(IntOrString)},
			{"FieldsV1", new(metav1.FieldsV1), new(FieldsV1)},
		}
		for _, p := range pairs {
			errAPI, errMirror := safeUnmarshal(p.api, raw), safeUnmarshal(p.mirror, raw)
			if (errAPI == nil) != (errMirror == nil) {
				t.Fatalf("%s of %s: k8s.io says %v, jobapi says %v", p.name, raw, errAPI, errMirror)
			}
		}
	})
}

var bigExponent = regexp.MustCompile(`[eE][+-]?[0-9]{4}`)

// TestHugeExponent: a quantity with a huge exponent, which would keep the
// API's own decoder computing for minutes, is read as text at once.
func TestHugeExponent(t *testing.T) {
	var q Quantity
	if err := q.UnmarshalJSON([]byte(`"9e9999991999999999"`)); err != nil || q.Text != "9e9999991999999999" {
		t.Fatalf("%v %q", err, q.Text)
	}
}

// safeUnmarshal reports a panic of the API's own code as an error.
func safeUnmarshal(u json.Unmarshaler, raw []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return u.UnmarshalJSON(raw)
}
