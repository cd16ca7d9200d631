package dates

// TEMPORARY (lead's main branch): stands for the dates engineer's Find
// until that branch lands; deleted at the merge.

import (
	"regexp"
	"time"

	"github.com/romeo-pret/pret/internal/textfold"
)

// Context completes what a person leaves out.
type Context struct {
	Today, Session time.Time
}

// Found is a date written in a text.
type Found struct {
	Start, End int
	Day        time.Time
	Err        error
}

var tmpDate = regexp.MustCompile(`(?i)\b(\d{4})-(\d{1,2})-(\d{1,2})\b|\b(\d{1,2})/(\d{1,2})/(\d{4})\b|\b(1er|\d{1,2}) (janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre) (\d{4})\b`)

// Find returns the absolute dates written in text, in order.
func Find(text string, ctx Context) []Found {
	var out []Found
	for _, m := range tmpDate.FindAllStringSubmatchIndex(text, -1) {
		s := text[m[0]:m[1]]
		var y, mo, d int
		var ok bool
		switch {
		case m[2] >= 0:
			y, mo, d, ok = ISOWord(s)
		case m[8] >= 0:
			y, mo, d, ok = Slashed(text[m[8]:m[9]], text[m[10]:m[11]], text[m[12]:m[13]])
		default:
			y, mo, d, ok = Written(text[m[14]:m[15]], textfold.Fold(text[m[16]:m[17]]), text[m[18]:m[19]])
		}
		f := Found{Start: m[0], End: m[1]}
		if t, ok2 := Civil(y, mo, d); ok && ok2 {
			f.Day = t
		} else {
			f.Err = &Error{Input: s, Reason: "ce jour n'existe pas dans le calendrier"}
		}
		out = append(out, f)
	}
	return out
}
