package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// parse runs c on args, its runF having kept the options.
func parse(t *testing.T, c *cobra.Command, args ...string) error {
	t.Helper()
	c.SetArgs(args)
	c.SetOut(io.Discard)
	c.SetErr(io.Discard)
	c.SilenceErrors, c.SilenceUsage = true, true
	return c.Execute()
}

func testApp() *app {
	var out, errb bytes.Buffer
	return newApp(&iostreams{In: strings.NewReader(""), Out: &out, Err: &errb, noColor: true})
}

// TestCommandOptions: each command's line gives the options its run
// reads (gh's NewCmdX(f, runF)), and a line refused never runs it.
func TestCommandOptions(t *testing.T) {
	a := testApp()
	var s *sunkOptions
	keep := func(o *sunkOptions) error { s = o; return nil }
	if err := parse(t, newSunkCmd(a, keep), "--valeurs", "v.yaml", "--politique", "p.json", "--pods", "pods.yaml",
		"--grace", "300", "--bacs-a-sable", "sb-kim,sb-lea", "--format", "junit", "--strict"); err != nil {
		t.Fatal(err)
	}
	if s == nil || s.values != "v.yaml" || s.policy != "p.json" || s.pods != "pods.yaml" || s.configMap != "" || s.grace != 300 ||
		s.sandboxes != "sb-kim,sb-lea" || s.report != (reportFlags{"junit", true}) || s.app != a {
		t.Errorf("sunk: %+v", s)
	}
	s = nil
	if err := parse(t, newSunkCmd(a, keep), "--valeurs", "v.yaml"); err == nil || s != nil {
		t.Errorf("sunk without --politique: %v, ran %v", err, s != nil)
	}
	if err := parse(t, newSunkCmd(a, keep), "--valeurs", "v.yaml", "--politique", "p", "--grace", "-1"); err == nil || s != nil {
		t.Errorf("sunk --grace -1: %v, ran %v", err, s != nil)
	}

	var l *livrablesOptions
	keepLivrables := func(o *livrablesOptions) error { l = o; return nil }
	if err := parse(t, newLivrablesCmd(a, keepLivrables)); err != nil || l.dir != "." || l.wait != 3*time.Minute || l.submitting {
		t.Errorf("livrables: %v %+v", err, l)
	}
	if err := parse(t, newLivrablesCmd(a, keepLivrables), "rendu", "--soumettre", "--attente", "90s", "--format", "json"); err != nil ||
		l.dir != "rendu" || l.wait != 90*time.Second || !l.submitting || l.report.format != "json" {
		t.Errorf("livrables rendu: %v %+v", err, l)
	}
	// A zero or negative wait is refused in French, before the run.
	for _, d := range []string{"-5s", "0s", "-1m"} {
		l = nil
		err := parse(t, newLivrablesCmd(a, keepLivrables), "--attente", d)
		if e, ok := err.(*cliError); !ok || e.Code != exitUsage || l != nil || !strings.Contains(e.Msg, "positive") {
			t.Errorf("livrables --attente %s: %v, ran %v", d, err, l != nil)
		}
	}

	var e *empreinteOptions
	if err := parse(t, newEmpreinteCmd(a, func(o *empreinteOptions) error { e = o; return nil }), "-", "--art"); err != nil || e.path != "-" || !e.art {
		t.Errorf("empreinte: %v %+v", err, e)
	}
	var m *modeleOptions
	if err := parse(t, newModeleCmd(a, func(o *modeleOptions) error { m = o; return nil }), "rendu/sommeil.sbatch"); err != nil || m.path != "rendu/sommeil.sbatch" {
		t.Errorf("modele: %v %+v", err, m)
	}
	var val *validerOptions
	keepValider := func(o *validerOptions) error { val = o; return nil }
	if err := parse(t, newValiderCmd(a, keepValider), "--tous", "--csv-separateur", "Virgule", "--paralleles", "2", "--format", "csv"); err != nil ||
		len(val.paths) != 1 || val.paths[0] != "." || !val.all || val.sep != "virgule" || val.workers != 2 || val.report.format != "csv" {
		t.Errorf("valider: %v %+v", err, val)
	}
	val = nil
	if err := parse(t, newValiderCmd(a, keepValider), "--paralleles", "0"); err == nil || val != nil {
		t.Errorf("valider --paralleles 0: %v, ran %v", err, val != nil)
	}
	var cl *cleOptions
	if err := parse(t, newCleCmd(a, func(o *cleOptions) error { cl = o; return nil }), "--publique", "--passphrase-file", "-"); err != nil || !cl.public || cl.passFile != "-" {
		t.Errorf("cle: %v %+v", err, cl)
	}
	var sg *signerOptions
	keepSigner := func(o *signerOptions) error { sg = o; return nil }
	if err := parse(t, newSignerCmd(a, keepSigner)); err != nil || sg.named || sg.passFile != "" {
		t.Errorf("signer: %v %+v", err, sg)
	}
	if err := parse(t, newSignerCmd(a, keepSigner), "rendu/acces.md", "--passphrase-file", "p"); err != nil || !sg.named || sg.file != "rendu/acces.md" || sg.passFile != "p" {
		t.Errorf("signer rendu/acces.md: %v %+v", err, sg)
	}
	var ac *accesOptions
	keepAcces := func(o *accesOptions) error { ac = o; return nil }
	if err := parse(t, newAccesCmd(a, keepAcces), "--statut", "verifie", "--date", "2026-10-12", "--force", "--signer", "--passphrase-file", "-"); err != nil ||
		ac == nil || *ac != (accesOptions{app: a, status: "verifie", date: "2026-10-12", force: true, sign: true, passFile: "-"}) {
		t.Errorf("acces: %v %+v", err, ac)
	}
	ac = nil
	if err := parse(t, newAccesCmd(a, keepAcces), "--statut", "peut-etre"); err == nil || ac != nil {
		t.Errorf("acces --statut peut-etre: %v, ran %v", err, ac != nil)
	}
	var w *assistantOptions
	if err := parse(t, newAssistantCmd(a, func(o *assistantOptions) error { w = o; return nil })); err != nil || w == nil || w.app != a {
		t.Errorf("assistant: %v %+v", err, w)
	}
	var v *verifierOptions
	if err := parse(t, newVerifierCmd(a, func(o *verifierOptions) error { v = o; return nil }), "--format", "json"); err != nil || v.report != (reportFlags{"json", false}) {
		t.Errorf("verifier: %v %+v", err, v)
	}
}
