package submissions

import (
	"slices"
	"strings"

	"github.com/romeo-pret/pret/internal/termtext"
)

// receipt is what one learner handed in at one place (her folder, or
// her files in a flat Moodle export), for her no-acces-md.
type receipt struct {
	path, entry     string // where: her folder, or her first file; entry as in item
	learner, moodle string
	key             string   // moodle, or for a learner's folder outside Moodle its path
	container       string   // outside Moodle, the folder that holds hers
	classroom       bool     // that folder is Classroom's: every repository is a student
	repo            bool     // her folder is a Classroom repository: one student, never split
	names           []string // the first maxNamed names received
	n               int      // how many were received
	found           bool     // a submission of hers is read
	online          bool     // her folder is Moodle's online text's
}

// maxNamed bounds the names a no-acces-md result lists.
const maxNamed = 4

// add notes the file name, received in her online text's folder if online.
func (r *receipt) add(name string, online bool) {
	if name = shownName(name); online {
		name = "texte en ligne (" + name + ")"
	}
	if strings.HasPrefix(name, "texte en ligne (") && slices.Contains(r.names, name) {
		return // a picture of her online text, met as a file and in the page (receivedOnline)
	}
	r.n++
	if len(r.names) < maxNamed {
		r.names = append(r.names, name)
	}
}

// merge adds what o received to r: one learner's places make one result.
func (r *receipt) merge(o *receipt) {
	r.names = append(r.names, o.names[:min(len(o.names), maxNamed-len(r.names))]...)
	r.n += o.n
}

// isOnlineText reports whether a Moodle folder name is the online text's.
func isOnlineText(name string) bool {
	_, key, ok := moodleLearner(name)
	return ok && strings.HasPrefix(name[len(key):], moodleMark+"onlinetext")
}

// folderKey is the receipt key of a learner's folder outside Moodle.
func folderKey(path string) string { return "d:" + path }

// receipts are one folder's or archive's, by key (receipt.key), in order.
type receipts struct {
	byKey map[string]*receipt
	order []*receipt
}

// at is the receipt of the learner moodle, made at path if new.
func (rs *receipts) at(moodle, learner, path string) *receipt {
	return rs.atKey(moodle, &receipt{path: path, learner: learner, moodle: moodle, key: moodle})
}

// atKey is the receipt of key, r if new.
func (rs *receipts) atKey(key string, r *receipt) *receipt {
	if old := rs.byKey[key]; old != nil {
		return old
	}
	if rs.byKey == nil {
		rs.byKey = map[string]*receipt{}
	}
	rs.byKey[key] = r
	rs.order = append(rs.order, r)
	return r
}

// unfound are the receipts of learners none of whose files is read.
func (rs *receipts) unfound() []*receipt {
	return slices.DeleteFunc(rs.order, func(r *receipt) bool { return r.found })
}

// shownName is a received file without its Moodle prefix, online text said.
func shownName(name string) string {
	if _, key, ok := moodleLearner(name); ok {
		rest := name[len(key)+len(moodleMark):] // "file_acces.docx", "onlinetext_onlinetext.html"
		plugin, file, _ := strings.Cut(rest, "_")
		if file == "" {
			file = name
		}
		if plugin == "onlinetext" {
			return "texte en ligne (" + file + ")"
		}
		return file
	}
	return name
}

// missingMessage is the no-acces-md message for what r received.
func (r *receipt) missingMessage() string {
	const ask = " : pret lit un fichier texte nommé acces.md, ou un texte en ligne qui en reprend le texte (pas un document Word, OpenDocument ou PDF, ni une image)"
	if r.n == 0 {
		return "pas d'acces.md dans ce rendu, qui est vide" + ask
	}
	return "pas d'acces.md dans ce rendu (" + listPaths(r.names, r.n) + " reçu" + termtext.Plural(r.n) + ")" + ask
}
