package checklist

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// SARIF 2.1.0 as code scanning reads it: one run, one result per problem.
type sarifTool struct {
	Driver struct {
		Name    string      `json:"name"`
		Version string      `json:"version,omitempty"`
		Rules   []sarifRule `json:"rules"`
	} `json:"driver"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	FullDescription      sarifMessage `json:"fullDescription"`
	Help                 sarifMessage `json:"help"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          *sarifProperties  `json:"properties,omitempty"`
}

type sarifProperties struct {
	Apprenant   string `json:"apprenant,omitempty"`
	Entry       string `json:"entry,omitempty"`
	EntryLine   string `json:"entryLine,omitempty"`
	Participant string `json:"participant,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifFingerprint: pret's own key, without line or message: an edit above is no new alert.
func sarifFingerprint(code, uri, entry, learner string, nth int) map[string]string {
	h := sha256.New()
	for _, s := range []string{code, uri, entry, learner, strconv.Itoa(nth)} {
		h.Write(append([]byte(s), 0))
	}
	return map[string]string{"pretProblem/v1": hex.EncodeToString(h.Sum(nil)[:16])}
}

// writeFilesSARIF writes results one at a time (TestSARIFIsEncoding).
func writeFilesSARIF(w io.Writer, r FilesReport) error {
	var tool sarifTool
	tool.Driver.Name, tool.Driver.Version, tool.Driver.Rules = "pret", r.Version, []sarifRule{}
	index := map[Code]int{} // every code is in Codes: one rule each
	for _, info := range Codes {
		r := sarifRule{ID: string(info.Code), ShortDescription: sarifMessage{info.Label}, FullDescription: sarifMessage{info.Detail}, Help: sarifMessage{info.Help}}
		r.DefaultConfiguration.Level = string(info.Severity) // SARIF's levels
		index[info.Code] = len(tool.Driver.Rules)
		tool.Driver.Rules = append(tool.Driver.Rules, r)
	}
	results := func(yield func(sarifResult) bool) {
		for f := range r.all() {
			uri := fileURI(r.Dir, cmp.Or(f.Archive, f.Path))
			seen := map[Code]int{}
			for _, p := range f.Problems {
				res := sarifResult{RuleID: string(p.Code), RuleIndex: index[p.Code], Level: string(p.Severity), Message: sarifMessage{p.Message},
					Locations: make([]sarifLocation, 1), PartialFingerprints: sarifFingerprint(string(p.Code), uri, f.Entry, f.Apprenant, seen[p.Code])}
				seen[p.Code]++
				if r.Strict {
					res.Level = "error"
				}
				loc := &res.Locations[0].PhysicalLocation
				loc.ArtifactLocation.URI = uri
				if p.Line > 0 && f.Archive == "" {
					loc.Region = &sarifRegion{p.Line}
				}
				props := sarifProperties{Apprenant: f.Apprenant, Entry: f.Entry, Participant: f.Participant}
				if f.Entry != "" && p.Line > 0 {
					props.EntryLine = strconv.Itoa(p.Line)
				}
				if props != (sarifProperties{}) {
					res.Properties = &props
				}
				if !yield(res) {
					return
				}
			}
		}
	}
	return writeJSONDoc(w, func(j *jsonWriter) {
		j.raw("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": ")
		j.value("      ", tool)
		j.raw(",\n      \"results\": ")
		list(j, "        ", results, func(res sarifResult) { j.value("        ", res) })
		j.raw("\n    }\n  ]\n}\n")
	})
}

// relativePath: code scanning and annotations name files from the repository root.
func relativePath(dir, p string) string {
	if dir != "" {
		if rel, err := filepath.Rel(dir, absPath(dir, p)); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

func absPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func fileURI(dir, p string) string {
	rel := relativePath(dir, p)
	if !filepath.IsAbs(filepath.FromSlash(rel)) && !strings.HasPrefix(rel, "../") && rel != ".." {
		return (&url.URL{Path: rel}).String()
	}
	abs := "/" + strings.TrimPrefix(filepath.ToSlash(absPath(dir, p)), "/") // C:/x → /C:/x
	return (&url.URL{Scheme: "file", Path: abs}).String()
}
