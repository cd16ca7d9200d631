package submissions

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/checklist/acces"
)

// isOnlineTextFile reports whether a file met in the walk is a learner's Moodle
// online text (« Texte en ligne »), read as her acces.md: an .html file in her
// online text's folder ("Nom Prénom_123_assignsubmission_onlinetext_/onlinetext.html"),
// or named after it in a flat export ("…_assignsubmission_onlinetext_onlinetext.html").
// inOnline says the walk is in that folder.
func isOnlineTextFile(name string, inOnline bool) bool {
	if !strings.EqualFold(filepath.Ext(name), ".html") {
		return false
	}
	return inOnline || isOnlineText(name)
}

// isOnlineTextEntry is isOnlineTextFile for an archive entry's name.
func isOnlineTextEntry(name string) bool {
	parts := entryParts(name)
	return len(parts) > 0 && isOnlineTextFile(parts[len(parts)-1], slices.ContainsFunc(parts[:len(parts)-1], isOnlineText))
}

// receivedOnline notes an online text that shows no text (only pictures, or
// nothing) as received, not read: it is no acces.md, and her no-acces-md
// names its pictures, or the page when it shows none (organisateurs.md).
// It is still read for key material. Named on its own, with no learner's
// result to name it in, it is read as her acces.md.
func (w *walker) receivedOnline(it item, rs *receipts) bool {
	if !it.online || it.err != nil || w.in == nil && (it.moodle == "" || rs == nil) {
		return false
	}
	pictures, empty := acces.OnlineTextPictures(it.data)
	if !empty {
		return false
	}
	r := w.in
	if r == nil && it.entry == "" {
		r = rs.at(it.moodle, it.learner, it.path)
	} else if r == nil { // in an archive: at her folder, as zipRead.received
		archive := strings.TrimSuffix(it.path[:len(it.path)-len(it.entry)], "!/")
		r = rs.atEntry(it.moodle, it.learner, archive, it.entry)
	}
	if len(pictures) == 0 {
		// The page: shownName already says Moodle's flat
		// "…_assignsubmission_onlinetext_onlinetext.html" is online text.
		name := path.Base(filepath.ToSlash(it.path))
		r.add(name, shownName(name) == name)
	}
	for _, p := range pictures {
		r.add(p, true)
	}
	w.scanned(it, it.data)
	return true
}
