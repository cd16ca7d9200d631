package checklist

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"slices"
)

// jsonWriter writes a JSON document with the bytes encoding/json gives
// of it whole (indented by two spaces, HTML characters raw), through the
// escaping writer: the caller writes the frame, and each value is
// encoded at its depth, so that no list of a run is held encoded whole.
type jsonWriter struct {
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder // into buf
	err error         // the first one; then nothing more is written
}

func writeJSONDoc(w io.Writer, write func(*jsonWriter)) error {
	return writeEscaped(w, jsonEscape, func(w io.Writer) error {
		j := &jsonWriter{w: w}
		j.enc = json.NewEncoder(&j.buf)
		j.enc.SetEscapeHTML(false)
		write(j)
		return j.err
	})
}

// writeJSON writes v as one document.
func writeJSON(w io.Writer, v any) error {
	return writeJSONDoc(w, func(j *jsonWriter) {
		j.value("", v)
		j.raw("\n")
	})
}

func (j *jsonWriter) raw(s string) { j.write([]byte(s)) }

func (j *jsonWriter) value(prefix string, v any) { j.write(j.encode(prefix, v)) }

func (j *jsonWriter) write(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
}

// encode is v as it sits at the depth of prefix, without the line feed
// the encoder ends it with.
func (j *jsonWriter) encode(prefix string, v any) []byte {
	j.buf.Reset()
	j.enc.SetIndent(prefix, "  ")
	if j.err == nil {
		j.err = j.enc.Encode(v)
	}
	return bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))
}

// list writes items as a list whose items sit at the depth of indent
// (put writes each), its closing bracket one level out.
func list[T any](j *jsonWriter, indent string, items iter.Seq[T], put func(T)) {
	sep := "[\n"
	for v := range items {
		if j.err != nil {
			return
		}
		j.raw(sep + indent)
		put(v)
		sep = ",\n"
	}
	if sep == "[\n" {
		j.raw("[]")
	} else {
		j.raw("\n" + indent[2:] + "]")
	}
}

// writeFilesJSON writes {"files": [...], "summary": BatchSummary} (cli.md,
// organisateurs.md), one file at a time (TestFilesJSONIsEncoding).
func writeFilesJSON(w io.Writer, r FilesReport) error {
	return writeJSONDoc(w, func(j *jsonWriter) {
		j.raw("{\n  \"files\": ")
		s := newSummary()
		list(j, "    ", r.all(), func(f FileResult) {
			s.add(f)
			if f.Problems == nil {
				f.Problems = []Problem{} // a list, never null (cli.md)
			}
			j.value("    ", f)
		})
		// One key shared by 100,000 files is a group too big to encode at
		// once in 64 MiB: the groups, last in the summary, go path by path.
		groups := s.Duplicates
		s.Duplicates = [][]string{}
		j.raw(",\n  \"summary\": " + string(bytes.TrimSuffix(j.encode("  ", s), []byte("[]\n  }"))))
		list(j, "      ", slices.Values(groups), func(g []string) {
			list(j, "        ", slices.Values(g), func(p string) { j.value("        ", p) })
		})
		j.raw("\n  }\n}\n")
	})
}
