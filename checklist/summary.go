package checklist

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/romeo-pret/pret/internal/termtext"
)

// BatchSummary is pinned by organisateurs.md.
type BatchSummary struct {
	Files      int            `json:"files"`
	Valid      int            `json:"valid"`
	Invalid    int            `json:"invalid"`
	Warnings   int            `json:"warnings"`
	Codes      CodeCounts     `json:"codes"`
	Duplicates [][]string     `json:"duplicates"`
	groups     map[string]int // fingerprint → index in Duplicates
}

// unit is what the summary counts: learners when the results are an
// export's (one per learner, organisateurs.md), else files.
func (r FilesReport) unit() string {
	if r.Learners {
		return "apprenant"
	}
	return "fichier"
}

// tieNote says that a result was chosen among its learner's files by its
// path alone: the organiser decides which is hers.
const tieNote = "même date que le fichier lu, et des noms que Moodle n'ordonne pas : retenu par son chemin ; vérifiez lequel compte"

// OthersLine is the learner's other files, not validated, for the
// formats read by people; "" when there are none.
func (f FileResult) OthersLine() string {
	if len(f.Others) == 0 {
		return ""
	}
	s := termtext.Plural(len(f.Others))
	return "autre" + s + " fichier" + s + " de ce rendu, non validé" + s + " : " + othersCell(f)
}

// othersCell is the learner's other files, and the tie when there is one.
func othersCell(f FileResult) string {
	s := strings.Join(f.Others, " ; ")
	if f.OthersTied {
		s += " (" + tieNote + ")"
	}
	return s
}

func newSummary() BatchSummary {
	return BatchSummary{Codes: CodeCounts{}, Duplicates: [][]string{}, groups: map[string]int{}}
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
		s.Codes[Code(code)]++
	}
	if f.sharesKey() {
		group(&s.Duplicates, s.groups, f.Fingerprint, f.Path)
	}
}

func (f FileResult) sharesKey() bool {
	return f.Fingerprint != "" && f.has(CodeDuplicateFingerprint)
}

// group keeps groups in the order their key was first met.
func group[T any](groups *[][]T, index map[string]int, key string, v T) {
	i, ok := index[key]
	if !ok {
		i = len(*groups)
		index[key] = i
		*groups = append(*groups, nil)
	}
	(*groups)[i] = append((*groups)[i], v)
}

// codes of one severity ("": all), once each, as the formats join them.
func (f FileResult) codes(sev Severity) []string {
	var out []string
	for _, p := range f.Problems {
		if (sev == "" || p.Severity == sev) && !slices.Contains(out, string(p.Code)) {
			out = append(out, string(p.Code))
		}
	}
	return out
}

func (f FileResult) has(code Code) bool {
	return slices.ContainsFunc(f.Problems, func(p Problem) bool { return p.Code == code })
}

func (f FileResult) Leaks() bool { return f.has(CodePrivateKeyLeak) }

func (f FileResult) verdict() string {
	switch {
	case !f.Valid:
		return "invalide"
	case len(f.Problems) > 0:
		return "avertissement"
	}
	return "valide"
}

// CodeCounts' JSON is most frequent first, then by name (organisateurs.md).
type CodeCounts map[Code]int

func (c CodeCounts) ordered() []Code {
	return slices.SortedFunc(maps.Keys(c), func(a, b Code) int { return cmp.Or(c[b]-c[a], cmp.Compare(a, b)) })
}

func (c CodeCounts) MarshalJSON() ([]byte, error) {
	var fields []string
	for _, k := range c.ordered() {
		name, _ := json.Marshal(k)
		fields = append(fields, string(name)+":"+strconv.Itoa(c[k]))
	}
	return []byte("{" + strings.Join(fields, ",") + "}"), nil
}
