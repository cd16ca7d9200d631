// Package jobapi decodes a batch/v1 Job as the API server does, without
// k8s.io/api (13 MB of binary, a quarter of start-up): the types are data,
// schema.json, generated from k8s.io/api and checked against it by tests.
package jobapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/romeo-pret/pret/internal/termtext"
	kjson "sigs.k8s.io/json"
)

// schema.json: type → field → "string", "bool", "int32", "int64", "[]T",
// "map[string]T", an API type, Quantity, Time, IntOrString or FieldsV1.
//
//go:embed schema.json
var schemaJSON []byte

var schema = sync.OnceValue(func() (s map[string]map[string]string) {
	if err := json.Unmarshal(schemaJSON, &s); err != nil {
		panic(err) // the tests read the same file
	}
	return s
})

type Meta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
}

// Job is what CheckJob reads of a Job.
type Job struct {
	Metadata Meta `json:"metadata"`
	Spec     struct {
		BackoffLimit          *int32 `json:"backoffLimit"`
		ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds"`
		Suspend               *bool  `json:"suspend"`
		Template              struct {
			Metadata Meta `json:"metadata"`
			Spec     struct {
				RestartPolicy     string `json:"restartPolicy"`
				PriorityClassName string `json:"priorityClassName"`
				Containers        []struct {
					Image   string   `json:"image"`
					Command []string `json:"command"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// maxUnknown: where the API's decoder stops listing unknown fields.
const maxUnknown = 100

// Decode reads a Job from JSON (as sigs.k8s.io/yaml writes it) as the
// API server does: names case-sensitive, unknown fields listed by path,
// a value of the wrong type an error.
func Decode(js []byte) (job Job, unknown []string, err error) {
	if err := check(&unknown, "", "Job", js); err != nil {
		return job, nil, err
	}
	err = kjson.UnmarshalCaseSensitivePreserveInts(js, &job)
	return job, unknown, err
}

// check reads raw as typ, as the API's decoder: null is a zero, unknown
// fields' values are not read, the first wrong type ends the reading.
func check(unknown *[]string, path, typ string, raw []byte) error {
	var wrong bool
	var want string // in French, for the message
	switch s := string(raw); {
	case s == "null", typ == "FieldsV1": // FieldsV1 takes any JSON
	case typ == "string":
		want, wrong = "un texte", raw[0] != '"'
	case typ == "bool":
		want, wrong = "true ou false", s != "true" && s != "false"
	case typ == "int32", typ == "int64":
		bits, _ := strconv.Atoi(typ[3:])
		want, wrong = "un nombre entier sur "+typ[3:]+" bits", failed(strconv.ParseInt(s, 10, bits))
	case typ == "IntOrString":
		want, wrong = "un nombre entier ou un texte", raw[0] != '"' && failed(strconv.ParseInt(s, 10, 32))
	case typ == "Time":
		want, wrong = "une date RFC 3339 (2026-10-20T10:00:00Z)", json.Unmarshal(raw, &s) != nil || failed(time.Parse(time.RFC3339, s))
	case typ == "Quantity":
		if raw[0] == '"' {
			s = s[1 : len(s)-1] // as the API does: the raw bytes, escapes and all
		}
		want = "une quantité : un nombre, puis un suffixe comme m, k, M, G, Ki, Mi, Gi ou e3"
		wrong = !validQuantity(strings.TrimSpace(s))
	case strings.HasPrefix(typ, "[]"):
		var items []json.RawMessage
		want, wrong = "une liste", json.Unmarshal(raw, &items) != nil
		for i, item := range items {
			if err := check(unknown, fmt.Sprintf("%s[%d]", path, i), typ[2:], item); err != nil {
				return err
			}
		}
	default: // a map or a struct
		var members map[string]json.RawMessage
		want, wrong = "un objet (clé: valeur)", json.Unmarshal(raw, &members) != nil
		elem, isMap := strings.CutPrefix(typ, "map[string]")
		for _, k := range slices.Sorted(maps.Keys(members)) {
			at, t, known := k, elem, isMap
			if path != "" {
				at = path + "." + k
			}
			if !isMap {
				t, known = schema()[typ][k]
			}
			if !known {
				if len(*unknown) < maxUnknown {
					*unknown = append(*unknown, at)
				}
			} else if err := check(unknown, at, t, members[k]); err != nil {
				return err
			}
		}
	}
	if wrong {
		return fmt.Errorf("le champ « %s » devrait être %s", termtext.Escape(path), want)
	}
	return nil
}

func failed[T any](_ T, err error) bool { return err != nil }

var quantityRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[+-]?([0-9]*)(?:\.([0-9]*))?([numkMGTPE]|[KMGTPE]i|[eE][+-]?[0-9]+)?$`)
})

// validQuantity accepts what resource.ParseQuantity does. Without any
// digit ("+", "Ki", "e-3") only the API's 64-bit fast path takes it: a
// scale of at least 10⁻⁹ and, in binary, at most Ti.
func validQuantity(s string) bool {
	m := quantityRE().FindStringSubmatch(s)
	if s == "" || m == nil {
		return false
	}
	digits, suffix := m[1]+m[2] != "", m[3]
	switch {
	case strings.HasSuffix(suffix, "i"): // before the exponent: "Ei" is exa, binary
		return digits || strings.Contains("KMGT", suffix[:1])
	case len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E'):
		e, err := strconv.ParseInt(suffix[1:], 10, 64)
		return err == nil && (digits || int32(e) >= -9) // truncated, as the API does
	}
	return true
}
