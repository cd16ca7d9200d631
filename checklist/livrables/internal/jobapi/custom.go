// Package jobapi declares the types of a Kubernetes batch/v1 Job as
// k8s.io/api does, so pret decodes sommeil-job.yaml exactly as the API
// server would without linking k8s.io/api: that module and what it pulls
// in (net/http, TLS, klog, …) cost 13 MB of binary and 1.5 ms at every
// start of pret, for one command. zz_generated.go is generated from
// k8s.io/api and checked against it by the tests.
package jobapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// The four stand-ins below decode as the API's types do (the same input
// accepted, the same refused); they keep only what CheckJob reads.

// Time is k8s.io/apimachinery/pkg/apis/meta/v1.Time: null or an RFC 3339
// string.
type Time struct{ time.Time }

func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt
	return nil
}

// FieldsV1 is k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1: any JSON.
type FieldsV1 struct{ Raw []byte }

func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if !bytes.Equal(b, []byte("null")) {
		f.Raw = append(f.Raw[:0], b...)
	}
	return nil
}

// IntOrString is k8s.io/apimachinery/pkg/util/intstr.IntOrString.
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.IsString = true
		return json.Unmarshal(b, &v.StrVal)
	}
	v.IsString = false
	return json.Unmarshal(b, &v.IntVal)
}

// Quantity is k8s.io/apimachinery/pkg/api/resource.Quantity, kept as
// written: "1Gi", "500m", 1.5.
type Quantity struct{ Text string }

// ErrQuantity is a quantity the API refuses.
var ErrQuantity = errors.New("quantité illisible : un nombre, puis un suffixe comme m, k, M, G, Ki, Mi, Gi ou e3")

func (q *Quantity) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		q.Text = ""
		return nil
	}
	if l := len(b); l >= 2 && b[0] == '"' && b[l-1] == '"' {
		b = b[1 : l-1] // as the API does: the raw bytes, escapes and all
	}
	s := strings.TrimSpace(string(b))
	if !validQuantity(s) {
		return ErrQuantity
	}
	q.Text = s
	return nil
}

// validQuantity accepts what resource.ParseQuantity accepts: a sign,
// digits with at most one decimal point, then a suffix (none, n u m k M G
// T P E, Ki to Ei, or e/E and a signed integer). One more refusal comes
// from how the API computes: without a digit, a quantity whose value does
// not fit its 64-bit fast path ("Pi", "e-10") has no number to parse.
func validQuantity(s string) bool {
	if s == "" {
		return false
	}
	if s == "0" {
		return true
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits := func() string {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return s[start:i]
	}
	num := strings.TrimLeft(digits(), "0")
	denom := ""
	if i < len(s) && s[i] == '.' {
		i++
		denom = digits()
	}
	value, suffix := s[:i], s[i:]
	// The suffix is letters of "eEinumkKMGTP", then a sign, then digits.
	j := 0
	for j < len(suffix) && strings.IndexByte("eEinumkKMGTP", suffix[j]) >= 0 {
		j++
	}
	if j < len(suffix) && (suffix[j] == '+' || suffix[j] == '-') {
		j++
	}
	for j < len(suffix) && suffix[j] >= '0' && suffix[j] <= '9' {
		j++
	}
	if j != len(suffix) {
		return false
	}
	binary, exponent := false, int32(0)
	switch suffix {
	case "":
	case "n", "u", "m", "k", "M", "G", "T", "P", "E":
		exponent = int32(3 * (strings.Index("num_kMGTPE", suffix) - 3))
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		binary, exponent = true, int32(10*(1+strings.IndexByte("KMGTPE", suffix[0])))
	default:
		if len(suffix) < 2 || suffix[0] != 'e' && suffix[0] != 'E' {
			return false
		}
		e, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return false
		}
		exponent = int32(e) // truncated, as the API does
	}
	if strings.ContainsAny(value, "0123456789") {
		return true // the API's slow path parses any number
	}
	// No digit: valid only on the API's 64-bit fast path.
	if num == "" {
		num = "0"
	}
	if binary {
		return exponent >= 0 && denom == "" && 15-int32(len(num))-int32(float32(exponent)*3/10)-1 >= 0
	}
	return 18-int32(len(num)+len(denom)) >= 0 && exponent-int32(len(denom)) >= -9
}
