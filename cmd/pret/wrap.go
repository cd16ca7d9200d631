package main

import "github.com/romeo-pret/pret/internal/textwrap"

// The wrapping is internal/textwrap's, shared with the wizard's questions;
// these names are what cmd and its tests call.
func wrapText(s string, width int) string { return textwrap.Text(s, width) }

func visibleWidth(s string) int { return textwrap.Columns(s) }

func stripEscapes(s string) string { return textwrap.StripEscapes(s) }
