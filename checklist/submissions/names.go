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
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/textfold"
)

// IsSubmissionName reports whether a file met in a folder or an archive
// is a submission: its folded name ends with the word "acces", maybe a
// copy mark, then ".md" ("acces (1).md"; not "mesacces.md", "acces.md.bak",
// nor a Mac's AppleDouble "._acces.md").
func IsSubmissionName(name string) bool {
	if strings.HasPrefix(name, "._") {
		return false
	}
	stem, md := strings.CutSuffix(textfold.Fold(name), ".md")
	stem, _ = trimCopyMark(stem)
	base, acces := strings.CutSuffix(stem, "acces")
	return md && acces && (base == "" || strings.ContainsRune(" _-.", rune(base[len(base)-1])))
}

// trimCopyMark cuts one copy mark, as platforms and browsers add, at the
// end of a folded stem: " (1)" up to " (999999)", "-1", "_2", " 3". n is
// the mark's number, which platforms, browsers and file managers count up
// ("acces (2).md", "acces-2.md": the higher, the later copy), 0 for none.
func trimCopyMark(s string) (stem string, n int) {
	if rest, ok := strings.CutSuffix(s, ")"); ok {
		if i := strings.LastIndexByte(rest, '('); i >= 0 && len(rest)-i <= 7 && dates.Digits(rest[i+1:]) {
			n, _ = strconv.Atoi(rest[i+1:])
			return strings.TrimRight(rest[:i], " "), n
		}
	}
	if t := strings.TrimRight(s, "0123456789"); len(t) < len(s) && t != "" && strings.ContainsRune("-_ ", rune(t[len(t)-1])) {
		n, _ = strconv.Atoi(s[len(t):])
		return t[:len(t)-1], n
	}
	return s, 0
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

// sameLearner is a Moodle learner whatever the download spelled: the name
// in NFC (a Mac's unzip writes NFD), the number by its value ("_0101").
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

// level is where the learners' folders are below the place read: skip
// folders are containers (an archive's top folder, Classroom's
// "ASSIGNMENT-submissions"), and the next one is the learner's, named
// without prefix, the assignment's (Classroom's "ASSIGNMENT-").
type level struct {
	skip   int
	prefix string
	holder string // in an archive, the name of the folder holding the learners'
}

// learnerAt names who handed a file in. outer are the names above the
// place the walk reads from, parts the folders below it then the file
// name. The outermost Moodle name is the learner, never a name she chose
// inside her folder; moodle is it with its id. Outside Moodle, the first
// folder below the learners' level lv names the learner, else fallback;
// depth is how many parts make her folder, 0 when the file is in none.
func learnerAt(outer, parts []string, lv level, fallback string) (learner, moodle string, depth int) {
	for _, list := range [][]string{outer, parts} {
		for _, p := range list {
			if l, k, ok := moodleLearner(p); ok {
				learner, moodle = sameLearner(l, k)
				return learner, moodle, 0
			}
		}
	}
	skip := lv.skip
	for i, p := range parts[:max(len(parts)-1, 0)] {
		if p == "" || p == "." || p == ".." {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		return loginOf(p, lv.prefix), "", i + 1
	}
	return fallback, "", 0
}

// classroomSuffix ends the folder "gh classroom clone student-repos"
// makes: "ASSIGNMENT-submissions", holding one "ASSIGNMENT-LOGIN" per student.
const classroomSuffix = "-submissions"

// isClassroomFolder reports whether a folder is Classroom's submissions folder.
func isClassroomFolder(name string) bool {
	return len(name) > len(classroomSuffix) && strings.HasSuffix(name, classroomSuffix)
}

// ignoredFolder is a folder that is nobody's: hidden (".git"), or the
// resource forks a Mac's zip adds; never "." or "..", which an entry's
// name may spell.
func ignoredFolder(name string) bool {
	return strings.HasPrefix(name, ".") && name != "." && name != ".." || name == "__MACOSX"
}

// ignoredPath reports whether the file name in the folders dirs is
// nobody's hand-in (organisateurs.md): in an ignoredFolder, or a Mac's
// AppleDouble "._name". It is still read for private keys (scan.go).
func ignoredPath(dirs []string, name string) bool {
	return strings.HasPrefix(name, "._") || slices.ContainsFunc(dirs, ignoredFolder)
}

// assignmentPrefix is what every learner's folder name starts with and is
// not hers: "ASSIGNMENT-" when the container is Classroom's
// "ASSIGNMENT-submissions", else the longest prefix ending with "-" that
// two folders or more all share; "" when there is none.
func assignmentPrefix(container string, folders []string) string {
	prefix := ""
	if isClassroomFolder(container) {
		prefix = strings.TrimSuffix(container, classroomSuffix) + "-"
	} else if len(folders) >= 2 {
		prefix = folders[0]
		for _, f := range folders[1:] {
			n := 0
			for n < len(prefix) && n < len(f) && prefix[n] == f[n] {
				n++
			}
			prefix = prefix[:n]
		}
		prefix = prefix[:strings.LastIndexByte(prefix, '-')+1]
	}
	for _, f := range folders {
		if len(f) <= len(prefix) || !strings.HasPrefix(f, prefix) {
			return ""
		}
	}
	return prefix
}

// isRepo reports whether the learners' folders at lv, held by the folder
// named container, are Classroom repositories, each one student's: in
// "ASSIGNMENT-submissions", or siblings sharing the assignment's prefix.
func isRepo(container string, lv level) bool {
	return isClassroomFolder(container) || lv.prefix != ""
}

// loginOf is a learner's folder name without the assignment's prefix:
// "acces-romeo-alice42" is "alice42".
func loginOf(folder, prefix string) string {
	if login, ok := strings.CutPrefix(folder, prefix); ok && login != "" {
		return login
	}
	return folder
}

// ruleName is the name a file on disk is judged by: itself when UTF-8,
// else its Latin-1 reading ("Acc\xe8s.md" of an old system), not skipped
// unsaid. Its bytes still open it.
func ruleName(name string) string { return decoded(name, charmap.ISO8859_1) }

// entryName is the name of an archive entry: without the UTF-8 flag, CP437
// (the zip format's own, Windows' "compressed folder"), unless it is valid
// UTF-8, as many tools write without saying so.
func entryName(name string, flags uint16) string {
	if flags&0x800 != 0 {
		return name
	}
	return decoded(name, charmap.CodePage437)
}

// decoded is name, or when it is not UTF-8 its reading in cm (which
// decodes every byte).
func decoded(name string, cm *charmap.Charmap) string {
	if !utf8.ValidString(name) {
		name, _ = cm.NewDecoder().String(name)
	}
	return name
}

// pubKey is who a .pub or a submission belongs to by its Moodle name
// ("Dupont Alice_1", "" none), and the name Moodle started from.
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

// pubPairs are, among the .pub files of one folder, each learner's by
// Moodle name and id ("" none): keyName preferred, else the first by
// name. A submission is paired with the .pub of its own Moodle name only:
// a flat export holds every learner's .pub in one folder. In a learner's
// own Moodle folder every file is that learner's, whatever its name says.
type pubPairs struct {
	byKey      map[string]string
	oneLearner bool
}

func choosePubs[V any](names map[string]V, keyName, folder string) pubPairs {
	_, _, one := moodleLearner(folder)
	pairs := pubPairs{map[string]string{}, one}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		k, plain := pairs.key(n)
		old, ok := pairs.byKey[k]
		if _, oldPlain := pairs.key(old); !ok || plain == keyName && oldPlain != keyName {
			pairs.byKey[k] = n
		}
	}
	return pairs
}

func (p pubPairs) key(name string) (key, plain string) {
	key, plain = pubKey(name)
	if p.oneLearner {
		key = ""
	}
	return key, plain
}

// pubFor is the .pub paired with the submission named name ("" none).
func (p pubPairs) pubFor(name string) string {
	k, _ := p.key(name)
	return p.byKey[k]
}
