package checklist

import (
	"strconv"
	"unicode/utf8"
)

// appendFileJSON appends f as encoding/json writes it with the indent of
// the files list (prefix "    ", indent "  ", no HTML escaping), without
// its final newline: byte for byte the same, written straight rather
// than encoded then re-indented, which was most of a large report's
// time. ok is false for what it does not know (a livrables payload):
// the caller encodes those the slow way.
func appendFileJSON(dst []byte, f *FileResult) (_ []byte, ok bool) {
	if f.Effective != nil {
		return dst, false
	}
	const in1, in2, in3 = "\n      ", "\n        ", "\n          "
	dst = append(dst, '{')
	dst = append(dst, in1+`"path": `...)
	dst = appendJSONString(dst, f.Path)
	dst = append(dst, ","+in1+`"valid": `...)
	dst = strconv.AppendBool(dst, f.Valid)
	dst = append(dst, ","+in1+`"fingerprint": `...)
	dst = appendJSONString(dst, f.Fingerprint)
	dst = append(dst, ","+in1+`"problems": [`...)
	for i := range f.Problems {
		p := &f.Problems[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, in2+"{"+in3+`"code": `...)
		dst = appendJSONString(dst, p.Code)
		dst = append(dst, ","+in3+`"severity": `...)
		dst = appendJSONString(dst, string(p.Severity))
		dst = append(dst, ","+in3+`"message": `...)
		dst = appendJSONString(dst, p.Message)
		if p.Line != 0 {
			dst = append(dst, ","+in3+`"line": `...)
			dst = strconv.AppendInt(dst, int64(p.Line), 10)
		}
		dst = append(dst, in2+"}"...)
	}
	if len(f.Problems) > 0 {
		dst = append(dst, in1...)
	}
	dst = append(dst, ']')
	for _, kv := range [...]struct{ key, v string }{{`"apprenant": `, f.Apprenant}, {`"archive": `, f.Archive}, {`"entry": `, f.Entry}, {`"date": `, f.Date}} {
		if kv.v != "" {
			dst = append(dst, ","+in1...)
			dst = append(dst, kv.key...)
			dst = appendJSONString(dst, kv.v)
		}
	}
	dst = append(dst, ","+in1+`"statut": `...)
	dst = appendJSONString(dst, f.Statut)
	if len(f.DuplicateOf) > 0 {
		dst = append(dst, ","+in1+`"duplicate_of": [`...)
		for i, p := range f.DuplicateOf {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, in2...)
			dst = appendJSONString(dst, p)
		}
		dst = append(dst, in1+"]"...)
	}
	if f.DuplicateCount != 0 {
		dst = append(dst, ","+in1+`"duplicate_count": `...)
		dst = strconv.AppendInt(dst, int64(f.DuplicateCount), 10)
	}
	return append(dst, "\n    }"...), true
}

// appendJSONString is encoding/json's string encoder with HTML escaping
// off: quotes, backslashes and control characters escaped, invalid UTF-8
// as \ufffd, U+2028 and U+2029 escaped; then C1 controls and format
// characters escaped as the report's bidi filter (jsonBidi) does.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != 0x7f {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case 0x7f: // raw for encoding/json, escaped by the bidi filter
				dst = jsonBidi(dst, 0x7f)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if size > 1 && formatLead(s[i]) && (c <= 0x9f || isFormat(c)) {
			// A C1 control or a format character, bidi controls among
			// them: escaped here as noBidiWriter would escape it in the
			// report, so that a list of such strings needs no filter.
			dst = append(dst, s[start:i]...)
			dst = jsonBidi(dst, c)
			i += size
			start = i
			continue
		}
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
