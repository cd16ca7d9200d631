package onboarding

import (
	"errors"
	"os"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// TestCtrlCKeepsDeclaration (issue 32): the date is recorded as soon as it
// is confirmed; Ctrl-C at any later question (the folder, the replacement,
// the date line, the signature) keeps it in the state file.
func TestCtrlCKeepsDeclaration(t *testing.T) {
	date := answer{kind: "input", text: "19/10/2026"}
	stop := func(kind string) answer { return answer{kind: kind, err: ErrInterrupted} }
	for _, tc := range []struct {
		name    string
		acces   string // "", "hand" (other content), "dated" (pret's with another date, edited)
		sign    bool
		answers []answer
	}{
		{"at « Écrire acces.md à cet endroit ? »", "", false, []answer{date, stop("select")}},
		{"at the folder", "", false, []answer{date, {kind: "select", text: "Non, choisir un autre dossier"}, stop("input")}},
		{"at « Le remplacer ? »", "hand", false, []answer{date, {kind: "select", text: "Oui"}, stop("select")}},
		{"at « Changer seulement la ligne de la date ? »", "dated", false, []answer{date, {kind: "select", text: "Oui"}, {kind: "select", text: "Non"}, stop("select")}},
		{"at « Signer acces.md ? »", "", true, []answer{date, {kind: "select", text: "Oui"}, stop("select")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, out, p := keyedWizard(t, dir, nil)
			switch tc.acces {
			case "hand":
				os.WriteFile(w.File, []byte("contenu écrit à la main\n"), 0o644)
			case "dated":
				if _, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day("2026-10-10")}}); err != nil {
					t.Fatal(err)
				}
				os.Remove(w.StatePath)
				f, _ := os.OpenFile(w.File, os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString("\nUne note à moi.\n")
				f.Close()
			}
			if tc.sign {
				withSigner(w)
			}
			p.answers = append([]answer{{kind: "select", text: AnswerRequested}}, tc.answers...)
			before, _ := os.ReadFile(w.File)
			if err := w.Run(); !errors.Is(err, ErrInterrupted) {
				t.Fatalf("Run: %v\n%s", err, out)
			}
			if len(p.answers) != 0 {
				t.Fatalf("questions not asked: %+v\n%s", p.answers, out)
			}
			st, err := LoadState(w.StatePath)
			if r, _, ok := st.Latest(""); err != nil || !ok || r.Status != StatusRequested || r.Date != "2026-10-19" {
				t.Fatalf("the date typed is lost: %+v %v", st, err)
			}
			if after, _ := os.ReadFile(w.File); !tc.sign && string(after) != string(before) {
				t.Errorf("acces.md changed by an interrupted question:\n%s", after)
			}
		})
	}
}
