package acces

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// tableTransformer turns a paragraph into a GitHub table as goldmark's table
// extension does, less two costs the rules do not need. goldmark pads each
// short row with empty cells up to the header's width: a header of 2,040 cells
// over 4,078 rows of one makes eight million cells (2.2 GiB) from 16 KiB; an
// empty cell shows nothing, so none is made here, and a table costs its
// source's size. And goldmark finds a cell's escaped pipes (`\|` inside a code
// span) by walking every such pipe of the page for every piece of code text, a
// square; the reader drops their backslash as it reads the cell instead.
type tableTransformer struct{}

func (tableTransformer) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines, src := node.Lines(), reader.Source()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		cols := delimiterColumns(delim.Value(src))
		if cols == 0 {
			continue
		}
		header := tableRow(lines.At(i-1), cols, true, src)
		if header.ChildCount() > cols { // goldmark pads a shorter header, as the rows
			return
		}
		table := east.NewTable()
		table.Alignments = make([]east.Alignment, cols) // AlignNone: the rules read no alignment
		table.SetPos(node.Pos())
		table.AppendChild(table, east.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, tableRow(lines.At(j), cols, false, src))
		}
		node.Lines().SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if node.Lines().Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
		} else {
			last := node.Lines().At(i - 2)
			last.Stop-- // the paragraph above the table ends before its line end
			node.Lines().Set(i-2, last)
		}
		return
	}
}

// delimiterColumns is the number of columns of a delimiter row (`|---|:--:|`),
// 0 if line is not one. It is goldmark's test, without a regular expression
// per column.
func delimiterColumns(line []byte) int {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return 0
	}
	for _, c := range line {
		if !(util.IsSpace(c) || c == '-' || c == '|' || c == ':') {
			return 0
		}
	}
	if bytes.Count(line, []byte("-")) == len(line) {
		return 0 // a thematic break or a setext underline, not a table
	}
	cols := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cols[0]) {
		cols = cols[1:]
	}
	if len(cols) > 0 && util.IsBlank(cols[len(cols)-1]) {
		cols = cols[:len(cols)-1]
	}
	for _, c := range cols {
		if !delimiterCell(c) {
			return 0
		}
	}
	return len(cols)
}

// delimiterCell: spaces, an optional colon, one dash or more, an optional colon, spaces.
func delimiterCell(c []byte) bool {
	c = util.TrimLeftSpace(util.TrimRightSpace(c))
	c = bytes.TrimPrefix(c, []byte(":"))
	c = bytes.TrimSuffix(c, []byte(":"))
	return len(c) > 0 && len(bytes.Trim(c, "-")) == 0
}

// tableRow reads one row's cells, at most cols of them past the header (a
// renderer drops the rest), and no empty cell where the row is short.
func tableRow(seg text.Segment, cols int, header bool, src []byte) *east.TableRow {
	row := east.NewTableRow(nil)
	row.SetPos(seg.Start)
	seg = seg.TrimLeftSpace(src)
	seg = seg.TrimRightSpace(src)
	line := seg.Value(src)
	pos, limit := 0, len(line)
	if limit > 0 && line[0] == '|' {
		pos++
	}
	if limit > 0 && line[limit-1] == '|' {
		limit--
	}
	for i := 0; pos < limit; i++ {
		if i >= cols && !header {
			break
		}
		end := pos
		for end < limit && (line[end] != '|' || end > 0 && line[end-1] == '\\') {
			end++
		}
		cell := east.NewTableCell()
		cell.SetPos(seg.Start + pos)
		in := text.NewSegment(seg.Start+pos, seg.Start+end)
		in = in.TrimLeftSpace(src)
		cell.Lines().Append(in.TrimRightSpace(src))
		row.AppendChild(row, cell)
		pos = end + 1
	}
	return row
}
