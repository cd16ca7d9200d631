package jobapi

import (
	"bytes"
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
)

var update = flag.Bool("update", false, "rewrite schema.json from k8s.io/api")

// selfDecoding are the API types that decode themselves; check knows
// each, FuzzSelfDecodingAgree holds it to the original.
var selfDecoding = map[string]bool{"Time": true, "FieldsV1": true, "Quantity": true, "IntOrString": true}

// generate writes, one type a line, the fields of every type a batch/v1
// Job reaches, as encoding/json sees them: embedded structs inlined,
// names from the json tags, pointers and named scalar types resolved.
func generate(t *testing.T) []byte {
	types := map[string]map[string]string{}
	origin := map[string]string{}
	var typeOf func(reflect.Type) string
	var fields func(reflect.Type, map[string]string)
	typeOf = func(rt reflect.Type) string {
		for rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
		}
		name := rt.Name()
		if o, ok := origin[name]; ok && o != rt.PkgPath() && rt.PkgPath() != "" {
			t.Fatalf("two API types named %s: %s and %s", name, o, rt.PkgPath())
		}
		if reflect.PointerTo(rt).Implements(reflect.TypeFor[json.Unmarshaler]()) || reflect.PointerTo(rt).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
			if !selfDecoding[name] {
				t.Fatalf("%s.%s decodes itself: teach check to read it", rt.PkgPath(), name)
			}
			origin[name] = rt.PkgPath()
			return name
		}
		switch rt.Kind() {
		case reflect.String, reflect.Bool, reflect.Int32, reflect.Int64:
			return rt.Kind().String()
		case reflect.Slice:
			return "[]" + typeOf(rt.Elem())
		case reflect.Map:
			if rt.Key().Kind() != reflect.String {
				t.Fatalf("%s: a map whose keys are not strings", rt)
			}
			return "map[string]" + typeOf(rt.Elem())
		case reflect.Struct:
			if name == "" || selfDecoding[name] {
				t.Fatalf("%s: an unnamed struct, or a stand-in that no longer decodes itself", rt)
			}
			if _, ok := origin[name]; !ok {
				origin[name], types[name] = rt.PkgPath(), map[string]string{}
				fields(rt, types[name])
			}
			return name
		}
		t.Fatalf("%s: kind %s unknown to check", rt, rt.Kind())
		return ""
	}
	fields = func(rt reflect.Type, into map[string]string) {
		for i := range rt.NumField() {
			f := rt.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case tag == "-":
				continue
			case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
				fields(ft, into)
				continue
			case !f.IsExported():
				continue
			case strings.Contains(opts, "string"):
				t.Fatalf("%s.%s: the ,string option is unknown to check", rt, f.Name)
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := into[name]; dup {
				t.Fatalf("%s: two fields named %s", rt, name)
			}
			into[name] = typeOf(f.Type)
		}
	}
	typeOf(reflect.TypeFor[batchv1.Job]())

	var b bytes.Buffer
	b.WriteString("{\n")
	names := slices.Sorted(maps.Keys(types))
	for i, name := range names {
		line, _ := json.Marshal(types[name])
		fmt.Fprintf(&b, "%q: %s", name, line)
		if i < len(names)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// TestSchema: schema.json is what the k8s.io/api of go.mod declares.
// After an upgrade, -update rewrites it.
func TestSchema(t *testing.T) {
	src := generate(t)
	if *update {
		if err := os.WriteFile("schema.json", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(schemaJSON, src) {
		t.Fatal("schema.json differs from k8s.io/api: go test ./checklist/livrables/internal/jobapi -run TestSchema -update")
	}
}
