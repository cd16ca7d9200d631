package checklist

import (
	"cmp"
	"encoding/json"
	"iter"
	"maps"
	"slices"
	"strconv"
)

// BatchSummary is the summary of a run over many files
// (organisateurs.md): counts, files per problem code, and the groups of
// paths that state one fingerprint.
type BatchSummary struct {
	Files      int            `json:"files"`
	Valid      int            `json:"valid"`
	Invalid    int            `json:"invalid"`
	Warnings   int            `json:"warnings"` // valid files that have warnings
	Codes      CodeCounts     `json:"codes"`
	Duplicates [][]string     `json:"duplicates"`
	groups     map[string]int // fingerprint → index in Duplicates
}

func newSummary() BatchSummary {
	return BatchSummary{Codes: CodeCounts{}, Duplicates: [][]string{}, groups: map[string]int{}}
}

func summarize(files iter.Seq[FileResult]) BatchSummary {
	s := newSummary()
	for f := range files {
		s.add(f)
	}
	return s
}

func (s *BatchSummary) add(f FileResult) {
	s.Files++
	if f.Valid {
		s.Valid++
	} else {
		s.Invalid++
	}
	if f.Valid && len(f.Problems) > 0 {
		s.Warnings++
	}
	for _, code := range f.codes("") {
		s.Codes[code]++
	}
	if f.sharesKey() {
		group(&s.Duplicates, s.groups, f.Fingerprint, f.Path)
	}
}

// sharesKey reports a file in a group of duplicate-fingerprint.
func (f FileResult) sharesKey() bool {
	return f.Fingerprint != "" && f.has("duplicate-fingerprint")
}

// group appends v to the group of key, the groups in the order their
// key was first met; index maps a key to its group.
func group[T any](groups *[][]T, index map[string]int, key string, v T) {
	i, ok := index[key]
	if !ok {
		i = len(*groups)
		index[key] = i
		*groups = append(*groups, nil)
	}
	(*groups)[i] = append((*groups)[i], v)
}

// codes lists a file's codes of one severity ("": all) once each.
func (f FileResult) codes(sev Severity) []string {
	var out []string
	for _, p := range f.Problems {
		if (sev == "" || p.Severity == sev) && !slices.Contains(out, p.Code) {
			out = append(out, p.Code)
		}
	}
	return out
}

func (f FileResult) has(code string) bool {
	return slices.ContainsFunc(f.Problems, func(p Problem) bool { return p.Code == code })
}

// Leaks reports whether the file holds a private key (private-key-leak).
func (f FileResult) Leaks() bool { return f.has("private-key-leak") }

// verdict is a file's verdict as people read it.
func (f FileResult) verdict() string {
	switch {
	case !f.Valid:
		return "invalide"
	case len(f.Problems) > 0:
		return "avertissement"
	}
	return "valide"
}

// CodeCounts counts files per problem code. Its JSON object lists the
// codes most frequent first, then by name, as organisateurs.md asks: a
// reader of the raw file sees the main problem at the top.
type CodeCounts map[string]int

func (c CodeCounts) ordered() []string {
	return slices.SortedFunc(maps.Keys(c), func(a, b string) int { return cmp.Or(c[b]-c[a], cmp.Compare(a, b)) })
}

func (c CodeCounts) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range c.ordered() {
		if i > 0 {
			b = append(b, ',')
		}
		name, _ := json.Marshal(k) // a string always encodes
		b = append(append(append(b, name...), ':'), strconv.Itoa(c[k])...)
	}
	return append(b, '}'), nil
}
