package acces

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// Target is one acces.md to validate, with the .pub found beside it.
type Target struct {
	Path string
	// Pub is the public key file in the same folder ("" when none): the
	// configured name when present, else the first in name order.
	Pub string
}

// TargetFor is the target of one file named by the person, with the
// .pub that sits in its folder. Folders and archives are walked by
// checklist/submissions; this serves the commands that read one file.
func TargetFor(path, keyName string) Target {
	t := Target{Path: path}
	if entries, err := os.ReadDir(filepath.Dir(path)); err == nil {
		if pub := ChoosePub(entries, keyName); pub != "" {
			t.Pub = filepath.Join(filepath.Dir(path), pub)
		}
	}
	return t
}

// ChoosePub picks the public key file of a folder: the configured name
// when present, else the first in name order.
func ChoosePub(entries []fs.DirEntry, keyName string) string {
	name := ""
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".pub") && e.Type().IsRegular() {
			if e.Name() == keyName {
				return keyName
			}
			if name == "" || e.Name() < name {
				name = e.Name()
			}
		}
	}
	return name
}

// ValidateFile reads one file within the size bound and validates it,
// with the .pub beside it. buf is reused between calls.
func ValidateFile(t Target, rules Rules, buf []byte) (checklist.FileResult, []byte) {
	res := checklist.FileResult{Path: t.Path}
	data, err := checklist.ReadInto(t.Path, MaxAccessSize, buf)
	switch {
	case errors.Is(err, checklist.ErrTooLarge):
		res.Problems = []checklist.Problem{{Code: "too-large", Severity: checklist.SevError, Message: "fichier trop grand (plus de 1 Mio) : un acces.md tient sur une page ; il n'a pas été lu"}}
		return res, buf
	case err != nil:
		res.Problems = []checklist.Problem{{Code: "unreadable", Severity: checklist.SevError, Message: "fichier illisible : " + checklist.Describe(err)}}
		return res, buf
	}
	if t.Pub != "" {
		pub, err := keys.ReadFile(safefile.KeyFiles{}, t.Pub)
		if err != nil {
			pub = nil // unreadable or too large: reported as a bad public key
		}
		rules.Beside = &PubFile{Name: filepath.Base(t.Pub), Data: pub}
	}
	r := Validate(data, rules)
	res.Problems, res.Fingerprint, res.Valid = r.Problems, r.Fingerprint, r.Valid()
	return res, data[:0]
}
