package onboarding

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/testenv"
)

// rulePrompter answers by the question asked, so one script serves every
// recorded state: the account answer (a label, or "" for Enter), whether
// the request is done now, the date typed ("" for Enter), the answer to
// replacing acces.md: "oui", "date" (no, then yes to its date line
// only), "non" (no to both).
type rulePrompter struct {
	t         *testing.T
	account   string
	doneNow   bool
	date      string
	replace   string
	dateAsked bool
	calls     []call
}

func (r *rulePrompter) Password(message, help string) (string, error) {
	r.t.Fatalf("passphrase asked for a kept key: %q", message)
	return "", nil
}

func (r *rulePrompter) Select(message string, options []string, def int, help string) (int, error) {
	r.calls = append(r.calls, call{"select", message, options, options[def]})
	pick := func(label string) int {
		for i, o := range options {
			if o == label {
				return i
			}
		}
		r.t.Fatalf("%q does not offer %q: %v", message, label, options)
		return 0
	}
	switch {
	case message == AccountQuestion:
		if r.account == "" {
			return def, nil
		}
		return pick(r.account), nil
	case message == "La demande est-elle faite ?":
		return map[bool]int{true: 0, false: 1}[r.doneNow], nil
	case message == "Écrire acces.md à cet endroit ?":
		return 0, nil
	case strings.HasSuffix(message, "Le remplacer ?"):
		return map[bool]int{true: 0, false: 1}[r.replace == "oui"], nil
	case message == "Changer seulement la ligne de la date ?":
		r.dateAsked = true
		return map[bool]int{true: 0, false: 1}[r.replace == "date"], nil
	}
	r.t.Fatalf("unexpected question %q", message)
	return 0, nil
}

func (r *rulePrompter) Input(message, def, help string) (string, error) {
	r.calls = append(r.calls, call{kind: "input", message: message, def: def})
	if r.date == "" {
		return def, nil
	}
	return r.date, nil
}

var (
	keyOnce sync.Once
	keyDir  string
)

// sharedKey makes one key for every variant: creating one per run would
// spend the test's time in the key derivation.
func sharedKey(t *testing.T) string {
	keyOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pret-later-key-")
		if err != nil {
			t.Fatal(err)
		}
		w, _, _ := newWizard(t, dir, nil)
		if _, err := w.Store.Create(rand.Reader, []byte(goodPass)); err != nil {
			t.Fatal(err)
		}
		keyDir = w.Store.Dir
	})
	return keyDir
}

func copyDir(t *testing.T, from, to string) {
	os.MkdirAll(to, 0o700)
	entries, _ := os.ReadDir(from)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := e.Info()
		os.WriteFile(filepath.Join(to, e.Name()), b, fi.Mode().Perm())
	}
}

// TestLaterRuns runs the wizard over every recorded state × every answer ×
// every acces.md on disk, and checks the invariants of apprenant.md: the
// state after holds the state before (the history is never dropped; an
// unreadable file is not touched), a recorded answer is the default (never
// "not yet", never today's date in place of a recorded one), what was
// declared is recorded whatever becomes of acces.md, and acces.md states
// the latest declaration, or was kept byte for byte, or had only its date
// line changed when the learner kept a file that states another date.
func TestLaterRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	states := []struct {
		name string
		yaml string // "" no file; "DIR" a folder
	}{
		{"nothing", ""},
		{"requested", "acces:\n  - statut: demande\n    date: \"2026-10-10\"\n    enregistre: \"2026-10-10T09:00:00Z\"\n"},
		{"requested then open", "acces:\n  - statut: demande\n    date: \"2026-10-10\"\n  - statut: verifie\n    date: \"2026-10-15\"\n"},
		{"request corrected", "acces:\n  - statut: demande\n    date: \"2026-10-10\"\n  - statut: demande\n    date: \"2026-10-12\"\n"},
		{"open only", "acces:\n  - statut: verifie\n    date: \"2026-10-15\"\n"},
		{"unknown fields and a bad record", "version: 7\nacces:\n  - statut: demande\n    date: \"2026-10-10\"\n    note: gardée\n  - statut: bizarre\n    date: hier\n"},
		{"not YAML", "acces: [: :\n\t- x"},
		{"a folder", "DIR"},
	}
	answers := []struct {
		name    string
		account string
		doneNow bool
		date    string
	}{
		{"Enter everywhere", "", false, ""},
		{"not yet, done now", AnswerNotYet, true, ""},
		{"requested, Enter", AnswerRequested, false, ""},
		{"requested, typed", AnswerRequested, false, "12/10/2026"},
		{"open, Enter", AnswerOpen, false, ""},
		{"open, typed", AnswerOpen, false, "mardi 20 octobre 2026"},
		{"open, typed in words", AnswerOpen, false, "16 Octobre 2026"},
	}
	accesKinds := []string{"absent", "hand-written", "hand-written with a date", "from the recorded state"}
	today := testenv.Day("2026-10-20")
	runs := 0
	for _, st := range states {
		for _, ans := range answers {
			for _, kind := range accesKinds {
				for _, replace := range []string{"oui", "date", "non"} {
					if kind == "absent" && replace != "oui" {
						continue
					}
					name := fmt.Sprintf("%s/%s/%s/replace=%v", st.name, ans.name, kind, replace)
					t.Run(name, func(t *testing.T) {
						runs++
						laterRun(t, st.yaml, ans.account, ans.doneNow, ans.date, kind, replace, today)
					})
				}
			}
		}
	}
	if runs < 500 {
		t.Fatalf("only %d variants", runs)
	}
}

func laterRun(t *testing.T, stateYAML, account string, doneNow bool, date, accesKind, replace string, today time.Time) {
	dir := t.TempDir()
	w, out, _ := keyedWizard(t, dir, nil)
	rp := &rulePrompter{t: t, account: account, doneNow: doneNow, date: date, replace: replace}
	w.P = rp

	os.MkdirAll(filepath.Dir(w.StatePath), 0o700)
	switch stateYAML {
	case "":
	case "DIR":
		os.Mkdir(w.StatePath, 0o700)
	default:
		os.WriteFile(w.StatePath, []byte(stateYAML), 0o600)
	}
	before, loadErr := LoadState(w.StatePath)
	readable := loadErr == nil
	if stateYAML == "" || strings.HasPrefix(stateYAML, "acces:\n") || strings.HasPrefix(stateYAML, "version") {
		if !readable {
			t.Fatalf("state not read: %v", loadErr)
		}
	} else if readable {
		t.Fatal("an unreadable state was read")
	}
	if !readable {
		before = &State{}
	}
	rawBefore, _ := os.ReadFile(w.StatePath)
	rec, recDay, hasRecord := before.Latest("")

	// acces.md on disk before the run.
	var accesBefore []byte
	switch accesKind {
	case "hand-written":
		accesBefore = []byte("# Mon acces.md\r\nécrit à la main\r\n")
	case "hand-written with a date":
		accesBefore = []byte("# Mon acces.md\r\n\r\n| quoi | quand |\r\n| demandé | 1er octobre 2026 |\r\n\r\nNote à garder\r\n")
	case "from the recorded state":
		d := Declaration{StatusRequested, testenv.Day("2026-10-01")}
		if hasRecord {
			d = Declaration{rec.Status, recDay}
		}
		p, err := PlanAccess(w.Settings, d)
		if err != nil {
			t.Fatal(err)
		}
		accesBefore = p.Content
	}
	if accesBefore != nil {
		os.WriteFile(w.File, accesBefore, 0o644)
	}

	// What the learner declares, worked out from the script alone.
	var want *Declaration
	status := map[string]string{AnswerRequested: StatusRequested, AnswerOpen: StatusVerified}[account]
	switch {
	case account == "" && hasRecord:
		status = rec.Status
	case account == "" || account == AnswerNotYet:
		if hasRecord {
			// "not yet" is not offered once a request is on record: the
			// script answers it as Enter would.
			status = rec.Status
		} else if doneNow && account == AnswerNotYet {
			status = StatusRequested
		}
	}
	if account == AnswerNotYet && hasRecord {
		rp.account = ""
	}
	if status != "" {
		d := today
		if _, rd, ok := before.Latest(status); ok {
			d = rd
		}
		if date != "" {
			var err error
			if d, err = dates.Parse(date, dates.Context{Today: today, Session: w.Session.Day}); err != nil {
				t.Fatal(err)
			}
		}
		want = &Declaration{status, d}
	}

	same := false
	if want != nil && accesBefore != nil {
		p, err := PlanAccess(w.Settings, *want)
		if err != nil {
			t.Fatal(err)
		}
		same = bytes.Equal(p.Content, accesBefore)
	}

	if err := w.Run(); err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	screen := out.String()

	// The defaults: the recorded answer, the recorded date.
	for _, c := range rp.calls {
		switch {
		case c.message == AccountQuestion && hasRecord:
			if strings.Contains(strings.Join(c.options, "|"), AnswerNotYet) {
				t.Errorf("%q offered with a request on record", AnswerNotYet)
			}
			if wantDef := map[bool]string{true: AnswerOpen, false: AnswerRequested}[rec.Verified()]; c.def != wantDef {
				t.Errorf("account default %q, recorded %q", c.def, wantDef)
			}
			if !strings.Contains(screen, RecordedLine(before)) {
				t.Errorf("the record is not shown:\n%s", screen)
			}
		case c.message == AccountQuestion && c.def != AnswerNotYet:
			t.Errorf("default %q with nothing recorded", c.def)
		case c.kind == "input" && want != nil:
			if _, rd, ok := before.Latest(want.Status); ok && c.def != rd.Format(dates.ISO) {
				t.Errorf("date default %s, recorded %s", c.def, rd.Format(dates.ISO))
			}
		}
	}

	replaced := want != nil && (accesBefore == nil || replace == "oui" || same)
	// Kept, the file is offered its date line when it states another
	// declaration on a line the validator reads as its date; not the
	// file pret wrote, which differs by that line alone: its diff was the
	// question just answered.
	was := acces.Validate(accesBefore, acces.Rules{})
	stale := want != nil && (was.Date != want.Date.Format(dates.ISO) || was.Status != "" && was.Status != want.Status)
	offered := want != nil && !replaced && accesBefore != nil && stale && was.DateLine > 0 && accesKind != "from the recorded state"
	if rp.dateAsked != offered {
		t.Fatalf("date line offered: %v, want %v\n%s", rp.dateAsked, offered, out)
	}

	// The state after holds the state before.
	rawAfter, _ := os.ReadFile(w.StatePath)
	if !readable {
		if !bytes.Equal(rawAfter, rawBefore) {
			t.Fatal("an unreadable state file was changed")
		}
		if fi, err := os.Stat(w.StatePath); err != nil || (stateYAML == "DIR") != fi.IsDir() {
			t.Fatal("an unreadable state was replaced")
		}
		if want != nil && !strings.Contains(screen, "la déclaration n'est pas notée") && !strings.Contains(screen, "la déclaration n'a pas été notée") {
			t.Error("the lost declaration is not said")
		}
		if !strings.Contains(screen, w.StatePath) {
			t.Error("the unreadable state's path is not said")
		}
	} else {
		after, err := LoadState(w.StatePath)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Access) < len(before.Access) || len(before.Access) > 0 && !reflect.DeepEqual(after.Access[:len(before.Access)], before.Access) ||
			len(before.Extra) > 0 && !reflect.DeepEqual(after.Extra, before.Extra) {
			t.Fatalf("history dropped:\nbefore %+v\nafter  %+v", before, after)
		}
		if want != nil {
			r, d, ok := after.Latest("")
			if !ok || r.Status != want.Status || !d.Equal(want.Date) {
				t.Fatalf("latest record %+v, declared %+v", r, want)
			}
		} else if !bytes.Equal(rawAfter, rawBefore) {
			t.Fatal("state changed without a declaration")
		}
		// Keeping the recorded answer adds no record (the file may only
		// learn where acces.md is).
		if want != nil && hasRecord && rec.Status == want.Status && recDay.Equal(want.Date) && len(after.Access) != len(before.Access) {
			t.Fatal("Enter on the recorded answer added a record")
		}
		if want != nil && after.File != w.File {
			t.Fatalf("acces.md's place not recorded: %q", after.File)
		}
	}

	// acces.md states the latest declaration, or was left byte for byte.
	accesAfter, _ := os.ReadFile(w.File)
	switch {
	case want == nil:
		if !bytes.Equal(accesAfter, accesBefore) {
			t.Fatal("acces.md changed without a declaration")
		}
	case offered && replace == "date":
		b, a := bytes.Split(accesBefore, []byte("\n")), bytes.Split(accesAfter, []byte("\n"))
		for i := range b {
			if i < len(a) && (i == was.DateLine-1) != !bytes.Equal(a[i], b[i]) {
				t.Fatalf("line %d: %q became %q", i+1, b[i], a[i])
			}
		}
		now := acces.Validate(accesAfter, acces.Rules{})
		if len(a) != len(b) || now.Date != want.Date.Format(dates.ISO) || now.Status != want.Status ||
			!bytes.HasSuffix(a[was.DateLine-1], []byte("\r")) || !strings.Contains(screen, "seule la ligne de la date a changé") {
			t.Fatalf("not only the date line, or not the declaration:\n%s\n%s", accesAfter, screen)
		}
	case !replaced:
		if !bytes.Equal(accesAfter, accesBefore) {
			t.Fatal("acces.md changed after a no")
		}
		if stale != strings.Contains(screen, "Relisez-le d'abord") {
			t.Errorf("stale %v, but the last screen says otherwise:\n%s", stale, screen)
		}
	default:
		diffShown := strings.Contains(screen, "--- "+w.File+" (actuel)")
		if accesBefore != nil && !same && !diffShown {
			t.Errorf("replaced without a diff:\n%s", screen)
		}
		if same && (diffShown || !strings.Contains(screen, "est déjà à jour")) {
			t.Errorf("an identical acces.md was not left alone:\n%s", screen)
		}
		label := map[string]string{StatusRequested: "Date de la demande du compte d'accès : ", StatusVerified: "Date de la vérification du compte d'accès : "}[want.Status]
		if !bytes.Contains(accesAfter, []byte(label+want.Date.Format(dates.ISO))) {
			t.Fatalf("acces.md does not state %+v:\n%s", want, accesAfter)
		}
		res := acces.Validate(accesAfter, acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: w.Session.Day, Today: today})
		if len(res.Problems) != 0 {
			t.Errorf("acces.md has problems: %+v", res.Problems)
		}
	}
	if !strings.Contains(screen, "Et maintenant") || !strings.Contains(screen, "Il reste 16 jours") {
		t.Errorf("no last screen:\n%s", screen)
	}
}
