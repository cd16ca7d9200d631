// Package house holds the tests of the code's own shape: rules every
// package keeps, checked over the module's source, not its behaviour.
package house
