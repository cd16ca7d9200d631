package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"slices"
)

// jsonWriter encodes each value at its depth: no list of a run held whole.
type jsonWriter struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
	err error // the first; then nothing more is written
}

func writeJSONDoc(w io.Writer, write func(*jsonWriter)) error {
	j := &jsonWriter{w: bufio.NewWriter(w)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	write(j)
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

func writeJSON(w io.Writer, v any) error {
	return writeJSONDoc(w, func(j *jsonWriter) {
		j.value("", v)
		j.raw("\n")
	})
}

func (j *jsonWriter) raw(s string)               { j.write([]byte(s)) }
func (j *jsonWriter) value(prefix string, v any) { j.write(j.encode(prefix, v)) }

func (j *jsonWriter) write(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(escapeEncoded(b, jsonEscape))
	}
}

func (j *jsonWriter) encode(prefix string, v any) []byte {
	j.buf.Reset()
	j.enc.SetIndent(prefix, "  ")
	if j.err == nil {
		j.err = j.enc.Encode(v)
	}
	return bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))
}

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

// writeFilesJSON: cli.md, organisateurs.md; TestFilesJSONIsEncoding.
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
		// A key shared by 100,000 files: the groups go path by path.
		groups := s.Duplicates
		s.Duplicates = [][]string{}
		j.raw(",\n  \"summary\": " + string(bytes.TrimSuffix(j.encode("  ", s), []byte("[]\n  }"))))
		list(j, "      ", slices.Values(groups), func(g []string) {
			list(j, "        ", slices.Values(g), func(p string) { j.value("        ", p) })
		})
		j.raw("\n  }\n}\n")
	})
}
