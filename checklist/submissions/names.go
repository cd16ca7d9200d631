// Package submissions finds the acces.md files organisers receive, as
// their platform hands them over: folders, GitHub Classroom clones,
// Moodle "download all submissions" archives read in place, files named on
// the command line. It names the learner of each and validates them all
// in one run (organisateurs.md).
package submissions

import (
	"maps"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/textfold"
)

// IsSubmissionName reports whether a file met in a folder or an archive
// is a submission: its folded name ends with "acces.md", optionally with
// the copy marks platforms add before ".md" (" (1)", "-1", "_2"), and
// "acces" is a whole word of the name. So "Dupont Alice_12_assignsubmission_file_acces.md"
// and "acces (1).md" are read, "mesacces.md" and "acces.md.bak" are not.
func IsSubmissionName(name string) bool {
	stem, md := strings.CutSuffix(textfold.Fold(name), ".md")
	base, acces := strings.CutSuffix(trimCopyMark(stem), "acces")
	return md && acces && (base == "" || strings.ContainsRune(" _-.", rune(base[len(base)-1])))
}

// trimCopyMark cuts one copy mark at the end of a folded stem: " (1)" up
// to " (999999)", "-1", "_2", " 3". Platforms and browsers add one; a
// second download of a second download adds no more than that.
func trimCopyMark(s string) string {
	if rest, ok := strings.CutSuffix(s, ")"); ok {
		if i := strings.LastIndexByte(rest, '('); i >= 0 && len(rest)-i <= 7 && dates.Digits(rest[i+1:]) {
			return strings.TrimRight(rest[:i], " ")
		}
	}
	if t := strings.TrimRight(s, "0123456789"); len(t) < len(s) && t != "" && strings.ContainsRune("-_ ", rune(t[len(t)-1])) {
		return t[:len(t)-1]
	}
	return s
}

// IsArchiveName reports whether a file is read as a .zip archive.
func IsArchiveName(name string) bool {
	return strings.EqualFold(path.Ext(name), ".zip")
}

// moodleMark is what Moodle writes between a learner's name and the file:
// "Dupont Alice_123456_assignsubmission_file_acces.md".
const moodleMark = "_assignsubmission_"

// moodleLearner returns the learner's name from a Moodle file or folder
// name ("Dupont Alice"), and the name with its id ("Dupont Alice_123456")
// that tells two namesakes apart; ok is false for other names.
func moodleLearner(name string) (learner, key string, ok bool) {
	i := strings.Index(name, moodleMark)
	if i <= 0 {
		return "", "", false
	}
	j := strings.LastIndexByte(name[:i], '_')
	if j <= 0 || !dates.Digits(name[j+1:i]) {
		return "", "", false
	}
	return name[:j], name[:i], true
}

// sameLearner is a Moodle learner as one person whatever the download
// spelled: the name in NFC (a Mac's unzip writes NFD) and the number by
// its value ("_0101" is "_101", as in the worksheet).
func sameLearner(learner, key string) (string, string) {
	id := strings.TrimLeft(key[len(learner)+1:], "0")
	if id == "" {
		id = "0"
	}
	if nfc := norm.NFC.String(learner); nfc != learner || id != key[len(learner)+1:] {
		return nfc, nfc + "_" + id
	}
	return learner, key // as spelled: it shares the bytes of the path
}

// learnerOf names who handed a file in. outer are the names above the
// place the walk reads from, parts the folders below it then the file
// name. The outermost Moodle name among them all is the learner: the
// platform's folder, never a name the learner chose inside it (a file
// "Martin Bob_456_assignsubmission_file_acces.md" in Alice's folder is
// Alice's). moodle is that name with its id, which tells learners apart
// when a flat export puts every file in one folder. Outside Moodle, the
// first folder below the argument names the learner, else fallback.
func learnerOf(outer, parts []string, fallback string) (learner, moodle string) {
	for _, list := range [][]string{outer, parts} {
		for _, p := range list {
			if l, k, ok := moodleLearner(p); ok {
				return sameLearner(l, k)
			}
		}
	}
	for _, p := range parts[:max(len(parts)-1, 0)] {
		if p != "" && p != "." && p != ".." {
			return p, ""
		}
	}
	return fallback, ""
}

// ruleName is the name a file on disk is judged by: itself when it is
// UTF-8, else its Latin-1 reading, so that "Acc\xe8s.md" written by an
// old system is read, not skipped unsaid. Its bytes still open it.
func ruleName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	if s, err := charmap.ISO8859_1.NewDecoder().String(name); err == nil {
		return s
	}
	return name
}

// entryName is the name of an archive entry: archivers that do not set
// the UTF-8 flag write names in CP437 (the zip format's own code page),
// as Windows' own "compressed folder" does. A name without the flag that
// is valid UTF-8 is kept: many tools write UTF-8 without saying so.
func entryName(name string, flags uint16) string {
	if flags&0x800 != 0 || utf8.ValidString(name) {
		return name
	}
	if s, err := charmap.CodePage437.NewDecoder().String(name); err == nil {
		return s
	}
	return name
}

// pubKey is who a public key file or a submission belongs to by its
// Moodle name ("Dupont Alice_1", "" when the name carries none), and the
// name Moodle started from ("id_ed25519_romeo.pub" in "Dupont
// Alice_1_assignsubmission_file_id_ed25519_romeo.pub").
func pubKey(name string) (key, plain string) {
	_, key, ok := moodleLearner(name)
	if !ok {
		return "", name
	}
	rest := name[len(key)+len(moodleMark):] // "file_id_ed25519_romeo.pub"
	if i := strings.IndexByte(rest, '_'); i >= 0 {
		rest = rest[i+1:]
	}
	return key, rest
}

// pubPairs chooses, among the .pub files of one folder, each learner's:
// by Moodle name and id ("" for files that carry none), the configured
// name preferred (keyName, also behind a Moodle prefix), else the first
// in name order. A submission is paired with the .pub of its own Moodle
// name (pubFor), never with another learner's: a flat Moodle export
// holds every learner's .pub in one folder.
type pubPairs map[string]string

func choosePubs[V any](names map[string]V, keyName string) pubPairs {
	pairs := pubPairs{}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		k, plain := pubKey(n)
		old, ok := pairs[k]
		if _, oldPlain := pubKey(old); !ok || plain == keyName && oldPlain != keyName {
			pairs[k] = n
		}
	}
	return pairs
}

// pubFor is the .pub paired with the submission named name ("" none).
func (p pubPairs) pubFor(name string) string {
	k, _ := pubKey(name)
	return p[k]
}
