package submissions

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/romeo-pret/pret/checklist"
)

// TestTemplates: a message compacted then expanded is the message, two
// messages that differ only in their fingerprints share one template, and
// files whose one problem is that template share one list, capped so
// that an append to it copies.
func TestTemplates(t *testing.T) {
	const a, b, c = "SHA256:aaaa+/09", "SHA256:bbbb", "SHA256:"
	var tm templates
	for _, msg := range []string{
		"le fichier k.pub a l'empreinte " + b + ", pas celle indiquée (" + a + ")",
		a + a + b + " " + c + "fin",
		"sans empreinte",
		"un nul \x00 et " + a,
		"onze : SHA256:0 SHA256:1 SHA256:2 SHA256:3 SHA256:4 SHA256:5 SHA256:6 SHA256:7 SHA256:8 SHA256:9 SHA256:10",
	} {
		fps := []string{a}
		tmpl, ok := tm.compact(msg, &fps)
		got := tmpl
		if ok {
			got = expand(tmpl, strings.Split(strings.Join(fps, " "), " "))
		}
		if got != msg {
			t.Errorf("%q came back as %q (template %q, ok %v)", msg, got, tmpl, ok)
		}
	}
	one, _ := tm.compact("clé "+a+" et "+b, &[]string{""})
	two, _ := tm.compact("clé "+b+" et "+a, &[]string{""})
	if unsafe.StringData(one) != unsafe.StringData(two) {
		t.Errorf("two messages of one template kept twice: %q %q", one, two)
	}
	p := checklist.Problem{Code: checklist.CodeFingerprintMismatch, Severity: checklist.SevError, Message: one, Line: 3}
	if l1, l2 := tm.one(p), tm.one(p); l1 != l2 || cap(*l1) != 1 || (*l1)[0] != p {
		t.Errorf("one problem kept twice, or writable past its length: %p %p, cap %d", l1, l2, cap(*l1))
	}
}
