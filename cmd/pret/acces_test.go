package main

import "testing"

// TestAccesOptions: pret acces's line gives the options runAcces reads, and
// pret assistant's its app (gh's NewCmdX(f, runF)); a status refused never runs.
func TestAccesOptions(t *testing.T) {
	a := testApp()
	var o *accesOptions
	keep := func(opts *accesOptions) error { o = opts; return nil }
	if err := parse(t, newAccesCmd(a, keep), "--statut", "verifie", "--date", "2026-10-12", "--force", "--signer", "--passphrase-file", "-"); err != nil ||
		o == nil || *o != (accesOptions{app: a, status: "verifie", date: "2026-10-12", force: true, sign: true, passFile: "-"}) {
		t.Errorf("acces: %v %+v", err, o)
	}
	o = nil
	if err := parse(t, newAccesCmd(a, keep), "--statut", "peut-etre"); err == nil || o != nil {
		t.Errorf("acces --statut peut-etre: %v, ran %v", err, o != nil)
	}
	var w *assistantOptions
	if err := parse(t, newAssistantCmd(a, func(opts *assistantOptions) error { w = opts; return nil })); err != nil || w == nil || w.app != a {
		t.Errorf("assistant: %v %+v", err, w)
	}
}
