package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"strings"
)

// filesDoc is the json report of pret valider (cli.md, organisateurs.md).
type filesDoc struct {
	Files   []FileResult `json:"files"`
	Summary BatchSummary `json:"summary"`
}

// writeFilesJSON writes filesDoc as writeJSON would write it whole, one
// file at a time (TestFilesJSONIsEncoding).
func writeFilesJSON(w io.Writer, r FilesReport) error {
	return writeJSONParts(w, func(p *jsonParts) error {
		p.raw("{\n  \"files\": ")
		err := p.list("    ", func(yield func(any) bool) {
			for f := range r.all() {
				if f.Problems == nil {
					f.Problems = []Problem{} // a list, never null (cli.md)
				}
				if !yield(f) {
					return
				}
			}
		})
		if err != nil {
			return err
		}
		p.raw(",\n  \"summary\": ")
		err = p.summary(summarize(r.all()))
		p.raw("\n}\n")
		return err
	})
}

// summary writes s, its duplicate groups path by path: one key shared by
// 100,000 files is a group of 100,000 paths, too many to encode at once
// under the 64 MiB of organisateurs.md.
func (p *jsonParts) summary(s BatchSummary) error {
	dups := s.Duplicates
	s.Duplicates = [][]string{}
	p.buf.Reset()
	p.enc.SetIndent("  ", "  ")
	if err := p.enc.Encode(s); err != nil {
		return err
	}
	// The key is written once: in a value, its quotes would be escaped.
	const key = `"duplicates": []`
	before, after, _ := strings.Cut(strings.TrimSuffix(p.buf.String(), "\n"), key)
	p.raw(before + key[:len(key)-2] + "[")
	for i, g := range dups {
		if i > 0 {
			p.raw(",")
		}
		p.raw("\n      ")
		err := p.list("        ", func(yield func(any) bool) {
			for _, path := range g {
				if !yield(path) {
					return
				}
			}
		})
		if err != nil {
			return err
		}
	}
	if len(dups) > 0 {
		p.raw("\n    ")
	}
	p.raw("]" + after)
	return nil
}

// jsonParts writes a JSON document as writeJSON would write it whole,
// its frame written by the caller and each value encoded at its depth:
// the bytes are the same, and no list is held whole.
type jsonParts struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder // into buf
}

func writeJSONParts(w io.Writer, write func(*jsonParts) error) error {
	return writeEscaped(w, jsonEscape, func(w io.Writer) error {
		p := &jsonParts{w: bufio.NewWriter(w)}
		p.enc = json.NewEncoder(&p.buf)
		p.enc.SetEscapeHTML(false)
		if err := write(p); err != nil {
			return err
		}
		return p.w.Flush()
	})
}

func (p *jsonParts) raw(s string) { p.w.WriteString(s) }

// value writes v indented as it would be at the depth of prefix.
func (p *jsonParts) value(prefix string, v any) error {
	p.buf.Reset()
	p.enc.SetIndent(prefix, "  ")
	if err := p.enc.Encode(v); err != nil {
		return err
	}
	_, err := p.w.Write(bytes.TrimSuffix(p.buf.Bytes(), []byte("\n")))
	return err
}

// list writes items as a list whose items sit at the depth of indent,
// its closing bracket one level out.
func (p *jsonParts) list(indent string, items iter.Seq[any]) error {
	p.raw("[")
	n := 0
	for v := range items {
		if n > 0 {
			p.raw(",")
		}
		p.raw("\n" + indent)
		if err := p.value(indent, v); err != nil {
			return err
		}
		n++
	}
	if n > 0 {
		p.raw("\n" + indent[:len(indent)-2])
	}
	p.raw("]")
	return nil
}
