package checklist

import (
	"bytes"
	"encoding/json"
	"iter"
	"slices"
	"sort"
	"strconv"
)

// BatchSummary is the summary of a run over many files
// (organisateurs.md): counts, files per problem code, and the groups of
// files that share a fingerprint.
type BatchSummary struct {
	FilesSummary
	// Warnings counts the valid files that have warnings.
	Warnings int `json:"warnings"`
	// Codes counts the files that have each problem code.
	// Its JSON lists the most frequent first (CodeCounts.MarshalJSON).
	Codes CodeCounts `json:"codes"`
	// Duplicates lists the groups of paths that state one fingerprint.
	Duplicates [][]string `json:"duplicates"`
}

// CodeCount is one line of the summary's table of codes.
type CodeCount struct {
	Code     string
	Severity Severity // of the code's first problem met
	Files    int
}

// Summarize counts a run.
func Summarize(files []FileResult) BatchSummary { return summarize(slices.Values(files)) }

func summarize(files iter.Seq[FileResult]) BatchSummary {
	s := BatchSummary{Codes: map[string]int{}, Duplicates: [][]string{}}
	groups := map[string][]string{}
	var order []string
	for f := range files {
		s.Files++
		if f.Valid {
			s.Valid++
		} else {
			s.Invalid++
		}
		seen := map[string]bool{}
		for _, p := range f.Problems {
			if !seen[p.Code] {
				seen[p.Code] = true
				s.Codes[p.Code]++
			}
			if p.Code == "duplicate-fingerprint" && f.Fingerprint != "" && !seen["\x00dup"] {
				seen["\x00dup"] = true
				if _, ok := groups[f.Fingerprint]; !ok {
					order = append(order, f.Fingerprint)
				}
				groups[f.Fingerprint] = append(groups[f.Fingerprint], f.Path)
			}
		}
		if f.Valid && len(f.Problems) > 0 {
			s.Warnings++
		}
	}
	for _, fp := range order {
		s.Duplicates = append(s.Duplicates, groups[fp])
	}
	return s
}

// ByFrequency lists the codes, most frequent first, then by name.
func (s BatchSummary) ByFrequency(files []FileResult) []CodeCount {
	return s.byFrequency(slices.Values(files))
}

func (s BatchSummary) byFrequency(files iter.Seq[FileResult]) []CodeCount {
	sev := map[string]Severity{}
	for f := range files {
		for _, p := range f.Problems {
			if _, ok := sev[p.Code]; !ok {
				sev[p.Code] = p.Severity
			}
		}
	}
	out := make([]CodeCount, 0, len(s.Codes))
	for c, n := range s.Codes {
		out = append(out, CodeCount{Code: c, Severity: sev[c], Files: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Files != out[j].Files {
			return out[i].Files > out[j].Files
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// errorCodes and warningCodes list a file's codes once each, in order.
func (f FileResult) codes(sev Severity) []string {
	var out []string
	for _, p := range f.Problems {
		if p.Severity == sev && !contains(out, p.Code) {
			out = append(out, p.Code)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

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

// MarshalJSON writes the keys in frequency order.
func (c CodeCounts) MarshalJSON() ([]byte, error) {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c[keys[i]] != c[keys[j]] {
			return c[keys[i]] > c[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(c[k]))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
