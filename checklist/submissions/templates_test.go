package submissions

import (
	"testing"
	"unsafe"

	"github.com/romeo-pret/pret/checklist"
)

// TestTemplates: a message compacted, its fingerprints packed as a record
// keeps them, then expanded is the message, two
// messages that differ only in their fingerprints share one template, and
// files whose one problem is that template share one list, capped so
// that an append to it copies.
func TestTemplates(t *testing.T) {
	const a, b, c = "SHA256:aaaa+/09", "SHA256:bbbb", "SHA256:"
	const d = "SHA256:P4ngNNsDRRY2lCZjcYc3HBFZ7OF751V6sFI0d2+kJPY"
	var tm templates
	for _, msg := range []string{
		"le fichier k.pub a l'empreinte " + b + ", pas celle indiquée (" + a + ")",
		a + a + b + " " + c + "fin",
		"sans empreinte",
		"un nul \x00 et " + a,
		// As ssh-keygen writes one (kept in 32 bytes), and with bits past them.
		"deux : " + d + " et " + d[:len(d)-1] + "B",
		"onze : SHA256:0 SHA256:1 SHA256:2 SHA256:3 SHA256:4 SHA256:5 SHA256:6 SHA256:7 SHA256:8 SHA256:9 SHA256:10",
	} {
		for _, stated := range []string{a, "", d} { // packed in a record, then unpacked
			fps := []string{stated}
			tmpl, ok := tm.compact(msg, &fps)
			got, kept := tmpl, unpackFPs(string(packFPs(nil, fps)))
			if ok {
				got = expand(tmpl, kept)
			}
			if got != msg || kept[0] != stated {
				t.Errorf("%q came back as %q (template %q, ok %v), stated %q as %q", msg, got, tmpl, ok, stated, kept[0])
			}
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
