package onboarding

import (
	"strings"
	"testing"
)

// TestWizardLastScreenBlockIsSSHConfig: whatever the account answer, the
// wizard's last screen shows, under its step 3, the very block `pret
// ssh-config` prints (SSHConfig, the one function that writes it),
// comment line first, at the left margin, for the wizard's key and home.
func TestWizardLastScreenBlockIsSSHConfig(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers []answer
	}{
		{"account requested", []answer{
			{kind: "password", text: goodPass}, {kind: "password", text: goodPass},
			{kind: "select", text: AnswerRequested}, {kind: "input"}, {kind: "select", text: "Oui"},
		}},
		{"account not requested yet", []answer{
			{kind: "password", text: goodPass}, {kind: "password", text: goodPass},
			{kind: "select", text: AnswerNotYet}, {kind: "select", text: "Non"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, out, p := newWizard(t, dir, tc.answers)
			w.Home = dir
			if err := w.Run(); err != nil {
				t.Fatal(err)
			}
			if len(p.answers) != 0 {
				t.Fatalf("questions not asked: %+v", p.answers)
			}
			block := SSHConfig(w.Store.PrivatePath(), w.Home)
			if !strings.HasPrefix(block, "# Séance ROMEO — remplacez NOEUD-DE-LOGIN par le nom donné par les organisateurs\nHost romeo\n") ||
				!strings.Contains(block, "IdentityFile ~/.ssh/id_ed25519_romeo\n") {
				t.Fatalf("block:\n%s", block)
			}
			screen := out.String()
			step := "3. Ajoutez ce bloc à ~/.ssh/config (« pret ssh-config » l'affiche ; pret n'écrit jamais ce fichier) :\n"
			if !strings.Contains(screen, step+block) {
				t.Fatalf("the last screen does not show the ssh-config block under step 3:\n%s", screen[strings.LastIndex(screen, "Et maintenant"):])
			}
			if strings.Count(screen, "Host romeo") != 1 {
				t.Errorf("the block is shown %d times", strings.Count(screen, "Host romeo"))
			}
		})
	}
}
