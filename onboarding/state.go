package onboarding

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// Record is one access date the learner gave.
type Record struct {
	Status   string `yaml:"statut"` // "demande" or "verifie"
	Date     string `yaml:"date"`   // AAAA-MM-JJ
	Recorded string `yaml:"enregistre,omitempty"`
}

// Verified reports whether the account was checked open (not requested).
func (r Record) Verified() bool { return r.Status == StatusVerified }

const (
	StatusRequested = "demande"
	StatusVerified  = "verifie"
)

// State is the file $XDG_STATE_HOME/pret/etat.yaml. Every record is kept:
// a learner who first asked, then checked the account open, has both.
type State struct {
	Access []Record `yaml:"acces"`
}

// Last is the most recent record, or nil.
func (s *State) Last() *Record {
	if s == nil || len(s.Access) == 0 {
		return nil
	}
	return &s.Access[len(s.Access)-1]
}

// LoadState reads the state file; a missing file is an empty state.
func LoadState(path string) (*State, error) {
	// Not followed: pret writes this file itself, by rename, so a link
	// here was put by someone else.
	data, err := safefile.Read(path, safefile.State, safefile.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return &State{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("état illisible : %w", err)
	}
	var s State
	if err := yaml.Unmarshal(data, &s); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("état illisible (%s) : YAML invalide", path),
			Hint: "corrigez ce fichier ou déplacez-le, puis relancez « pret acces »"}
	}
	return &s, nil
}

// appendRecord adds r unless it repeats the last record.
func (s *State) appendRecord(r Record, now time.Time) bool {
	if last := s.Last(); last != nil && last.Status == r.Status && last.Date == r.Date {
		return false
	}
	r.Recorded = now.Format(time.RFC3339)
	s.Access = append(s.Access, r)
	return true
}

func saveState(path string, s *State) error {
	data, err := yaml.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return keys.WriteReplace(path, data, 0o600)
}
