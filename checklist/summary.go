package checklist

import (
	"iter"
	"slices"
	"sort"
)

// BatchSummary is the summary of a run over many files
// (organisateurs.md): counts, files per problem code, and the groups of
// files that share a fingerprint.
type BatchSummary struct {
	FilesSummary
	// Warnings counts the valid files that have warnings.
	Warnings int `json:"warnings"`
	// Codes counts the files that have each problem code.
	Codes map[string]int `json:"codes"`
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
