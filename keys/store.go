package keys

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Store is the learner's key pair, Dir/Name and Dir/Name.pub, through Files.
type Store struct {
	Dir, Name, Comment string
	Files              Files
	// SSHDir is the user's ~/.ssh: guarded as Dir is when the key is elsewhere.
	SSHDir string
}

// sshFiles are what OpenSSH reads in ~/.ssh: a key must not replace them.
var sshFiles = []string{"config", "known_hosts", "known_hosts2", "authorized_keys", "authorized_keys2", "environment", "rc"}

// CheckName refuses a key name that is not a plain file name of its own,
// compared without case (macOS and Windows see "Config" as "config").
func CheckName(name string) error {
	switch {
	case name == "", name == ".", name == "..", strings.ContainsAny(name, `/\`):
		return fmt.Errorf("nom de clé invalide (%s) : un nom de fichier seul est attendu", quoteName(name))
	case strings.HasSuffix(strings.ToLower(name), ".pub"):
		return fmt.Errorf("nom de clé refusé (%s) : .pub termine le nom de la clé publique ; la clé privée porte le même nom, sans .pub", quoteName(name))
	case slices.ContainsFunc(sshFiles, func(f string) bool { return strings.EqualFold(name, f) }):
		return fmt.Errorf("nom de clé refusé (%s) : OpenSSH lit ce fichier de ~/.ssh pour autre chose qu'une clé", quoteName(name))
	}
	return nil
}

// quoteName is « name », or Go's quoting when it holds what a terminal must not get raw.
func quoteName(name string) string {
	if q := strconv.Quote(name); q != `"`+name+`"` {
		return q
	}
	return "« " + name + " »"
}

func (s Store) PrivatePath() string { return filepath.Join(s.Dir, s.Name) }
func (s Store) PublicPath() string  { return s.PrivatePath() + ".pub" }

type Kind int

const (
	Absent    Kind = iota // neither file
	Present               // the private key, with or without its .pub
	OrphanPub             // a .pub alone: never make a new key beside it
)

type State struct {
	Kind    Kind
	Private *Private     // when Kind is Present
	Pub     *PublicEntry // when a readable .pub exists
	PubErr  error        // why an existing .pub could not be read
}

func (st *State) PubMatches() bool {
	return st.Private != nil && st.Private.Public != nil && st.Pub != nil &&
		bytes.Equal(st.Private.Public.Marshal(), st.Pub.Key.Marshal())
}

// Public is the key to show: the private key's public half, else the .pub.
func (st *State) Public() ssh.PublicKey {
	if st.Private != nil && st.Private.Public != nil {
		return st.Private.Public
	}
	if st.Pub != nil {
		return st.Pub.Key
	}
	return nil
}

// Inspect looks at the pair without changing it or asking the passphrase.
func (s Store) Inspect() (*State, error) {
	privExists, err := s.exists(s.PrivatePath())
	if err != nil {
		return nil, err
	}
	pubExists, err := s.exists(s.PublicPath())
	if err != nil {
		return nil, err
	}
	st := &State{}
	if pubExists {
		data, err := ReadFile(s.Files, s.PublicPath())
		var entries []PublicEntry
		if err == nil {
			entries, err = ParsePublic(data)
		}
		if st.PubErr = err; err == nil {
			st.Pub = &entries[0]
		}
	}
	switch {
	case !privExists && pubExists:
		st.Kind = OrphanPub
	case privExists:
		st.Kind = Present
		data, err := ReadFile(s.Files, s.PrivatePath())
		if err != nil {
			return nil, err
		}
		p, err := ParsePrivate(data)
		if err != nil {
			return nil, fmt.Errorf("%s : %w", s.PrivatePath(), err)
		}
		st.Private = p
	}
	return st, nil
}

// exists refuses a symbolic link outright.
func (s Store) exists(path string) (bool, error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, s.Files.Explain(path, err)
	case s.Files.IsLink(path, st):
		return false, fmt.Errorf("%s : %w", path, ErrSymlink)
	case !st.Mode().IsRegular():
		return false, fmt.Errorf("%s : ce n'est pas un fichier ordinaire", path)
	}
	return true, nil
}

var ErrAppeared = errors.New("la clé est apparue pendant la saisie ; elle est conservée")

// Create makes the pair, staged then linked into place, so a full disk or
// an interruption leaves nothing; ErrAppeared if a key exists under the lock.
func (s Store) Create(random io.Reader, passphrase []byte) (*State, error) {
	if err := cmp.Or(CheckName(s.Name), CheckComment(s.Comment)); err != nil {
		return nil, err
	}
	if err := EnsureDir(s.Files, s.Dir); err != nil {
		return nil, err
	}
	unlock, err := s.Files.LockDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := s.Inspect()
	if err != nil {
		return nil, err
	}
	if st.Kind != Absent {
		return st, ErrAppeared
	}
	priv, pub, err := Generate(random, s.Comment, passphrase)
	if err != nil {
		return nil, err
	}
	linkPriv, discardPriv, err := s.Files.Stage(s.PrivatePath(), priv, 0o600)
	clear(priv)
	if err != nil {
		return nil, err
	}
	defer discardPriv()
	linkPub, discardPub, err := s.Files.Stage(s.PublicPath(), pub, 0o644)
	if err != nil {
		return nil, err
	}
	defer discardPub()
	if err := marked(s.PrivatePath(), linkPriv()); err != nil {
		return nil, err
	}
	if err := marked(s.PublicPath(), linkPub()); err != nil {
		// Only we linked it, under the lock: the pair stays whole or absent.
		os.Remove(s.PrivatePath())
		return nil, err
	}
	if err := s.Files.SyncDir(s.Dir); err != nil {
		return nil, err
	}
	return s.Inspect()
}

// Leftovers are the staged files a killed run left in the key folder.
func (s Store) Leftovers() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, s.Files.Explain(s.Dir, err)
	}
	var found []string
	for _, e := range entries {
		staged := s.Files.Staged(s.PrivatePath(), e.Name()) || s.Files.Staged(s.PublicPath(), e.Name())
		p := filepath.Join(s.Dir, e.Name())
		st, err := os.Lstat(p)
		if staged && err == nil && st.Mode().IsRegular() && !s.Files.IsLink(p, st) && st.Size() <= MaxFileSize {
			found = append(found, p)
		}
	}
	return found, nil
}

// RemoveLeftovers removes them, looking again under the folder lock, where no live run owns one.
func (s Store) RemoveLeftovers() ([]string, error) {
	found, err := s.Leftovers()
	if err != nil || len(found) == 0 {
		return nil, err
	}
	unlock, err := s.Files.LockDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if found, err = s.Leftovers(); err != nil {
		return nil, err
	}
	for i, p := range found {
		if err := os.Remove(p); err != nil {
			return found[:i], s.Files.Explain(p, err)
		}
	}
	return found, nil
}

func (s Store) RebuildPub(st *State) (*State, error) {
	if err := CheckName(s.Name); err != nil {
		return nil, err
	}
	if st.Private == nil || st.Private.Public == nil {
		return nil, errors.New("la partie publique de la clé privée est illisible")
	}
	// A comment with a newline would write a second line.
	comment := st.Private.Comment
	if comment == "" || CheckComment(comment) != nil {
		comment = s.Comment
	}
	if CheckComment(comment) != nil {
		comment = ""
	}
	unlock, err := s.Files.LockDir(s.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	err = WriteNew(s.Files, s.PublicPath(), PublicLine(st.Private.Public, comment), 0o644)
	if err != nil && !errors.Is(err, ErrExists) {
		return nil, err
	}
	return s.Inspect()
}

// PermProblem is why OpenSSH would refuse the key, or how others could replace it, and the fix.
type PermProblem struct {
	Msg, Fix string
}
