package jobapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
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

func viaAPI(js []byte) decoded {
	var j batchv1.Job
	strict, err := kjson.UnmarshalStrict(js, &j, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	d := decoded{Err: err != nil}
	for _, e := range strict {
		d.Strict = append(d.Strict, e.Error())
	}
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

func viaJobapi(js []byte) decoded {
	j, unknown, err := Decode(js)
	d := decoded{Err: err != nil}
	for _, u := range unknown {
		d.Strict = append(d.Strict, fmt.Sprintf("unknown field %q", u))
	}
	if err != nil {
		return d
	}
	d.Name, d.Restart, d.Priority = j.Metadata.Name, j.Spec.Template.Spec.RestartPolicy, j.Spec.Template.Spec.PriorityClassName
	d.Backoff, d.Deadline, d.Suspend = j.Spec.BackoffLimit, j.Spec.ActiveDeadlineSeconds, j.Spec.Suspend
	for _, c := range j.Spec.Template.Spec.Containers {
		d.Containers = append(d.Containers, append([]string{c.Image}, c.Command...))
	}
	d.Labels, d.TemplateLabels = j.Metadata.Labels, j.Spec.Template.Metadata.Labels
	return d
}

// agree checks that a YAML document decodes the same with the API's
// types and with Decode: refused alike, the same unknown fields, the same
// values read.
func agree(t *testing.T, doc []byte) {
	t.Helper()
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil || bigExponent.Match(js) {
		return
	}
	api, mirror := viaAPI(js), viaJobapi(js)
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
	// More unknown fields than the API lists.
	sample("  backoffLimit: 0", "  backoffLimit: 0"+func() (s string) {
		for i := range 120 {
			s += fmt.Sprintf("\n  f%03d: 1", i)
		}
		return s
	}()),
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

// FuzzCustomTypesAgree: check accepts and refuses the same raw JSON
// values as the API's four types that decode themselves.
func FuzzCustomTypesAgree(f *testing.F) {
	for _, s := range []string{`"1Gi"`, `"250m"`, `1.5`, `"1e3"`, `"12E"`, `"+"`, `"."`, `"1.2.3"`, `"e"`, `"1e"`, `" 5 "`, `"0"`, `"-0.5Ki"`, `"1E+9"`, `"1e99999999999999999999"`,
		`"Ti"`, `"Pi"`, `"e-9"`, `"e-10"`, `"+.Ki"`, `"1.G"`, `"\t5"`, `"2026-10-20T10:00:00Z"`, `"2026-10-20"`, `null`, `3`, `true`, `"80"`, `80`, `{"a":1}`, `[1]`, `"\u0031"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw) // as a value inside a document
		if !json.Valid(raw) || bigExponent.Match(raw) {
			// The API's resource.ParseQuantity computes 10^exponent: with
			// "9e9999991999999999" it runs for minutes. jobapi never
			// computes a quantity; that input is TestHugeExponent's.
			return
		}
		for name, api := range map[string]json.Unmarshaler{
			"Quantity": new(resource.Quantity), "Time": new(metav1.Time), "IntOrString": new(intstr.IntOrString), "FieldsV1": new(metav1.FieldsV1),
		} {
			errAPI, errJobapi := safeUnmarshal(api, raw), check(new([]string), "x", name, raw)
			if (errAPI == nil) != (errJobapi == nil) {
				t.Fatalf("%s of %s: k8s.io says %v, jobapi says %v", name, raw, errAPI, errJobapi)
			}
		}
	})
}

var bigExponent = regexp.MustCompile(`[eE][+-]?[0-9]{4}`)

// TestHugeExponent: a quantity with a huge exponent, which would keep the
// API's own decoder computing for minutes, is read as text at once.
func TestHugeExponent(t *testing.T) {
	if err := check(new([]string), "x", "Quantity", []byte(`"9e9999991999999999"`)); err != nil {
		t.Fatal(err)
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

// TestEveryFieldAsTheAPI puts values of every JSON kind in every field of
// every type a Job reaches, each in its own document, and decodes them
// both ways: each mapping of schema.json is tried against the API's types.
func TestEveryFieldAsTheAPI(t *testing.T) {
	values := []string{`"x"`, `"1Gi"`, `"2026-10-20T10:00:00Z"`, `1`, `-1`, `3000000000`, `1.5`, `true`, `null`, `[1]`, `["x"]`, `{}`, `{"a":1}`, `{"a":"b"}`, `[{}]`, `[{"zz":1}]`, `{"zz":{}}`}
	// within[T] writes a document holding the given T object.
	within := map[string]func(string) string{"Job": func(s string) string { return s }}
	queue, tried := []string{"Job"}, 0
	for len(queue) > 0 {
		typ := queue[0]
		queue = queue[1:]
		for _, field := range slices.Sorted(maps.Keys(schema()[typ])) {
			member := func(v string) string { return within[typ](fmt.Sprintf(`{%q:%s}`, field, v)) }
			for _, v := range values {
				js := []byte(member(v))
				if api, ours := viaAPI(js), viaJobapi(js); !reflect.DeepEqual(api, ours) {
					t.Fatalf("%s:\napi    %+v\njobapi %+v", js, api, ours)
				}
				tried++
			}
			ft, wrap := schema()[typ][field], member
			for {
				outer := wrap
				if elem, ok := strings.CutPrefix(ft, "[]"); ok {
					ft, wrap = elem, func(s string) string { return outer("[" + s + "]") }
				} else if elem, ok := strings.CutPrefix(ft, "map[string]"); ok {
					ft, wrap = elem, func(s string) string { return outer(`{"k":` + s + "}") }
				} else {
					break
				}
			}
			if _, ok := schema()[ft]; ok && within[ft] == nil {
				within[ft] = wrap
				queue = append(queue, ft)
			}
		}
	}
	if len(within) != len(schema()) {
		t.Fatalf("%d types reached of %d", len(within), len(schema()))
	}
	t.Logf("%d documents", tried)
}
