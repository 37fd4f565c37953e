// Package assets holds the files embedded in the streamlab binary.
//
// It imports nothing of streamlab's own, so every other package may use it.
package assets

import _ "embed"

// DefaultConfig is the built-in configuration (config.default.yaml): every
// configuration key with its default value. A user's configuration file,
// STREAMLAB_* environment variables and command-line flags override it, in
// that order.
//
//go:embed config.default.yaml
var DefaultConfig []byte

// Passwords is a list of "compromised" passwords, one a line, for the
// passwords job. It is synthetic — generated from a seed by
// engine.GeneratePasswords, never a real leaked list.
//
//go:embed passwords.txt
var Passwords string
