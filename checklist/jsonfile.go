package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// filesDoc is the json report of pret valider (cli.md, organisateurs.md).
type filesDoc struct {
	Files   []FileResult `json:"files"`
	Summary BatchSummary `json:"summary"`
}

// writeFilesJSON writes filesDoc as writeJSON would write it whole, one
// file at a time through one encoder: a run over many files is never
// held as one value. Each part is encoded with the indent of its depth,
// so the bytes are encoding/json's (TestFilesJSONIsEncoding), and go out
// through the bidi filter as every json output does.
func writeFilesJSON(w io.Writer, r FilesReport) error {
	return withoutBidi(w, jsonBidi, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		put := func(v any) error {
			buf.Reset()
			if err := enc.Encode(v); err != nil {
				return err
			}
			bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
			return nil
		}
		bw.WriteString("{\n  \"files\": [")
		enc.SetIndent("    ", "  ")
		n := 0
		for f := range r.all() {
			if f.Problems == nil {
				f.Problems = []Problem{} // a list, never null (cli.md)
			}
			if n > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    ")
			if err := put(f); err != nil {
				return err
			}
			n++
		}
		if n > 0 {
			bw.WriteString("\n  ")
		}
		bw.WriteString("],\n  \"summary\": ")
		enc.SetIndent("  ", "  ")
		if err := put(summarize(r.all())); err != nil {
			return err
		}
		bw.WriteString("\n}\n")
		return bw.Flush()
	})
}
