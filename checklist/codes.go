package checklist

import (
	_ "embed"
	"strings"
)

// CodeInfo describes a problem code for the reports that list rules
// (SARIF), label codes (csv, html) or explain them.
type CodeInfo struct {
	Code     string
	Severity Severity // default severity
	// Label is the problem in a few French words, shown beside the code.
	Label string
	// Detail says what the rule checks (SARIF's fullDescription).
	Detail string
	// Help says what the organiser or the learner does about it (SARIF's
	// help).
	Help string
}

// leakIncident is what every report says of a private-key leak, first:
// the organiser acts on it before anything else.
const leakIncident = "cette clé est compromise : demandez une nouvelle clé"

// codes.txt holds the problem codes of acces-md.md, organisateurs.md and
// signature.md, in the order of the contract: French prose, one block
// per code ("code severity", label, detail, help), blocks apart by a
// blank line.
//
//go:embed codes.txt
var codesText string

// Codes are the problem codes, in the order of the contract.
var Codes = parseCodes(codesText)

func parseCodes(text string) []CodeInfo {
	var out []CodeInfo
	for _, block := range strings.Split(strings.TrimSpace(text), "\n\n") {
		l := strings.Split(block, "\n")
		code, sev, _ := strings.Cut(l[0], " ")
		out = append(out, CodeInfo{code, Severity(sev), l[1], l[2], l[3]})
	}
	return out
}

// codeInfo finds a code's description; a code this table does not know
// yet is still reported, under its own name.
func codeInfo(code string, severity Severity) CodeInfo {
	for _, c := range Codes {
		if c.Code == code {
			return c
		}
	}
	return CodeInfo{Code: code, Severity: severity, Label: code, Detail: code, Help: code}
}
