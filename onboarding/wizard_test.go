package onboarding

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
)

// answer is one scripted reply: the kind of question it expects and what
// the person types or picks.
type answer struct {
	kind   string // "password", "select", "input"
	text   string // typed; for a select, the label of the option picked
	choice int
	enter  bool // Enter: the default
	err    error
}

// call is one question as it was asked, with its default.
type call struct {
	kind, message string
	options       []string
	def           string
}

type fakePrompter struct {
	t       *testing.T
	answers []answer
	asked   []string
	calls   []call
}

func (f *fakePrompter) next(kind, message string) answer {
	f.t.Helper()
	f.asked = append(f.asked, kind+": "+message)
	if len(f.answers) == 0 {
		f.t.Fatalf("unexpected %s question %q", kind, message)
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	if a.kind != kind {
		f.t.Fatalf("question %q is a %s, the script expected a %s", message, kind, a.kind)
	}
	return a
}

func (f *fakePrompter) Password(message, help string) (string, error) {
	a := f.next("password", message)
	return a.text, a.err
}

func (f *fakePrompter) Select(message string, options []string, def int, help string) (int, error) {
	f.calls = append(f.calls, call{"select", message, options, options[def]})
	a := f.next("select", message)
	switch {
	case a.enter:
		return def, a.err
	case a.text != "":
		for i, o := range options {
			if o == a.text {
				return i, a.err
			}
		}
		f.t.Fatalf("question %q does not offer %q: %v", message, a.text, options)
	}
	return a.choice, a.err
}

func (f *fakePrompter) Input(message, def, help string) (string, error) {
	f.calls = append(f.calls, call{kind: "input", message: message, def: def})
	a := f.next("input", message)
	if a.text == "" {
		return def, a.err
	}
	return a.text, a.err
}

func newWizard(t *testing.T, dir string, answers []answer) (*Wizard, *bytes.Buffer, *fakePrompter) {
	out := &bytes.Buffer{}
	p := &fakePrompter{t: t, answers: answers}
	w := &Wizard{
		Settings: Settings{
			Session:   Session{Title: "Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA", Day: testenv.Day(testenv.SessionDay), Start: "09:30", End: "12:00"},
			Store:     keys.Store{Files: safefile.KeyFiles{}, Dir: filepath.Join(dir, ".ssh"), Name: "id_ed25519_romeo", Comment: "seance-novembre"},
			File:      filepath.Join(dir, "acces.md"),
			StatePath: filepath.Join(dir, "state", "etat.yaml"),
			Today:     testenv.Day(testenv.Today),
		},
		P:      p,
		Out:    out,
		Random: rand.Reader,
		Checklist: func(string, *State, *StateError) error {
			out.WriteString("[checklist]\n")
			return nil
		},
	}
	return w, out, p
}

// keyedWizard is newWizard with the shared key already in its folder.
func keyedWizard(t *testing.T, dir string, answers []answer) (*Wizard, *bytes.Buffer, *fakePrompter) {
	w, out, p := newWizard(t, dir, answers)
	copyDir(t, sharedKey(t), w.Store.Dir)
	return w, out, p
}

const goodPass = "une passphrase solide"

// record is RecordAccess as a command runs it: the state read first.
func record(r Recording) (*Outcome, error) {
	r.State, _ = LoadState(r.StatePath)
	return RecordAccess(r)
}

func TestWizardFlows(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	cases := []struct {
		name     string
		existing string // "", "key", "key+acces"
		answers  []answer
		channel  string
		wantErr  error
		want     []string // on screen
		wantNot  []string
		accesHas []string
		status   string
	}{
		{
			name: "new key, account requested today",
			answers: []answer{
				{kind: "password", text: goodPass}, {kind: "password", text: goodPass},
				{kind: "select", text: AnswerRequested},
				{kind: "input"},
				{kind: "select", text: "Oui"},
			},
			want:     []string{"Il reste 16 jours", "Clé créée", "(ED25519)", "Date comprise : mardi 20 octobre 2026", "acces.md sera écrit ici", "acces.md écrit", "[checklist]", "Et maintenant", "ssh-add ", "NOEUD-DE-LOGIN"},
			accesHas: []string{"Date de la demande du compte d'accès : 2026-10-20"},
			status:   "demande",
		},
		{
			name: "refusals are explained and asked again; dates as typed",
			answers: []answer{
				{kind: "password", text: ""},
				{kind: "password", text: "     "},
				{kind: "password", text: "court"},
				{kind: "password", text: goodPass}, {kind: "password", text: "autre chose!"},
				{kind: "password", text: goodPass}, {kind: "password", text: goodPass},
				{kind: "select", text: AnswerOpen},
				{kind: "input", text: "2026-02-30"},
				{kind: "input", text: "1er décembre 2026"},
				{kind: "input", text: "demain"},
				{kind: "input", text: "18/10/2026"},
				{kind: "select", enter: true},
			},
			want: []string{"la passphrase est vide", "ne contient que des espaces", "trop courte", "Les deux saisies diffèrent",
				"« 2026-02-30 » refusée : ce jour n'existe pas (février 2026 n'a que 28 jours)",
				"« 1er décembre 2026 » refusée : le mardi 1er décembre 2026 est dans le futur", "« demain » refusée",
				"Date comprise : dimanche 18 octobre 2026", "Clé créée"},
			accesHas: []string{"Date de la vérification du compte d'accès : 2026-10-18"},
			status:   "verifie",
		},
		{
			name:     "not requested yet, done now: the channel, then today",
			existing: "key",
			channel:  "le formulaire ROMEO de la formation",
			answers:  []answer{{kind: "select", enter: true}, {kind: "select", text: "Oui"}, {kind: "input"}, {kind: "select", enter: true}},
			want:     []string{"Clé existante conservée", "Demandez le compte d'accès le formulaire ROMEO de la formation", "Envoyez acces.md aux organisateurs (le formulaire ROMEO de la formation)"},
			wantNot:  []string{"passphrase"},
			status:   "demande",
		},
		{
			name:     "not requested yet, later: nothing written, the last screen says to ask",
			existing: "key",
			answers:  []answer{{kind: "select", enter: true}, {kind: "select", enter: true}},
			want:     []string{"acces.md attend la date de la demande", "1. Demandez le compte d'accès", "pret acces --statut demande"},
			wantNot:  []string{"passphrase"},
		},
		{
			name:     "replacement declined leaves acces.md alone, after a diff",
			existing: "key+acces",
			answers:  []answer{{kind: "select", text: AnswerOpen}, {kind: "input"}, {kind: "select", enter: true}, {kind: "select", enter: true}},
			want: []string{"conservé tel quel", "-contenu écrit à la main", "+# Accès", "@@ -1 +1,", "Relisez-le d'abord",
				// The answer typed is not lost: the one command that records it.
				"pret acces --statut verifie --date 2026-10-20 --force"},
			accesHas: []string{"contenu écrit à la main"},
		},
		{
			name:     "replacement accepted",
			existing: "key+acces",
			answers:  []answer{{kind: "select", text: AnswerOpen}, {kind: "input"}, {kind: "select", enter: true}, {kind: "select", text: "Oui"}},
			want:     []string{"-contenu écrit à la main"},
			accesHas: []string{"Date de la vérification du compte d'accès : 2026-10-20"},
			status:   "verifie",
		},
		{
			name:    "Ctrl-C at the passphrase leaves nothing",
			answers: []answer{{kind: "password", err: ErrInterrupted}},
			wantErr: ErrInterrupted,
		},
		{
			name:     "Ctrl-C at the date: the key stays, no acces.md",
			answers:  []answer{{kind: "password", text: goodPass}, {kind: "password", text: goodPass}, {kind: "select", text: AnswerRequested}, {kind: "input", err: ErrInterrupted}},
			wantErr:  ErrInterrupted,
			existing: "",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, out, p := newWizard(t, dir, tc.answers)
			w.Channel = tc.channel
			if strings.HasPrefix(tc.existing, "key") {
				copyDir(t, sharedKey(t), w.Store.Dir)
			}
			if tc.existing == "key+acces" {
				os.WriteFile(w.File, []byte("contenu écrit à la main\n"), 0o644)
			}
			err := w.Run()
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("got %v, want %v", err, tc.wantErr)
				}
				if _, err := os.Stat(w.File); err == nil {
					t.Error("acces.md written despite the interruption")
				}
				entries, _ := os.ReadDir(w.Store.Dir)
				for _, e := range entries {
					if strings.Contains(e.Name(), ".tmp-") {
						t.Errorf("temporary file left: %s", e.Name())
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, out)
			}
			if len(p.answers) != 0 {
				t.Fatalf("questions not asked: %+v", p.answers)
			}
			screen := out.String()
			for _, s := range tc.want {
				if !strings.Contains(screen, s) {
					t.Errorf("screen lacks %q:\n%s", s, screen)
				}
			}
			for _, s := range tc.wantNot {
				for _, q := range p.asked {
					if strings.Contains(strings.ToLower(q), s) {
						t.Errorf("asked %q", q)
					}
				}
			}
			if strings.Contains(screen, goodPass) {
				t.Error("the passphrase was shown")
			}
			for _, q := range p.asked {
				low := strings.ToLower(q)
				if strings.Contains(low, "hôte") || strings.Contains(low, "serveur") || strings.Contains(low, "hostname") || strings.Contains(low, "nœud") {
					t.Errorf("the wizard asks for a host: %q", q)
				}
			}
			// The only host name on screen is the placeholder of the
			// ~/.ssh/config block: pret never guesses one.
			for _, l := range strings.Split(screen, "\n") {
				if f := strings.Fields(l); len(f) > 0 && strings.EqualFold(f[0], "hostname") && (len(f) != 2 || f[1] != HostPlaceholder) {
					t.Errorf("a host name on screen: %q", l)
				}
			}
			written, _ := os.ReadFile(w.File)
			for _, s := range tc.accesHas {
				if !strings.Contains(string(written), s) {
					t.Errorf("acces.md lacks %q:\n%s", s, written)
				}
			}
			if tc.status != "" {
				res := acces.Validate(written, acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: w.Session.Day, Today: w.Today})
				if len(res.Problems) != 0 {
					t.Errorf("written acces.md has problems: %+v", res.Problems)
				}
				st, err := LoadState(w.StatePath)
				if err != nil || st.Last() == nil || st.Last().Status != tc.status {
					t.Errorf("state: %+v %v", st, err)
				}
			}
		})
	}
}

func TestBanner(t *testing.T) {
	s := Session{Title: "T", Day: testenv.Day(testenv.SessionDay), Start: "09:30", End: "12:00"}
	for today, want := range map[string]string{
		"2026-10-20": "Il reste 16 jours",
		"2026-11-04": "La séance a lieu demain",
		"2026-11-05": "La séance a lieu aujourd'hui",
		"2026-11-29": "La séance est passée",
	} {
		b := Banner(s, testenv.Day(today))
		if !strings.Contains(b, want) || !strings.Contains(b, "jeudi 5 novembre 2026, 9h30–12h") {
			t.Errorf("%s: %q", today, b)
		}
	}
}

func TestStateKeepsEarlierRecords(t *testing.T) {
	dir := t.TempDir()
	w, _, _ := keyedWizard(t, dir, nil)
	for _, r := range []struct {
		verified bool
		date     string
	}{{false, "2026-10-10"}, {false, "2026-10-10"}, {true, "2026-10-15"}} {
		st := map[bool]string{false: StatusRequested, true: StatusVerified}[r.verified]
		if _, err := record(Recording{Settings: w.Settings, Declaration: Declaration{st, testenv.Day(r.date)}, Replace: func(*AccessPlan) (bool, error) { return true, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := LoadState(w.StatePath)
	if len(st.Access) != 2 || st.Access[0].Date != "2026-10-10" || st.Access[1].Status != "verifie" {
		t.Fatalf("records: %+v", st.Access)
	}
	if fi, _ := os.Stat(w.StatePath); fi.Mode().Perm() != 0o600 {
		t.Fatalf("state mode %v", fi.Mode())
	}
}

func TestCheckAccessDate(t *testing.T) {
	session, today := testenv.Day(testenv.SessionDay), testenv.Day("2026-11-10")
	if _, err := CheckAccessDate(testenv.Day("2026-11-11"), today, session); err == nil {
		t.Error("future date accepted")
	}
	if w, err := CheckAccessDate(testenv.Day(testenv.SessionDay), today, session); err != nil || w == "" {
		t.Error("session day: want a warning")
	}
	if w, err := CheckAccessDate(testenv.Day("2026-11-04"), today, session); err != nil || w != "" {
		t.Error("day before: want nothing")
	}
}

func TestCheckPassphrase(t *testing.T) {
	for p, ok := range map[string]bool{"": false, "        ": false, "\t \t \t \t ": false, "1234567": false, "12345678": true, "éééééééé": true, "ééé": false} {
		if (CheckPassphrase(p) == nil) != ok {
			t.Errorf("%q: ok=%v", p, !ok)
		}
	}
}

// TestWizardKeepsWhatWasTyped: no path of the wizard loses an answer.
// The folder question refuses the key's folder, a folder below it, a
// file, and asks again with the date typed kept; "Non" to replacing a
// hand-edited acces.md still records the declaration and offers to
// change only its date line (yes: that line alone changes; no: the file
// stays byte for byte and the last screen says how to write it); the
// next run shows the recorded declaration and offers it by default.
func TestWizardKeepsWhatWasTyped(t *testing.T) {
	typed := []answer{{kind: "select", text: AnswerRequested}, {kind: "input", text: "12/10/2026"}}
	t.Run("folder refused, asked again", func(t *testing.T) {
		dir := t.TempDir()
		envoi := filepath.Join(dir, "envoi")
		os.Mkdir(envoi, 0o755)
		os.WriteFile(filepath.Join(dir, "un-fichier"), nil, 0o644)
		w, out, p := keyedWizard(t, dir, append(typed,
			answer{kind: "select", text: "Non, choisir un autre dossier"},
			answer{kind: "input", text: filepath.Join(dir, ".ssh")},
			answer{kind: "input", text: filepath.Join(dir, ".ssh", "sous")},
			answer{kind: "input", text: filepath.Join(dir, "un-fichier")},
			answer{kind: "input", text: envoi},
			answer{kind: "select", enter: true}))
		os.Mkdir(filepath.Join(w.Store.Dir, "sous"), 0o700)
		if err := w.Run(); err != nil || len(p.answers) != 0 {
			t.Fatalf("Run: %v, unanswered %v\n%s", err, p.answers, out)
		}
		for _, want := range []string{filepath.Join(dir, ".ssh") + " : c'est le dossier de la clé SSH",
			filepath.Join(dir, ".ssh", "sous") + " : c'est le dossier de la clé SSH", "c'est un fichier, pas un dossier"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%q not said:\n%s", want, out)
			}
		}
		written, _ := os.ReadFile(filepath.Join(envoi, "acces.md"))
		st, _ := LoadState(w.StatePath)
		if !bytes.Contains(written, []byte("Date de la demande du compte d'accès : 2026-10-12")) || st.Last() == nil || st.Last().Date != "2026-10-12" || st.File != filepath.Join(envoi, "acces.md") {
			t.Fatalf("the date typed is lost:\n%s\n%+v", written, st)
		}
		entries, _ := os.ReadDir(w.Store.Dir)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), "id_ed25519_romeo") && e.Name() != "sous" {
				t.Errorf("written in the key folder: %s", e.Name())
			}
		}
	})
	hand := "# Mon accès\r\n\r\nDemandé le 1er octobre 2026 (à la main).\r\nNote à garder.\r\n"
	for _, dateLine := range []string{"Oui", "Non"} {
		t.Run("Non, then date line "+dateLine, func(t *testing.T) {
			dir := t.TempDir()
			w, out, p := keyedWizard(t, dir, append(typed,
				answer{kind: "select", enter: true}, // write here
				answer{kind: "select", enter: true}, // replace? Non, the default
				answer{kind: "select", text: dateLine}))
			os.WriteFile(w.File, []byte(hand), 0o644)
			if err := w.Run(); err != nil || len(p.answers) != 0 {
				t.Fatalf("Run: %v, unanswered %v\n%s", err, p.answers, out)
			}
			if d := p.calls[len(p.calls)-1]; d.message != "Changer seulement la ligne de la date ?" || d.def != "Oui" {
				t.Fatalf("date line question: %+v", d)
			}
			screen := out.String()
			for _, want := range []string{"-Demandé le 1er octobre 2026 (à la main).", "+Date de la demande du compte d'accès : 2026-10-12", "Déclaration notée dans"} {
				if !strings.Contains(screen, want) {
					t.Errorf("%q not said:\n%s", want, screen)
				}
			}
			st, _ := LoadState(w.StatePath)
			if st.Last() == nil || st.Last().Date != "2026-10-12" || st.Last().Status != StatusRequested {
				t.Fatalf("the declaration is not recorded: %+v", st)
			}
			now, _ := os.ReadFile(w.File)
			want := hand
			if dateLine == "Oui" {
				want = strings.Replace(hand, "Demandé le 1er octobre 2026 (à la main).", "Date de la demande du compte d'accès : 2026-10-12", 1)
			}
			if string(now) != want {
				t.Fatalf("acces.md:\n%q\nwant\n%q", now, want)
			}
			if stale := strings.Contains(screen, "pret acces --statut demande --date 2026-10-12 --force"); stale != (dateLine == "Non") {
				t.Errorf("last screen (stale %v):\n%s", stale, screen)
			}

			// The next run starts from what was recorded.
			// Enter everywhere: the account, the date, the place, "Non" to
			// replacing; the date line is offered again while it is stale.
			again := []answer{{kind: "select", enter: true}, {kind: "input"}, {kind: "select", enter: true}, {kind: "select", enter: true}}
			if dateLine == "Non" {
				again = append(again, answer{kind: "select", text: "Non"})
			}
			w2, out2, p2 := newWizard(t, dir, again)
			if err := w2.Run(); err != nil || len(p2.answers) != 0 {
				t.Fatalf("second run: %v, unanswered %v\n%s", err, p2.answers, out2)
			}
			if !strings.Contains(out2.String(), "Demande du compte notée le 12 octobre 2026.") || p2.calls[0].def != AnswerRequested || p2.calls[1].def != "2026-10-12" {
				t.Fatalf("the record is not the default: %+v\n%s", p2.calls, out2)
			}
		})
	}
}

// TestDateLineNeverOverwritesAnEdit: a file edited while the learner
// answered the date line question is not written over with its old
// text; the declaration is recorded all the same.
func TestDateLineNeverOverwritesAnEdit(t *testing.T) {
	dir := t.TempDir()
	w, _, _ := keyedWizard(t, dir, nil)
	os.WriteFile(w.File, []byte("Demandé le 1er octobre 2026.\n"), 0o644)
	edited := []byte("Demandé le 1er octobre 2026.\nAjouté pendant la question.\n")
	_, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day("2026-10-12")},
		Replace: func(*AccessPlan) (bool, error) { return false, nil },
		ReplaceDate: func(p *AccessPlan) (bool, error) {
			os.WriteFile(w.File, edited, 0o644)
			return p.DateOnly != nil, nil
		}})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "a changé pendant la question") {
		t.Fatalf("got %v", err)
	}
	if now, _ := os.ReadFile(w.File); !bytes.Equal(now, edited) {
		t.Fatalf("the edit was lost:\n%s", now)
	}
	if st, _ := LoadState(w.StatePath); st.Last() == nil || st.Last().Date != "2026-10-12" {
		t.Fatalf("not recorded: %+v", st)
	}
}

// TestWizardRefusesBrokenSettingsFirst: what acces.md needs besides the
// answers (a .pub that is the key's, a template that renders one pret
// valider accepts) is checked before the first question, so that no date
// typed is lost to it; the fake prompter fails on any question.
func TestWizardRefusesBrokenSettingsFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	for name, spoil := range map[string]func(w *Wizard){
		"another .pub": func(w *Wizard) {
			_, pub, _ := keys.Generate(rand.Reader, "autre", []byte(goodPass))
			os.WriteFile(w.Store.PublicPath(), pub, 0o644)
		},
		"template that fails":   func(w *Wizard) { w.Template = "{{.Inconnu}}" },
		"template pret refuses": func(w *Wizard) { w.Template = "Date de la demande : {{.Date}}\n" },
		// Renders for a request; breaks only once the account is open.
		"template that fails when verified": func(w *Wizard) {
			w.Template = "- {{.LibelleDate}} : {{.Date}}\n- Chemin de la clé publique : `{{.ClePublique}}`\n- Empreinte et type : `{{.Empreinte}}`\n\n> {{.Phrase}}\n{{if eq .Statut \"verifie\"}}{{.Inconnu}}{{end}}"
		},
	} {
		t.Run(name, func(t *testing.T) {
			w, out, p := keyedWizard(t, t.TempDir(), nil)
			spoil(w)
			var e *Error
			if err := w.Run(); !errors.As(err, &e) || len(p.asked) != 0 {
				t.Fatalf("got %v after %v\n%s", err, p.asked, out)
			}
			if name == "template pret refuses" {
				// The validator's own sentences, each with its code.
				if !strings.Contains(e.Msg, "[missing-sentence]") || !strings.Contains(e.Msg, "phrase") || strings.Contains(e.Msg, "()") {
					t.Errorf("not said in French: %s", e.Msg)
				}
			}
		})
	}
}

// TestDateLineOfASignedFile: a signed, hand-edited acces.md that states
// another date is said to lose its signature before its date line
// changes; once changed, its block is gone (it would no longer hold) and
// every other line is the learner's.
func TestDateLineOfASignedFile(t *testing.T) {
	dir := t.TempDir()
	w, _, _ := keyedWizard(t, dir, nil)
	priv, _ := os.ReadFile(w.Store.PrivatePath())
	signer, wipe, err := keys.Decrypt(priv, []byte(goodPass))
	if err != nil {
		t.Fatal(err)
	}
	hand := "# À moi\n\nDemandé le 1er octobre 2026.\nNote.\n"
	signed, err := signing.SignFile(rand.Reader, signer, []byte(hand))
	wipe()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(w.File, signed, 0o644)
	var out bytes.Buffer
	p := &fakePrompter{t: t, answers: []answer{{kind: "select", text: "Non"}, {kind: "select", enter: true}}}
	o, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day("2026-10-12")},
		Replace: AskReplace(p, &out, false), ReplaceDate: AskDateLine(p, &out, false)})
	if err != nil || !o.DateOnly {
		t.Fatalf("%+v %v\n%s", o, err, &out)
	}
	if !strings.Contains(out.String(), "ce fichier est signé ; changer sa date lui retire sa signature") {
		t.Errorf("the signature's loss is not said:\n%s", &out)
	}
	// The paragraph's line stays a paragraph's line: no list marker added.
	want := strings.Replace(hand, "Demandé le 1er octobre 2026.", "Date de la demande du compte d'accès : 2026-10-12", 1)
	if now, _ := os.ReadFile(w.File); string(now) != want {
		t.Fatalf("acces.md:\n%s", now)
	}
}

// unwritableDir is a folder that exists and that pret cannot write in,
// even as root: /proc on Linux; elsewhere a folder without write rights
// (which root would ignore).
func unwritableDir(t *testing.T) string {
	if runtime.GOOS == "linux" {
		return "/proc"
	}
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("no folder here that refuses writing to this user")
	}
	d := t.TempDir()
	os.Chmod(d, 0o500)
	t.Cleanup(func() { os.Chmod(d, 0o700) })
	return d
}

// TestWizardAsksAgainWhenWritingFails: a folder that passes every check
// but where writing acces.md fails (its rights, a read-only disk) does
// not end the wizard: the failure is said, the declaration is already
// noted, and the folder is asked again; acces.md then goes where the
// learner says, with the date typed at first.
func TestWizardAsksAgainWhenWritingFails(t *testing.T) {
	dir := t.TempDir()
	bad := unwritableDir(t)
	envoi := filepath.Join(dir, "envoi")
	os.Mkdir(envoi, 0o755)
	w, out, p := keyedWizard(t, dir, []answer{{kind: "select", text: AnswerRequested}, {kind: "input", text: "12/10/2026"},
		{kind: "select", text: "Non, choisir un autre dossier"},
		{kind: "input", text: bad},
		{kind: "select", enter: true}, // write there: it fails
		{kind: "input", text: envoi},
		{kind: "select", enter: true}})
	if err := w.Run(); err != nil || len(p.answers) != 0 {
		t.Fatalf("Run: %v, unanswered %v\n%s", err, p.answers, out)
	}
	for _, want := range []string{filepath.Join(bad, "acces.md") + " non écrit", "pret n'a pas pu y écrire acces.md"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("%q not said:\n%s", want, out)
		}
	}
	written, _ := os.ReadFile(filepath.Join(envoi, "acces.md"))
	st, _ := LoadState(w.StatePath)
	if !bytes.Contains(written, []byte("Date de la demande du compte d'accès : 2026-10-12")) || st.Last() == nil || st.Last().Date != "2026-10-12" ||
		len(st.Access) != 1 || st.File != filepath.Join(envoi, "acces.md") {
		t.Fatalf("the date typed is lost:\n%s\n%+v", written, st)
	}
}

// TestLateDateSaidAtOnce: a date on the session day is warned of as soon
// as it is understood, before the questions of acces.md, and once
// (outside tester: it came after them, and never after a Ctrl-C there).
func TestLateDateSaidAtOnce(t *testing.T) {
	const warning = "Attention : la date 2026-11-05 tombe le jour de la séance (2026-11-05) ou après"
	for _, last := range []answer{{kind: "select", err: ErrInterrupted}, {kind: "select", text: "Oui"}} {
		w, out, _ := keyedWizard(t, t.TempDir(), []answer{{kind: "select", text: AnswerRequested}, {kind: "input"}, last})
		w.Today = w.Session.Day
		err := w.Run()
		if errors.Is(err, ErrInterrupted) != (last.err != nil) || strings.Count(out.String(), warning) != 1 {
			t.Fatalf("%v: %v\n%s", last, err, out)
		}
	}
}
