package onboarding

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
)

// TestUnreadableStateNeverWritten: every kind of state file pret cannot
// use is reported with its path and left exactly as it was; with
// ForceState (pret acces --force) it is set aside whole, as
// etat.yaml.illisible-AAAAMMJJ, and a fresh state holds the record.
func TestUnreadableStateNeverWritten(t *testing.T) {
	kinds := map[string]func(path string) error{
		"not YAML": func(p string) error { return os.WriteFile(p, []byte("acces: [: :\n\t- x"), 0o600) },
		"wrong shape": func(p string) error {
			return os.WriteFile(p, []byte("acces: 5\n"), 0o600)
		},
		"two documents": func(p string) error {
			return os.WriteFile(p, []byte("acces: []\n---\nacces:\n  - statut: verifie\n    date: \"2026-10-05\"\n"), 0o600)
		},
		"a folder":  func(p string) error { return os.Mkdir(p, 0o700) },
		"a link":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"too large": func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte("#"), 1<<20+1), 0o600) },
		"not UTF-8 ": func(p string) error {
			return os.WriteFile(p, []byte("acces:\n  - statut: \xff\xfe\n    date: [\n"), 0o600)
		},
	}
	if runtime.GOOS != "windows" {
		kinds["a FIFO"] = mkfifo
		if os.Geteuid() != 0 {
			kinds["no permission"] = func(p string) error { return os.WriteFile(p, []byte("acces: []\n"), 0o000) }
		}
	}
	for name, make := range kinds {
		for _, force := range []bool{false, true} {
			t.Run(name+map[bool]string{true: "/force", false: ""}[force], func(t *testing.T) {
				dir := t.TempDir()
				w, _, _ := keyedWizard(t, dir, nil)
				os.MkdirAll(filepath.Dir(w.StatePath), 0o700)
				if err := make(w.StatePath); err != nil {
					t.Skip(err)
				}
				before, _ := os.Lstat(w.StatePath)
				var raw []byte
				if before.Mode().IsRegular() && before.Mode().Perm()&0o400 != 0 {
					raw, _ = os.ReadFile(w.StatePath) // never a FIFO: it would block
				}
				if _, err := LoadState(w.StatePath); err == nil {
					t.Fatal("read as a state")
				} else if se, ok := err.(*StateError); !ok || !strings.Contains(se.Error(), w.StatePath) {
					t.Fatalf("error without the path: %v", err)
				}
				out, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day(testenv.Today)}, ForceState: force})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(w.File); err != nil {
					t.Fatal("acces.md not written")
				}
				check := func(path string) {
					t.Helper()
					fi, err := os.Lstat(path)
					if err != nil || fi.Mode().Type() != before.Mode().Type() {
						t.Fatalf("%s: %v, type %v", path, err, fi)
					}
					if before.Mode().IsRegular() && fi.Mode().Perm()&0o400 != 0 {
						if now, _ := os.ReadFile(path); !bytes.Equal(now, raw) {
							t.Fatalf("%s changed", path)
						}
					}
				}
				if !force {
					if out.StateErr == nil || out.Noted {
						t.Fatalf("outcome %+v", out)
					}
					check(w.StatePath)
					return
				}
				want := w.StatePath + ".illisible-20261020"
				if out.StateCopy != want || out.StateErr != nil || !out.Noted {
					t.Fatalf("outcome %+v", out)
				}
				check(want)
				st, err := LoadState(w.StatePath)
				if err != nil || len(st.Access) != 1 || st.Access[0].Date != "2026-10-20" {
					t.Fatalf("fresh state: %+v %v", st, err)
				}
			})
		}
	}
}

// Last is the most recent record, or nil.
func (s *State) Last() *Record {
	if s == nil || len(s.Access) == 0 {
		return nil
	}
	return &s.Access[len(s.Access)-1]
}

// TestStateChangedDuringTheQuestions: the state a command read first only
// plans. A record is added to the file as it is when written: one another
// run added during the questions stays, and a file that became a link or
// unreadable meanwhile is left exactly as it is (outside tester, stop 36).
func TestStateChangedDuringTheQuestions(t *testing.T) {
	day := testenv.Day(testenv.Today)
	for _, c := range []struct {
		name   string
		change func(t *testing.T, w *Wizard, notes string)
	}{
		{"another run recorded", func(t *testing.T, w *Wizard, _ string) {
			if _, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusVerified, day}}); err != nil {
				t.Fatal(err)
			}
		}},
		{"made a link", func(t *testing.T, w *Wizard, notes string) {
			os.Remove(w.StatePath)
			if err := os.Symlink(notes, w.StatePath); err != nil {
				t.Skip(err)
			}
		}},
		{"made unreadable", func(t *testing.T, w *Wizard, _ string) {
			os.WriteFile(w.StatePath, []byte("acces: [ cassé\n"), 0o600)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w, _, _ := keyedWizard(t, dir, nil)
			notes := filepath.Join(dir, "notes.txt")
			os.WriteFile(notes, []byte("mes notes\n"), 0o600)
			if _, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, day.AddDate(0, 0, -2)}}); err != nil {
				t.Fatal(err)
			}
			stale, err := LoadState(w.StatePath)
			if err != nil {
				t.Fatal(err)
			}
			c.change(t, w, notes)
			before, _ := os.ReadFile(w.StatePath)
			out, err := RecordAccess(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, day.AddDate(0, 0, -1)}, State: stale,
				Replace: func(*AccessPlan) (bool, error) { return true, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := os.ReadFile(notes); string(n) != "mes notes\n" {
				t.Fatalf("written through the link: %q", n)
			}
			if c.name != "another run recorded" {
				if now, _ := os.ReadFile(w.StatePath); out.StateErr == nil || out.Noted || !bytes.Equal(now, before) {
					t.Fatalf("an unreadable state was written: %+v\n%s", out, now)
				}
				return
			}
			st, err := LoadState(w.StatePath)
			if err != nil || len(st.Access) != 3 || st.Access[1].Status != StatusVerified || st.Access[2].Date != day.AddDate(0, 0, -1).Format("2006-01-02") {
				t.Fatalf("a record was lost: %v %+v", err, st.Access)
			}
		})
	}
}

// TestMain lets the test binary play another pret adding records to the
// state (TestConcurrentRunsKeepEveryRecord).
func TestMain(m *testing.M) {
	if path := os.Getenv("PRET_TEST_STATE"); path != "" {
		os.Exit(addRecords(path, os.Getenv("PRET_TEST_WRITER")))
	}
	os.Exit(m.Run())
}

const recordsPerWriter = 10

// addRecords notes recordsPerWriter requests, each on a day of its own.
func addRecords(path, writer string) int {
	w, _ := strconv.Atoi(writer)
	for j := range recordsPerWriter {
		day := testenv.Day(testenv.Today).AddDate(0, 0, -(w*recordsPerWriter + j))
		r := &Recording{Settings: Settings{StatePath: path}, Declaration: Declaration{StatusRequested, day}}
		if err := r.note(&Outcome{}); err != nil {
			fmt.Println(err)
			return 1
		}
	}
	return 0
}

// TestConcurrentRunsKeepEveryRecord: runs started together take turns to
// read the state, add to it and replace it: no record is lost.
func TestConcurrentRunsKeepEveryRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pret", "etat.yaml")
	var cmds []*exec.Cmd
	for w := range 8 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PRET_TEST_STATE="+path, "PRET_TEST_WRITER="+strconv.Itoa(w))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Error(err)
		}
	}
	st, err := LoadState(path)
	if err != nil || len(st.Access) != 8*recordsPerWriter {
		t.Fatalf("%d records of %d kept (%v)", len(st.Access), 8*recordsPerWriter, err)
	}
}

// TestStateNeverWrittenThroughALink: a link put at the state's path after
// it was read is refused when it is written, and what it names is intact.
func TestStateNeverWrittenThroughALink(t *testing.T) {
	dir := t.TempDir()
	path, notes := filepath.Join(dir, "etat.yaml"), filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("mes notes\n"), 0o600)
	os.WriteFile(path, []byte("acces: []\n"), 0o600)
	st, err := LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := os.Symlink(notes, path); err != nil {
		t.Skip(err)
	}
	st.appendRecord(Record{Status: StatusRequested, Date: "2026-10-20"}, time.Now())
	if err := saveState(safefile.Protect(nil), path, st); err == nil {
		t.Error("written at a link")
	}
	if n, _ := os.ReadFile(notes); string(n) != "mes notes\n" {
		t.Fatalf("written through the link: %q", n)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
}

// TestStateBusy: a pret that keeps the state's lock past the wait is named
// in the error, which says what was written: nothing when the date was to
// be noted, the date alone when acces.md was next. The first wait is under
// the guard: a signal then waits for the date to be noted.
func TestStateBusy(t *testing.T) {
	for _, late := range []bool{false, true} {
		dir := t.TempDir()
		w, _, _ := keyedWizard(t, dir, nil)
		w.LockWait = 50 * time.Millisecond
		os.WriteFile(w.File, []byte("mes notes\n"), 0o644)
		os.MkdirAll(filepath.Dir(w.StatePath), 0o700)
		var unlock func()
		lock := func(*AccessPlan) (bool, error) {
			var err error
			unlock, err = safefile.LockDir(filepath.Dir(w.StatePath), -1)
			return true, err
		}
		if !late {
			lock(nil)
		}
		var busyInGuard bool
		guard := func(f func() error) error {
			err := f()
			busyInGuard = busyInGuard || errors.Is(err, safefile.ErrBusy)
			return err
		}
		_, err := RecordAccess(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day(testenv.Today)},
			State: &State{}, Replace: lock, Guard: guard})
		unlock()
		e, ok := err.(*Error)
		if !ok || !strings.Contains(e.Msg, "un autre pret écrit") || !strings.HasPrefix(e.Hint, "attendez") {
			t.Fatalf("%#v", err)
		}
		st, _ := LoadState(w.StatePath)
		if n, _ := os.ReadFile(w.File); string(n) != "mes notes\n" || late != (len(st.Access) == 1) || late != strings.HasPrefix(e.Msg, "déclaration notée") {
			t.Fatalf("late %v: %s, %+v, acces.md %q", late, e.Msg, st, n)
		}
		if !late && !busyInGuard {
			t.Fatal("the first wait is outside the guard: Ctrl-C there loses the date")
		}
	}
}

// lockAt takes the state's lock when the wizard asks msg.
type lockAt struct {
	Prompter
	msg  string
	lock func()
}

func (l lockAt) Select(message string, options []string, def int, help string) (int, error) {
	if message == l.msg {
		l.lock()
	}
	return l.Prompter.Select(message, options, def, help)
}

// TestWizardStateBusyLate: the wizard noted the date before its questions;
// a lock held from « Écrire acces.md à cet endroit ? » on says so.
func TestWizardStateBusyLate(t *testing.T) {
	w, out, p := keyedWizard(t, t.TempDir(), []answer{{kind: "select", text: AnswerRequested},
		{kind: "input", text: "19/10/2026"}, {kind: "select", enter: true}})
	w.LockWait = 50 * time.Millisecond
	unlock := func() {}
	w.P = lockAt{p, "Écrire acces.md à cet endroit ?", func() { unlock, _ = safefile.LockDir(filepath.Dir(w.StatePath), -1) }}
	err := w.Run()
	unlock()
	st, _ := LoadState(w.StatePath)
	if e, ok := err.(*Error); !ok || !strings.HasPrefix(e.Msg, "déclaration notée") || len(st.Access) != 1 {
		t.Fatalf("%#v, %+v\n%s", err, st, out)
	}
	if _, err := os.Lstat(w.File); err == nil {
		t.Fatal("acces.md written")
	}
}

// TestStateFullAfterTheDate: the date fits in the state, acces.md's path
// after it would not: the error says the date is noted, and a size hint.
func TestStateFullAfterTheDate(t *testing.T) {
	w, _, _ := keyedWizard(t, t.TempDir(), nil)
	d := Declaration{StatusRequested, testenv.Day(testenv.Today)}
	rec := Record{Status: d.Status, Date: d.Date.Format(dates.ISO), Recorded: time.Now().Format(time.RFC3339)}
	probe, _ := yaml.Marshal(&State{Access: []Record{rec}, Extra: map[string]any{"notes": ""}})
	notes, _ := yaml.Marshal(&State{Extra: map[string]any{"notes": strings.Repeat("a", int(safefile.State.Max)-len(probe)-5)}})
	os.MkdirAll(filepath.Dir(w.StatePath), 0o700)
	os.WriteFile(w.StatePath, notes, 0o600)
	_, err := RecordAccess(Recording{Settings: w.Settings, Declaration: d, State: &State{}})
	e, ok := err.(*Error)
	if !ok || !strings.HasPrefix(e.Msg, "déclaration notée") || !strings.Contains(e.Msg, "1 Mio") || strings.Contains(e.Hint, "droits") {
		t.Fatalf("%#v", err)
	}
	if st, _ := LoadState(w.StatePath); len(st.Access) != 1 || st.File != "" {
		t.Fatalf("%+v", st.Access)
	}
	if _, err := os.Lstat(w.File); err == nil {
		t.Fatal("acces.md written")
	}
}

// TestSetAsideNeverRenamesTheKey: a state folder swapped for a link to the
// key folder, or a state that is a hard link to the key, the key named
// etat.yaml, is refused when set aside.
func TestSetAsideNeverRenamesTheKey(t *testing.T) {
	for _, hard := range []bool{false, true} {
		dir := t.TempDir()
		ssh, state := filepath.Join(dir, ".ssh"), filepath.Join(dir, "state")
		os.Mkdir(ssh, 0o700)
		os.WriteFile(filepath.Join(ssh, "etat.yaml"), []byte("acces: 5\n"), 0o600)
		link := func() error { return os.Symlink(ssh, state) }
		if hard {
			os.Mkdir(state, 0o700)
			link = func() error { return os.Link(filepath.Join(ssh, "etat.yaml"), filepath.Join(state, "etat.yaml")) }
		}
		if err := link(); err != nil {
			t.Skip(err)
		}
		r := &Recording{Settings: Settings{StatePath: filepath.Join(state, "etat.yaml"), Store: keys.Store{Dir: ssh, Name: "etat.yaml"}},
			Declaration: Declaration{StatusRequested, testenv.Day(testenv.Today)}, ForceState: true}
		if err := r.note(&Outcome{}); err == nil || !strings.Contains(err.Error(), "clé SSH") {
			t.Errorf("hard link %v, set aside: %v", hard, err)
		}
		for _, name := range []string{filepath.Join(ssh, "etat.yaml"), r.StatePath} {
			if b, err := os.ReadFile(name); string(b) != "acces: 5\n" {
				t.Fatalf("hard link %v: %s renamed or written: %q %v", hard, name, b, err)
			}
		}
	}
}

// TestStateNeverOverTheReadLimit: a state pret could not read again is
// refused whole, nothing written.
func TestStateNeverOverTheReadLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "etat.yaml")
	st := &State{Extra: map[string]any{"notes": strings.Repeat("a", 1<<20)}}
	if err := saveState(safefile.Protect(nil), path, st); !errors.Is(err, safefile.ErrTooLarge) {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); err == nil {
		t.Fatal("written")
	}
}
