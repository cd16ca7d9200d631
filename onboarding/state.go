package onboarding

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys/leak"
)

// Record is one declaration the learner made about the account.
type Record struct {
	Status   string         `yaml:"statut"` // "demande" or "verifie"
	Date     string         `yaml:"date"`   // AAAA-MM-JJ
	Recorded string         `yaml:"enregistre,omitempty"`
	Extra    map[string]any `yaml:",inline"` // a newer pret's fields, kept on rewrite
}

func (r Record) Verified() bool { return r.Status == StatusVerified }

// Day is the record's date, and whether it is usable (known status, real day).
func (r Record) Day() (time.Time, bool) {
	if r.Status != StatusRequested && r.Status != StatusVerified {
		return time.Time{}, false
	}
	d, err := time.Parse(dates.ISO, r.Date)
	return d, err == nil
}

const (
	StatusRequested = "demande"
	StatusVerified  = "verifie"
)

// State is $XDG_STATE_HOME/pret/etat.yaml: every record, in order declared.
type State struct {
	Access []Record       `yaml:"acces"`
	File   string         `yaml:"fichier,omitempty"` // where acces.md was last written
	Extra  map[string]any `yaml:",inline"`
}

// Latest is the most recent usable record of status ("" for any).
func (s *State) Latest(status string) (Record, time.Time, bool) {
	for i := len(s.Access) - 1; i >= 0; i-- {
		r := s.Access[i]
		if d, ok := r.Day(); ok && (status == "" || r.Status == status) {
			return r, d, true
		}
	}
	return Record{}, time.Time{}, false
}

// StateError is a state file that cannot be used, replaced only by --force.
type StateError struct {
	Path   string
	Reason string // French
	Err    error  // the reader's error, when it is one
}

func (e *StateError) Unwrap() error { return e.Err }

func (e *StateError) Error() string {
	return fmt.Sprintf("fichier d'état illisible (%s) : %s", e.Path, e.Reason)
}

func (e *StateError) Hint() string {
	return "corrigez ou déplacez ce fichier ; « pret acces --force » le remplace en gardant une copie " + filepath.Base(e.Path) + ".illisible-AAAAMMJJ"
}

// LoadState reads the state file; its only error, *StateError, comes with an empty state.
func LoadState(path string) (*State, error) {
	// Not followed: pret writes it by rename, so a link is someone else's.
	data, err := safefile.Read(path, safefile.State, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return &State{}, nil
	}
	if err != nil {
		return &State{}, &StateError{Path: path, Reason: safefile.Reason(err), Err: err}
	}
	// The checklist quotes its values: one holding key material is not read.
	if lines := leak.Lines(string(data)); len(lines) > 0 {
		return &State{}, &StateError{Path: path, Reason: fmt.Sprintf("il contient une clé privée (ligne %d) : ce n'est pas un fichier de pret", lines[0])}
	}
	var s State
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err = dec.Decode(&s); err == nil {
		// A second document would be dropped by the next rewrite.
		if dec.Decode(new(yaml.Node)) != io.EOF {
			return &State{}, &StateError{Path: path, Reason: "il contient un second document YAML (après --- ou ...) : pret n'en écrit qu'un"}
		}
	} else if err != io.EOF { // empty: no record yet
		return &State{}, &StateError{Path: path, Reason: "ce n'est pas du YAML tel que pret l'écrit"}
	}
	return &s, nil
}

// appendRecord adds r unless it repeats the latest usable record.
func (s *State) appendRecord(r Record, now time.Time) bool {
	if last, _, ok := s.Latest(""); ok && last.Status == r.Status && last.Date == r.Date {
		return false
	}
	r.Recorded = now.Format(time.RFC3339)
	s.Access = append(s.Access, r)
	return true
}

// saveState never writes through a link, even one made since LoadState.
func saveState(guard safefile.Protected, path string, s *State) error {
	data, err := yaml.Marshal(s)
	if err != nil {
		return err
	}
	if int64(len(data)) > safefile.State.Max { // pret could never read it again
		return &safefile.Error{Path: path, Err: safefile.ErrTooLarge,
			Reason: "il dépasserait 1 Mio, plus que pret n'en lit"}
	}
	return guard.WriteOwn(path, data, 0o600)
}

// setAsideState moves an unreadable state to NAME.illisible-AAAAMMJJ[-N],
// never over a copy, and never a key's name (guard, at the rename).
func setAsideState(guard safefile.Protected, path string, today time.Time) (string, error) {
	base := filepath.Base(path) + ".illisible-" + today.Format("20060102")
	for i := 1; i < 1000; i++ {
		dst := base
		if i > 1 {
			dst = fmt.Sprintf("%s-%d", base, i)
		}
		if err := guard.Rename(path, dst); !errors.Is(err, safefile.ErrExists) {
			return filepath.Join(filepath.Dir(path), dst), err
		}
	}
	return "", errors.New("trop de copies d'un état illisible")
}
