package submissions

import (
	"path/filepath"
	"slices"
	"strings"
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
